/**
 * What the implementations of the database bench share: the operations they offer, the user they
 * serve, and a cookie jar over a handler. Every operation checks its answer (a broken fixture would
 * flatter an implementation) and may need one prepared item per call (a fresh e-mail link, a live
 * session to end, a fresh passkey challenge), made by `prepare` outside the timed call.
 */
export const secret = "bench-secret-bench-secret-bench-secret-0123"
export const origin = "http://localhost:3000"
export const quiet = { error() {}, warn() {}, debug() {} }
export const ada = { name: "Ada Lovelace", email: "ada.lovelace@example.com" }
export const password = "analytical"

export type Handler = (request: Request) => Promise<Response>

export interface Op {
  /** Makes what one call of `run` uses up (not timed, not counted). */
  prepare?: () => Promise<void>
  run: () => Promise<void>
}

export const OPERATIONS = ["GET /session", "credentials sign-in", "e-mail link completion", "passkey sign-in", "sign-out"] as const
export type Operation = (typeof OPERATIONS)[number]

export interface Implementation {
  name: string
  /** Why an operation is missing, or the operation. */
  ops: Record<Operation, Op | string>
}

/** A FIFO of prepared items: `prepare` pushes, `run` takes the oldest. */
export function queue<T>(): { push(item: T): void; take(): T } {
  const items: T[] = []
  let head = 0
  return {
    push: (item) => void items.push(item),
    take() {
      if (head >= items.length) throw new Error("bench: nothing prepared")
      const item = items[head++]!
      if (head > 1024) (items.splice(0, head), (head = 0))
      return item
    },
  }
}

/** A cookie jar over one handler, for the fixtures' set-up requests. */
export function browser(handler: Handler) {
  const jar = new Map<string, string>()
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join("; ")
  const request = async (path: string, form?: Record<string, string>) => {
    const headers = new Headers({ cookie: cookie() })
    if (form) (headers.set("content-type", "application/x-www-form-urlencoded"), headers.set("origin", origin))
    const res = await handler(new Request(`${origin}${path}`, { method: form ? "POST" : "GET", headers, ...(form ? { body: new URLSearchParams(form) } : {}) }))
    for (const line of res.headers.getSetCookie()) {
      const pair = line.split(";")[0]!
      const name = pair.slice(0, pair.indexOf("="))
      if (/Max-Age=0/i.test(line) || /Expires=Thu, 01 Jan 1970/i.test(line)) jar.delete(name)
      else jar.set(name, pair.slice(name.length + 1))
    }
    return res
  }
  return { jar, cookie, request }
}

/** The browser of every request: its User-Agent is described in the session's `clientDescription`. */
export const USER_AGENT = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36"

/** A form POST as a browser sends it. */
export function post(path: string, cookie: string, form: Record<string, string>): Request {
  return new Request(`${origin}${path}`, {
    method: "POST",
    headers: { cookie, origin, "content-type": "application/x-www-form-urlencoded", "user-agent": USER_AGENT },
    body: new URLSearchParams(form).toString(),
  })
}

/** Throws unless a sign-in answered a redirect to `/` with a session cookie named `cookieName`. */
export function expectSignedIn(who: string, res: Response, cookieName: string): void {
  if (res.status !== 302 || !res.headers.getSetCookie().some((c) => c.startsWith(`${cookieName}=`) && !/Max-Age=0/i.test(c)))
    throw new Error(`bench: ${who} answered ${res.status} ${res.headers.get("location")}`)
}
