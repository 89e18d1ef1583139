/**
 * A cookie jar for tests that talk to authlib over HTTP (or in process through `Auth()`), kept the
 * way a browser keeps cookies where it matters for auth (RFC 6265bis, simplified):
 * - a cookie is one (name, domain, path); a later `Set-Cookie` for the same three replaces it;
 * - `Max-Age` <= 0 or an `Expires` in the past deletes it (`Max-Age` wins over `Expires`);
 * - `Domain` must match the host that set it (else the cookie is ignored); without it the cookie
 *   is host-only; `Path` defaults to the request path's directory;
 * - `Secure` cookies are stored from and sent to secure origins only: https, or loopback
 *   (`localhost`, `127.0.0.1`, `[::1]`), which browsers treat as secure too;
 * - `__Secure-` names need `Secure`; `__Host-` names need `Secure`, no `Domain` and `Path=/`;
 * - a request gets only the cookies whose domain, path and `Secure` match its URL, longest path
 *   first.
 * Not modelled: `SameSite` (a test makes every request itself), public suffixes, size limits, and,
 * on purpose, a stored cookie's lifetime running out later: tests move the clock to prove that the
 * server refuses an old cookie, and a jar that quietly stopped sending it would make them pass
 * without the server checking anything. Expiry applies when a `Set-Cookie` arrives.
 *
 * It also reads as a `Map` of name -> value (`get`, `set`, `has`, `delete`, iteration) for tests
 * that look at, tamper with or plant cookies by name. Parsing is `set-cookie-parser`'s, values kept as sent (not decoded).
 */
import setCookieParser from "set-cookie-parser"

/** One stored cookie. */
export interface StoredCookie {
  name: string
  value: string
  /** Lower-case host name (no port). */
  domain: string
  /** Sent to `domain` only, not its subdomains (no `Domain` attribute). */
  hostOnly: boolean
  path: string
  secure: boolean
  httpOnly: boolean
  sameSite: string | undefined
  /** Milliseconds since the epoch; undefined for a session cookie. */
  expiresAt: number | undefined
}

type UrlLike = string | URL

const LOOPBACK = /^(localhost|.+\.localhost|127(?:\.\d{1,3}){3}|\[::1\])$/

/** Whether cookies marked `Secure` may be stored from and sent to `url`. */
export function isSecureOrigin(url: URL): boolean {
  return url.protocol === "https:" || url.protocol === "wss:" || LOOPBACK.test(url.hostname)
}

