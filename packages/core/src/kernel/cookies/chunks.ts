/**
 * Session cookies that may exceed one cookie: written as `<name>` or `<name>.0..N` with the
 * `@authlib/jwt` chunk helpers, read back joined, and every stale member of the family cleared.
 */
import { joinCookieChunks, splitCookieValue, staleCookieNames } from "@authlib/jwt"
import type { CookieOption } from "../types/config.js"
import { expireCookie, octetsCookie } from "./serialize.js"
import type { Cookie } from "./serialize.js"

/** Bytes of the attributes a session cookie is serialised with, so chunks fit 4096 bytes. */
function attributesSize(options: CookieOption["options"]): number {
  return 120 + (options.domain?.length ?? 0) + (options.path?.length ?? 1)
}

/**
 * The cookies that store `value` under `option`, plus expiries of stale chunks in `existing`.
 * `octets`: authlib made `value` of cookie-octets itself (see `octetsCookie`), so neither it nor a
 * chunk of it is scanned again when sent.
 */
export function writeChunked(option: CookieOption, value: string, existing: Readonly<Record<string, string>>, octets = false): Cookie[] {
  const chunks = splitCookieValue(option.name, value, { attributesSize: attributesSize(option.options) })
  const out: Cookie[] = chunks.map((c) => (octets ? octetsCookie(c.name, c.value, option.options) : { name: c.name, value: c.value, options: option.options }))
  for (const name of staleCookieNames(option.name, existing, chunks)) out.push(expireCookie(name, option.options))
  return out
}

/** The (joined) value of a possibly chunked cookie. */
export function readChunked(name: string, cookies: Readonly<Record<string, string>>): string | undefined {
  return joinCookieChunks(name, cookies)
}

/** Whether `existing` holds a cookie named `<name>.<anything>` (a chunk, or a look-alike `staleCookieNames` decides on). */
function hasChunk(name: string, existing: Readonly<Record<string, string>>): boolean {
  const prefix = `${name}.`
  for (const key in existing) if (key.startsWith(prefix)) return true
  return false
}

/** Expiries for the cookie and every chunk of it present in `existing` (always the cookie itself). */
export function clearChunked(option: CookieOption, existing: Readonly<Record<string, string>>): Cookie[] {
  // The usual request carries no chunk (`<name>.0`...): one expiry, without listing its cookies twice.
  if (!hasChunk(option.name, existing)) return [expireCookie(option.name, option.options)]
  const names = new Set([option.name, ...staleCookieNames(option.name, existing, [])])
  return [...names].map((name) => expireCookie(name, option.options))
}
