/** Reading request headers and the `Cookie` header without ever throwing on client input. */

/** Headers as `getToken` accepts them: a `Headers`, or a plain record such as Node's. */
export type HeaderSource = Headers | Record<string, string | string[] | undefined>

/**
 * A header by lower-case name. Repeated values are joined (`; ` for Cookie, as RFC 7540 8.1.2.5);
 * values that are not strings (a loosely typed record) are ignored rather than trusted.
 */
export function headerValue(headers: HeaderSource, name: "cookie" | "authorization"): string | undefined {
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name) ?? undefined
  for (const [key, value] of Object.entries(headers)) {
    if (key.toLowerCase() !== name) continue
    if (typeof value === "string") return value
    if (Array.isArray(value)) return value.filter((v) => typeof v === "string").join(name === "cookie" ? "; " : ", ")
  }
  return undefined
}

function decodeValue(raw: string): string {
  let value = raw
  if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1)
  if (!value.includes("%")) return value
  try {
    return decodeURIComponent(value)
  } catch {
    return value // bad percent-encoding: keep the raw value, a later decode rejects it
  }
}

/**
 * Parses a `Cookie` header, keeping only names that start with `prefix` (the session cookie and
 * its chunks: the rest is never decoded, and `joinCookieChunks` checks the exact names). Pairs
 * without `=` are skipped; the first of repeated names wins, as browsers send the most specific
 * path first (RFC 6265 5.4). A `Map`, so no name can reach `Object.prototype`.
 */
export function parseCookieHeader(header: string, prefix = ""): Map<string, string> {
  const cookies = new Map<string, string>()
  for (const pair of header.split(";")) {
    const eq = pair.indexOf("=")
    if (eq === -1) continue
    const name = pair.slice(0, eq).trim()
    if (name === "" || !name.startsWith(prefix) || cookies.has(name)) continue
    cookies.set(name, decodeValue(pair.slice(eq + 1).trim()))
  }
  return cookies
}

/**
 * The token of `Authorization: Bearer <token>` (scheme case-insensitive, RFC 7235 2.1), percent-
 * decoded. `undefined` when there is no Bearer credential; `null` when its encoding is malformed.
 */
export function bearerToken(authorization: string | undefined): string | null | undefined {
  if (authorization === undefined) return undefined
  const match = /^Bearer +([^\s]+) *$/i.exec(authorization)
  if (!match) return undefined
  try {
    return decodeURIComponent(match[1]!)
  } catch {
    return null
  }
}