/** RFC 6265 §5.1.3: `host` is `domain` or a subdomain of it (IP addresses only equal). */
function domainMatch(host: string, domain: string): boolean {
  if (host === domain) return true
  return host.endsWith(`.${domain}`) && !/^[\d.]+$|^\[/.test(host)
}

/** RFC 6265 §5.1.4: the request path is the cookie path or below it. */
function pathMatch(requestPath: string, cookiePath: string): boolean {
  if (requestPath === cookiePath) return true
  if (!requestPath.startsWith(cookiePath)) return false
  return cookiePath.endsWith("/") || requestPath[cookiePath.length] === "/"
}

/** RFC 6265 §5.1.4: the directory of the request path, the default `Path`. */
function defaultPath(url: URL): string {
  const path = url.pathname
  if (!path.startsWith("/") || path.lastIndexOf("/") === 0) return "/"
  return path.slice(0, path.lastIndexOf("/"))
}

const keyOf = (c: Pick<StoredCookie, "name" | "domain" | "path">) => `${c.domain};${c.path};${c.name}`

/** Cookies received from responses, sent back on the requests they match. */
export class CookieJar implements Iterable<[string, string]> {
  readonly #cookies = new Map<string, StoredCookie>()
  readonly #url: URL | undefined

  /** `url`: the origin (or page) the jar talks to when a call names none; needed for `set`. */
  constructor(url?: UrlLike) {
    this.#url = url === undefined ? undefined : new URL(url)
  }

  #target(url: UrlLike | undefined): URL {
    if (url !== undefined && url !== "") return new URL(url)
    if (this.#url) return this.#url
    throw new Error("CookieJar: no URL to match cookies against (pass one, or give the jar one)")
  }

  /** Keeps the cookies of `Set-Cookie` header values received from `url`. */
  store(setCookie: string | readonly string[], url?: UrlLike): void {
    const from = this.#target(url)
    const lines = typeof setCookie === "string" ? [setCookie] : [...setCookie]
    const now = Date.now()
    for (const parsed of setCookieParser.parse(lines, { decodeValues: false })) {
      if (!parsed.name) continue
      const host = from.hostname.toLowerCase()
      const attribute = parsed.domain?.replace(/^\./, "").toLowerCase()
      if (attribute !== undefined && attribute !== "" && !domainMatch(host, attribute)) continue
      const secure = parsed.secure === true
      if (secure && !isSecureOrigin(from)) continue
      const path = parsed.path?.startsWith("/") ? parsed.path : defaultPath(from)
      const prefix = parsed.name.toLowerCase()
      if (prefix.startsWith("__secure-") && !secure) continue
      if (prefix.startsWith("__host-") && (!secure || attribute || path !== "/")) continue
      const expiresAt = parsed.maxAge !== undefined ? now + parsed.maxAge * 1000 : parsed.expires?.getTime()
      const cookie: StoredCookie = {
        name: parsed.name,
        value: parsed.value,
        domain: attribute || host,
        hostOnly: !attribute,
        path,
        secure,
        httpOnly: parsed.httpOnly === true,
        sameSite: parsed.sameSite,
        expiresAt: expiresAt !== undefined && Number.isNaN(expiresAt) ? undefined : expiresAt,
      }
      const key = keyOf(cookie)
      if (cookie.expiresAt !== undefined && cookie.expiresAt <= now) this.#cookies.delete(key)
      else this.#cookies.set(key, cookie)
    }
  }

  /**
   * Keeps the cookies `response` sets; returns the response. `url` is where it came from:
   * `response.url` by default (set by `fetch`, empty on a `Response` built in process), else the jar's.
   */
  keep(response: Response, url?: UrlLike): Response {
    this.store(response.headers.getSetCookie(), url ?? (response.url || undefined))
    return response
  }

  /** The cookies a request to `url` carries, longest path first. */
  matching(url?: UrlLike): StoredCookie[] {
    const to = this.#target(url)
    const host = to.hostname.toLowerCase()
    const secure = isSecureOrigin(to)
    return [...this.#cookies.values()]
      .filter((c) => (c.hostOnly ? host === c.domain : domainMatch(host, c.domain)) && pathMatch(to.pathname, c.path) && (!c.secure || secure))
      .sort((a, b) => b.path.length - a.path.length)
  }

  /** The `Cookie` request header for `url` (`""` when no cookie matches). */
  header(url?: UrlLike): string {
    return this.matching(url)
      .map((c) => `${c.name}=${c.value}`)
      .join("; ")
  }

  /** Sets the `Cookie` header on `headers` for a request to `url` when a cookie matches; returns `headers`. */
  apply(headers: Headers, url?: UrlLike): Headers {
    const cookie = this.header(url)
    if (cookie) headers.set("cookie", cookie)
    return headers
  }

  /** Every stored cookie with its attributes (the jar's own records: changing one changes the jar). */
  all(): StoredCookie[] {
    return [...this.#cookies.values()]
  }

  // The Map-like view, by name over every stored cookie.

  /** How many cookies are stored. */
  get size(): number {
    return this.all().length
  }

  /** The value of the first stored cookie called `name` (the most specific path first), or undefined. */
  get(name: string): string | undefined {
    return this.all()
      .filter((c) => c.name === name)
      .sort((a, b) => b.path.length - a.path.length)[0]?.value
  }

  /** Whether a cookie called `name` is stored. */
  has(name: string): boolean {
    return this.get(name) !== undefined
  }

  /**
   * Gives every stored cookie called `name` the value `value` (a tampered cookie keeps its domain,
   * path and flags); with none stored, plants `name=value` as a host-only session cookie on `Path=/`
   * of the jar's URL (as a server could set it).
   */
  set(name: string, value: string): this {
    const stored = this.all().filter((c) => c.name === name)
    for (const c of stored) c.value = value
    if (stored.length > 0) return this
    const url = this.#target(undefined)
    const cookie: StoredCookie = { name, value, domain: url.hostname.toLowerCase(), hostOnly: true, path: "/", secure: false, httpOnly: false, sameSite: undefined, expiresAt: undefined }
    this.#cookies.set(keyOf(cookie), cookie)
    return this
  }

  /** Drops every cookie called `name`; whether there was one. */
  delete(name: string): boolean {
    let found = false
    for (const [key, c] of this.#cookies) if (c.name === name) found = this.#cookies.delete(key)
    return found
  }

  /** Drops every cookie. */
  clear(): void {
    this.#cookies.clear()
  }

  /** The names stored (a name kept for two paths appears twice). */
  keys(): IterableIterator<string> {
    return this.all().map((c) => c.name)[Symbol.iterator]()
  }

  /** The names stored, as an array. */
  names(): string[] {
    return [...this.keys()]
  }

  /** `[name, value]` per stored cookie. */
  entries(): IterableIterator<[string, string]> {
    return this.all()
      .map((c): [string, string] => [c.name, c.value])
      [Symbol.iterator]()
  }

  /** `[name, value]` per stored cookie, as a `Map` iterates. */
  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries()
  }
}
