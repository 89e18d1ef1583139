/**
 * The default `redirect` callback and the strict origin check it rests on.
 *
 * Both parse with the WHATWG URL parser (the one browsers use) and compare serialised origins, so
 * the check is made on what a browser would navigate to, not on the raw string. `defaultRedirect`
 * returns the re-serialised `href`, never the caller's string: no parser difference is left for a
 * browser or a downstream framework to interpret. Anything odd falls back to the base URL.
 */

/**
 * Longer inputs are refused without parsing. A callback URL travels in a cookie (~4 KB at most),
 * so nothing legitimate is longer, and the cap bounds the work an attacker can ask for.
 */
const MAX_URL_LENGTH = 4096

/**
 * C0 controls and DEL. The URL parser silently drops tabs and newlines and trims the others,
 * which is how `java\tscript:` or `\u0000//evil.com` get past string checks; refuse them instead.
 */
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/

/** A path that a later decode or a naive `redirect(pathname)` could turn protocol-relative. */
const AMBIGUOUS_PATH = /^[/\\][/\\]|[\u0000-\u001f\u007f]/

/** How many rounds of percent-decoding a path is inspected through (`%252F` is `%2F` is `/`). */
const DECODE_ROUNDS = 3

function isPlainString(value: unknown): value is string {
  return (
    typeof value === "string" &&
    value.length > 0 &&
    value.length <= MAX_URL_LENGTH &&
    !CONTROL_CHARS.test(value) &&
    value.trim() === value
  )
}

/** Parses `input` (relative to `base` when given) and keeps it only when it is http(s). */
function parseHttpUrl(input: string, base?: string): URL | null {
  let url: URL
  try {
    url = new URL(input, base)
  } catch {
    return null
  }
  return url.protocol === "https:" || url.protocol === "http:" ? url : null
}

function hasCredentials(url: URL): boolean {
  return url.username !== "" || url.password !== ""
}

function hasAmbiguousPath(url: URL): boolean {
  let path = url.pathname
  for (let round = 0; round <= DECODE_ROUNDS; round++) {
    if (AMBIGUOUS_PATH.test(path)) return true
    let decoded: string
    try {
      decoded = decodeURIComponent(path)
    } catch {
      return false
    }
    if (decoded === path) return false
    path = decoded
  }
  return true
}

/**
 * The default `redirect` callback: keeps a URL only when it stays on the base URL's origin.
 *
 * - Relative URLs (`/path`, `path?x`, `?x`) are resolved against the origin of `baseUrl`.
 * - Absolute URLs are kept only when their origin (scheme, host, port) equals that of `baseUrl`
 *   and they carry no user info.
 * - Everything else (other hosts, protocol-relative or backslash tricks, `javascript:` and other
 *   schemes, control characters, paths that decode to `//`, empty or over-long input) gives
 *   `baseUrl`.
 *
 * The returned URL is absolute and normalised. Never throws.
 *
 * @example
 * defaultRedirect({ url: "/dashboard", baseUrl: "https://app.example" }) // "https://app.example/dashboard"
 * defaultRedirect({ url: "//evil.example", baseUrl: "https://app.example" }) // "https://app.example"
 */
export function defaultRedirect(params: { url: string; baseUrl: string }): string {
  const { url, baseUrl } = params ?? {}
  const fallback = typeof baseUrl === "string" ? baseUrl : "/"
  const base = isPlainString(baseUrl) ? parseHttpUrl(baseUrl) : null
  if (!base || !isPlainString(url)) return fallback
  const target = parseHttpUrl(url, `${base.origin}/`)
  if (!target || target.origin !== base.origin) return fallback
  if (hasCredentials(target) || hasAmbiguousPath(target)) return fallback
  return target.href
}

/**
 * True only when `url` is an absolute http(s) URL, without user info or backslashes, whose origin
 * equals the origin of `baseUrl`. Relative URLs, `"null"` and anything unparsable are not
 * same-origin. Never throws.
 *
 * @example
 * isSameOrigin(request.headers.get("origin") ?? "", "https://app.example/auth") // true for "https://app.example"
 */
export function isSameOrigin(url: string, baseUrl: string): boolean {
  if (!isPlainString(url) || !isPlainString(baseUrl) || url.includes("\\")) return false
  const target = parseHttpUrl(url)
  const base = parseHttpUrl(baseUrl)
  if (!target || !base || hasCredentials(target)) return false
  return target.origin === base.origin
}
