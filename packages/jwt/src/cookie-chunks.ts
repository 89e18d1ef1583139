/**
 * Pure helpers for session cookies too large for one cookie. Browsers keep at least 4096 bytes per
 * cookie, counted over name, value and attributes (RFC 6265 6.1), so a large token is written as
 * `<name>.0`, `<name>.1`, ... and joined on read. `@authlib/core` writes with these, `getToken`
 * reads with them.
 */

/** A cookie name and value to set. */
export interface CookieChunk {
  name: string
  value: string
}

/** Cookies of a request by name, as a parser returns them (a record or a `Map`). */
export type CookieRecord = Readonly<Record<string, string | undefined>> | ReadonlyMap<string, string | undefined>

type PlainCookies = Readonly<Record<string, string | undefined>>

function entriesOf(cookies: CookieRecord): Iterable<[string, string | undefined]> {
  return cookies instanceof Map ? cookies : Object.entries(cookies as PlainCookies)
}

/** An own value only: a name such as `constructor` must not read `Object.prototype`. */
function valueOf(cookies: CookieRecord, name: string): string | undefined {
  if (cookies instanceof Map) return cookies.get(name)
  return Object.hasOwn(cookies, name) ? (cookies as PlainCookies)[name] : undefined
}

export interface SplitCookieOptions {
  /** Bytes a browser keeps per cookie, name and attributes included. Default 4096. */
  maxSize?: number
  /**
   * Bytes of the serialised attributes (`; Path=/; Expires=...; HttpOnly; Secure; SameSite=Lax`).
   * Default 160, enough for those attributes with a domain of about 40 characters; pass the exact
   * length of your attributes when they are longer.
   */
  attributesSize?: number
}

/** Default cookie budget: the minimum every browser must keep (RFC 6265 6.1). */
export const COOKIE_MAX_SIZE = 4096
/** Default allowance for the attributes of a Set-Cookie header. */
export const COOKIE_ATTRIBUTES_SIZE = 160

const CHUNK_INDEX = /^(?:0|[1-9][0-9]*)$/

/** The chunk index of `cookieName` when it is `<name>.<n>` in canonical decimal, else `undefined`. */
function chunkIndex(name: string, cookieName: string): number | undefined {
  if (cookieName.length <= name.length + 1 || !cookieName.startsWith(name)) return undefined
  if (cookieName[name.length] !== ".") return undefined
  const suffix = cookieName.slice(name.length + 1)
  return suffix.length <= 3 && CHUNK_INDEX.test(suffix) ? Number(suffix) : undefined
}

/**
 * Splits an already-encoded cookie value into cookies that each fit `maxSize` with their name and
 * attributes. A value that fits is returned as one cookie under `name` itself (what Auth.js does
 * too); a larger one as `<name>.0` ... `<name>.N`. The value must be ASCII (a JWE always is), so
 * that characters and bytes count the same.
 */
export function splitCookieValue(name: string, value: string, options: SplitCookieOptions = {}): CookieChunk[] {
  const budget = (options.maxSize ?? COOKIE_MAX_SIZE) - (options.attributesSize ?? COOKIE_ATTRIBUTES_SIZE)
  if (name.length + 1 + value.length <= budget) return [{ name, value }]
  const chunks: CookieChunk[] = []
  for (let offset = 0; offset < value.length; ) {
    const chunkName = `${name}.${chunks.length}`
    const room = budget - chunkName.length - 1
    if (room < 1) throw new RangeError(`cookie name "${name}" leaves no room for a value`)
    chunks.push({ name: chunkName, value: value.slice(offset, offset + room) })
    offset += room
  }
  return chunks
}

/**
 * Reads a possibly chunked cookie. `<name>` itself wins when present (the writer clears chunks
 * when it writes it); otherwise the chunks `<name>.0` ... `<name>.N` are joined in numeric order.
 * Chunks must run from 0 without a gap, or the value is incomplete and `undefined` is returned.
 * Cookies that merely share the prefix (`<name>-x`, `<name>.x`, `<name>.01`) are ignored.
 */
export function joinCookieChunks(name: string, cookies: CookieRecord): string | undefined {
  const whole = valueOf(cookies, name)
  if (whole) return whole
  const parts: string[] = []
  for (const [cookieName, value] of entriesOf(cookies)) {
    const index = chunkIndex(name, cookieName)
    if (index !== undefined && value) parts[index] = value
  }
  if (parts.length === 0) return undefined
  for (let i = 0; i < parts.length; i++) if (parts[i] === undefined) return undefined
  return parts.join("")
}

/**
 * The cookies of the family `name` (itself and its chunks) present in the request but not written
 * now: clear them, or a shrinking token leaves stale chunks that corrupt the next read.
 */
export function staleCookieNames(
  name: string,
  existing: CookieRecord | Iterable<string>,
  written: readonly CookieChunk[],
): string[] {
  const names =
    existing instanceof Map
      ? [...existing.keys()]
      : Symbol.iterator in existing
        ? [...(existing as Iterable<string>)]
        : Object.keys(existing)
  const kept = new Set(written.map((chunk) => chunk.name))
  return names.filter(
    (cookieName) =>
      !kept.has(cookieName) && (cookieName === name || chunkIndex(name, cookieName) !== undefined),
  )
}
