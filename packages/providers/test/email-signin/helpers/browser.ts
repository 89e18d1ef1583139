/**
 * A browser stand-in for `Auth()` in-process: a cookie jar (the e2e kit's), same-origin form POSTs
 * with the CSRF token, and following a magic link through its confirm page.
 */
import { CookieJar } from "@authlib/e2e-kit/cookie-jar"
import { Auth, type AuthConfig } from "@authlib/core"

export interface FormInit {
  form?: Record<string, string>
  headers?: Record<string, string>
  /** Request URL origin, when it differs from the application's (Host spoofing). */
  requestOrigin?: string
}

export class Browser {
  /** The browser's cookies for `origin`. */
  readonly jar: CookieJar
  constructor(readonly config: AuthConfig, readonly origin: string) {
    this.jar = new CookieJar(origin)
  }

  /** Sends one request; stores the cookies the response sets (and drops the ones it expires). */
  async request(path: string, init: FormInit & { method?: "GET" | "POST" } = {}): Promise<Response> {
    const headers = new Headers(init.headers)
    const method = init.method ?? (init.form ? "POST" : "GET")
    if (method === "POST" && !headers.has("origin")) headers.set("origin", this.origin)
    // The browser talks to `origin` (a spoofed `requestOrigin` is what the server is made to see).
    const page = new URL(path, this.origin)
    this.jar.apply(headers, page)
    let body: string | undefined
    if (init.form) (headers.set("content-type", "application/x-www-form-urlencoded"), (body = new URLSearchParams(init.form).toString()))
    const url = new URL(path, init.requestOrigin ?? this.origin)
    const res = await Auth(new Request(url, { method, headers, ...(body !== undefined ? { body } : {}) }), this.config)
    return this.jar.keep(res, page)
  }

  async csrfToken(): Promise<string> {
    return ((await (await this.request("/auth/csrf")).json()) as { csrfToken: string }).csrfToken
  }

  /** The e-mail form of the sign-in page, submitted. */
  async requestLink(email: string, extra: Record<string, string> = {}, init: FormInit = {}): Promise<Response> {
    const csrfToken = await this.csrfToken()
    return this.request("/auth/signin/nodemailer", { ...init, form: { csrfToken, email, ...extra } })
  }

  /** GET of the link: the confirm page and its form's hidden fields. */
  async openLink(link: string): Promise<{ page: Response; html: string; action: string; fields: Record<string, string> }> {
    const url = new URL(link)
    const page = await this.request(url.pathname + url.search)
    const html = await page.text()
    const action = /<form method="POST" action="([^"]+)"/.exec(html)?.[1]?.replace(/&amp;/g, "&") ?? ""
    const fields: Record<string, string> = {}
    for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) fields[m[1]!] = unescape(m[2]!)
    return { page, html, action, fields }
  }

  /** The confirm page's button. */
  confirm(action: string, fields: Record<string, string>): Promise<Response> {
    return this.request(new URL(action).pathname, { form: fields })
  }

  async session(): Promise<{ user?: { email?: string; name?: string | null }; expires?: string } | null> {
    return (await this.request("/auth/session")).json() as never
  }

  hasSessionCookie(): boolean {
    return [...this.jar.keys()].some((name) => name.startsWith("authlib.session-token"))
  }
}

function unescape(value: string): string {
  const map: Record<string, string> = { "&quot;": '"', "&#39;": "'", "&lt;": "<", "&gt;": ">", "&#96;": "`", "&amp;": "&" }
  return value.replace(/&(?:quot|#39|lt|gt|#96|amp);/g, (m) => map[m]!)
}

/** A logger that keeps what it is told (and keeps the test output quiet). */
export function recordingLogger() {
  const entries: Array<{ level: "error" | "warn" | "debug"; code: string; message: unknown[] }> = []
  const at = (level: "error" | "warn" | "debug") => (code: string, ...message: unknown[]) => void entries.push({ level, code, message })
  return { logger: { error: at("error"), warn: at("warn"), debug: at("debug") }, entries }
}
