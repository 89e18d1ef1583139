/**
 * Cookies as values: routes return `Cookie[]` and only `http/to-response.ts` turns them into
 * `Set-Cookie` headers. Parsing is the `cookie` package's (jshttp) algorithm, in `parse.ts` (why:
 * see there); serialising is written here, with that package's validation rules and attribute
 * order, because its option spreading and a second scan of the value cost more than the rest of
 * the response on the sign-in path.
 */
import { parseCookiePairsInto } from "./parse.js"
import { spreadCopy } from "../objects/spread-copy.js"
import { utcText } from "../objects/date-text.js"
import type { CookieOption } from "../types/config.js"
import type { Cookie } from "../types/http.js"

export type { Cookie } from "../types/http.js"

/** RFC 6265 cookie-octets: sent as they are. Everything else is percent-encoded. */
const SAFE_VALUE = /^[\u0021\u0023-\u0024\u0026-\u002B\u002D-\u003A\u003C-\u005B\u005D-\u007E]*$/
/** The `cookie` package's rules for a name, a Domain and a Path. */
const NAME = /^[\u0021-\u003A\u003C\u003E-\u007E]+$/
const DOMAIN = /^([.]?[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)([.][a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i
const PATH = /^[\u0020-\u003A\u003D-\u007E]*$/

/**
 * Tokens we mint (base64url, JWE compact, `token|hash`) are sent as they are; anything else (a
 * callback URL) is percent-encoded, and `parseCookieHeader` decodes only values containing `%`.
 * Either way the result holds cookie-octets only, so it needs no second check.
 */
export function encodeCookieValue(value: string): string {
  return SAFE_VALUE.test(value) ? value : encodeURIComponent(value)
}

/** Dates from another realm (a vm context, an iframe) count, as they did in the package. */
const isDate = (value: unknown): value is Date => Object.prototype.toString.call(value) === "[object Date]"

const invalid = (option: string, value: unknown) => new TypeError(`option ${option} is invalid: ${String(value)}`)

function sameSiteAttribute(sameSite: unknown): string {
  if (sameSite === undefined || sameSite === false) return ""
  const lower = typeof sameSite === "string" ? sameSite.toLowerCase() : sameSite
  if (lower === true || lower === "strict") return "; SameSite=Strict"
  if (lower === "lax") return "; SameSite=Lax"
  if (lower === "none") return "; SameSite=None"
  throw invalid("sameSite", sameSite)
}

/** `Priority` is outside our option type, but JavaScript callers may pass it, as the package allowed. */
function priorityAttribute(priority: unknown): string {
  if (!priority) return ""
  const lower = typeof priority === "string" ? priority.toLowerCase() : undefined
  if (lower === "low" || lower === "medium" || lower === "high") return `; Priority=${lower[0]!.toUpperCase()}${lower.slice(1)}`
  throw invalid("priority", priority)
}

function attributes(o: CookieOption["options"] & { priority?: unknown }): string {
  let out = ""
  if (o.maxAge !== undefined) {
    if (!Number.isInteger(o.maxAge)) throw invalid("maxAge", o.maxAge)
    out += `; Max-Age=${o.maxAge}`
  }
  if (o.domain) {
    if (!DOMAIN.test(o.domain)) throw invalid("domain", o.domain)
    out += `; Domain=${o.domain}`
  }
  if (o.path) {
    if (!PATH.test(o.path)) throw invalid("path", o.path)
    out += `; Path=${o.path}`
  }
  if (o.expires) {
    const ms = isDate(o.expires) ? o.expires.valueOf() : Number.NaN
    if (!Number.isFinite(ms)) throw invalid("expires", o.expires)
    out += `; Expires=${utcText(ms)}`
  }
  if (o.httpOnly) out += "; HttpOnly"
  if (o.secure) out += "; Secure"
  if (o.partitioned) out += "; Partitioned"
  return out + priorityAttribute(o.priority) + sameSiteAttribute(o.sameSite)
}

/**
 * The `Set-Cookie` header value of a cookie: `name=value` and its attributes in the order of the
 * `cookie` package. Throws a `TypeError` for a name, Domain, Path, Max-Age, Expires or SameSite a
 * browser would not accept.
 */
export function serializeCookie(cookie: Cookie): string {
  const fixed = (cookie as { [FIXED_TEXT]?: string })[FIXED_TEXT]
  if (fixed !== undefined) return fixed
  if (!NAME.test(cookie.name)) throw new TypeError(`argument name is invalid: ${cookie.name}`)
  const raw = String(cookie.value)
  const value = !raw ? "" : cookie instanceof OctetsCookie ? raw : encodeCookieValue(raw)
  return `${cookie.name}=${value}${attributes(cookie.options)}`
}

/**
 * A cookie whose value authlib made of cookie-octets itself (a JWE compact from `@authlib/jwt`'s
 * `encode`, or a chunk of one: base64url and dots), so serialising it skips the scan of its value.
 * The scan of a session token cost about 4% of a credentials sign-in, measured in place. A copy
 * (a spread) is a plain object again and is scanned; only `octetsCookie` makes one.
 */
class OctetsCookie implements Cookie {
  constructor(
    readonly name: string,
    readonly value: string,
    readonly options: CookieOption["options"],
  ) {
    // Frozen: a value changed after the check it skips would go out unchecked.
    Object.freeze(this)
  }
}

/**
 * A cookie for a value that holds cookie-octets only because authlib's own code made it so (never
 * a value from user code or the network): `serializeCookie` sends it without checking it again.
 */
export function octetsCookie(name: string, value: string, options: CookieOption["options"]): Cookie {
  return new OctetsCookie(name, value, options)
}

/**
 * The `Set-Cookie` text of a cookie made by `fixedCookie`, kept on the cookie itself (non-enumerable:
 * a copy or spread of the cookie does not carry it, so a changed copy is serialised afresh).
 */
const FIXED_TEXT = Symbol("authlib.fixedCookieText")

/**
 * `cookie` as a frozen copy (its options copied and frozen too) whose `Set-Cookie` text is made
 * now, once: `serializeCookie` answers it from then on. For a cookie handed out again and again
 * unchanged (a device mark, reused for a minute per identifier), so each response does not
 * validate and concatenate the same text again. Throws as `serializeCookie` does. A cookie with an
 * `expires` Date (a mutable object) is frozen but not remembered.
 */
export function fixedCookie(cookie: Cookie): Cookie {
  const copy: Cookie = { name: cookie.name, value: cookie.value, options: Object.freeze({ ...cookie.options }) }
  const text = serializeCookie(copy)
  if (copy.options.expires === undefined) Object.defineProperty(copy, FIXED_TEXT, { value: text })
  return Object.freeze(copy)
}

/** `{ ...options, expires }` (see `spreadCopy`: every session cookie written goes through here). */
export function withExpires(options: CookieOption["options"], expires: Date): CookieOption["options"] {
  const out = spreadCopy(options)
  out.expires = expires
  return out
}

/** A cookie that tells the browser to drop `name`, keeping the attributes it was set with. */
export function expireCookie(name: string, options: CookieOption["options"]): Cookie {
  const { expires: _expires, ...rest } = options
  return { name, value: "", options: { ...rest, maxAge: 0 } }
}

/**
 * Parses a `Cookie` header; never fails. A value whose percent-encoding is broken is left out, as
 * if the cookie were absent: other apps on the same site (or a sibling subdomain) set cookies such
 * as `promo=50%off` that are none of our business, and one of ours in that state can only be a
 * forgery or corruption, which the route then treats like a missing cookie (a new CSRF token is
 * minted, sign-in writes a fresh session cookie, sign-out clears it). Only decodes values that
 * contain `%`.
 */
export function parseCookieHeader(header: string | null): Record<string, string> {
  if (!header) return {}
  // Parsed straight into a plain object for callers (one object, not a copy of the parser's). A
  // `__proto__` cookie assigned a string is a no-op: dropped, never a prototype. A malformed value
  // holds its name (the first of a name wins) until it is dropped below.
  const out = parseCookiePairsInto(header, decodeCookieValue, {})
  for (const k in out) if (out[k] === MALFORMED) delete out[k]
  return out
}

/** Stands for a value that does not decode (a sent `%00malformed` reads the same: dropped too, harmlessly). */
const MALFORMED = "\u0000malformed"

function decodeCookieValue(value: string): string {
  if (!value.includes("%")) return value
  try {
    return decodeURIComponent(value)
  } catch {
    return MALFORMED
  }
}
