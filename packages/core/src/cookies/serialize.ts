/**
 * Cookies as values: routes return `Cookie[]` and only `http/to-response.ts` turns them into
 * `Set-Cookie` headers. Parsing and serialising use the `cookie` package (jshttp).
 */
import { parse, serialize } from "cookie"
import type { CookieOption } from "../types.js"

/** One cookie to set (or clear, with `maxAge: 0`). */
export interface Cookie {
  name: string
  value: string
  options: CookieOption["options"]
}

const SAFE_VALUE = /^[\u0021\u0023-\u0024\u0026-\u002B\u002D-\u003A\u003C-\u005B\u005D-\u007E]*$/

/**
 * Tokens we mint (base64url, JWE compact, `token|hash`) are sent as they are; anything else (a
 * callback URL) is percent-encoded, and `parseCookieHeader` decodes only values containing `%`.
 */
function encodeValue(value: string): string {
  return SAFE_VALUE.test(value) ? value : encodeURIComponent(value)
}

/** The `Set-Cookie` header value of a cookie. */
export function serializeCookie(cookie: Cookie): string {
  const { sameSite, ...rest } = cookie.options
  return serialize(cookie.name, cookie.value, {
    ...rest,
    ...(sameSite === undefined ? {} : { sameSite }),
    encode: encodeValue,
  })
}

/** A cookie that tells the browser to drop `name`, keeping the attributes it was set with. */
export function expireCookie(name: string, options: CookieOption["options"]): Cookie {
  const { expires: _expires, ...rest } = options
  return { name, value: "", options: { ...rest, maxAge: 0 } }
}

/**
 * Parses a `Cookie` header. Returns `null` when a value is badly percent-encoded, so the caller can
 * answer 400 instead of reading garbage. Only decodes values that contain `%`.
 */
export function parseCookieHeader(header: string | null): Record<string, string> | null {
  if (!header) return {}
  let bad = false
  const decode = (v: string): string => {
    if (!v.includes("%")) return v
    try {
      return decodeURIComponent(v)
    } catch {
      bad = true
      return v
    }
  }
  const parsed = parse(header, { decode })
  if (bad) return null
  const out: Record<string, string> = {}
  for (const [k, v] of Object.entries(parsed)) if (v !== undefined) out[k] = v
  return out
}
