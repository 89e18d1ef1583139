/**
 * A minimal browser for the tests: a cookie jar per host (`cookie-jar.ts`), manual redirects, and
 * requests to the app's origin answered in-process by a handler (`Auth`), everything else by real
 * `fetch` on loopback. It drives oidc-provider's login and consent pages like a user would.
 */
import { CookieJar } from "../cookie-jar.js"

export type Handler = (request: Request) => Promise<Response>

export interface Step {
  url: string
  response: Response
  body: string
}

export class Browser {
  /** host -> its cookies */
  readonly jar = new Map<string, CookieJar>()

  /** `apps` answers requests to further in-process origins (a redirect proxy deployment, say). */
  constructor(
    readonly appOrigin: string,
    readonly app: Handler,
    readonly apps: Record<string, Handler> = {},
  ) {}

  /** Whether `url` is answered in-process. */
  isApp(url: string): boolean {
    const { origin } = new URL(url)
    return origin === this.appOrigin || origin in this.apps
  }

  /** The cookies of `url`'s host. */
  cookies(url: string): CookieJar {
    const { host, origin } = new URL(url)
    let cookies = this.jar.get(host)
    if (!cookies) this.jar.set(host, (cookies = new CookieJar(origin)))
    return cookies
  }

  /** One request, no redirect following; cookies sent and stored. */
  async request(url: string, init: RequestInit = {}): Promise<Step> {
    const headers = this.cookies(url).apply(new Headers(init.headers), url)
    const request = new Request(url, { ...init, headers, redirect: "manual" })
    const { origin } = new URL(url)
    const handler = origin === this.appOrigin ? this.app : this.apps[origin]
    const response = handler ? await handler(request) : await fetch(request)
    this.cookies(url).keep(response, url)
    return { url, response, body: await response.text() }
  }

  /** Follows redirects (as GETs) from `url` until `stop` says so or a non-redirect answer. */
  async follow(url: string, stop: (url: string) => boolean = () => false, max = 20): Promise<Step> {
    let step = await this.request(url)
    for (let i = 0; i < max; i++) {
      const location = step.response.headers.get("location")
      if (!location || step.response.status < 300 || step.response.status >= 400) return step
      const next = new URL(location, step.url).href
      if (stop(next)) return { ...step, url: next }
      step = await this.request(next)
    }
    throw new Error(`too many redirects from ${url}`)
  }

  /** POSTs a form, as a browser would submit it. */
  form(url: string, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<Step> {
    return this.request(url, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
      body: new URLSearchParams(fields).toString(),
    })
  }
}

/** The `<input name value>` pairs of the first form in an HTML page, and its action. */
export function readForm(html: string, base: string): { action: string; fields: Record<string, string> } {
  const form = /<form[^>]*action="([^"]*)"[^>]*>([\s\S]*?)<\/form>/i.exec(html)
  if (!form) throw new Error(`no form in page: ${html.slice(0, 200)}`)
  const fields: Record<string, string> = {}
  for (const input of form[2]!.matchAll(/<input[^>]*>/gi)) {
    const name = /name="([^"]*)"/.exec(input[0])?.[1]
    const value = /value="([^"]*)"/.exec(input[0])?.[1] ?? ""
    if (name) fields[name] = decodeEntities(value)
  }
  return { action: new URL(decodeEntities(form[1]!), base).href, fields }
}

function decodeEntities(value: string): string {
  return value.replace(/&#(\d+);/g, (_, n) => String.fromCharCode(Number(n))).replace(/&#x([0-9a-f]+);/gi, (_, n) => String.fromCharCode(parseInt(n, 16))).replaceAll("&quot;", '"').replaceAll("&lt;", "<").replaceAll("&gt;", ">").replaceAll("&amp;", "&")
}
