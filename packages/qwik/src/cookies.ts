/**
 * Cookies between core and Qwik City, in two directions:
 *
 * - Qwik's own `send(response)` keeps only `name=rest-of-line` of each Set-Cookie and loses the
 *   attributes' meaning, so every cookie core answers is set through `ev.cookie` with its options
 *   (HttpOnly, SameSite, Path, Max-Age...), straight from core's cookie objects (the binding calls
 *   core for its internal result, see `core-calls.ts`: nothing is serialised to be parsed back).
 * - The binding calls core in-process several times in one request (CSRF token, then sign-in;
 *   session read). A per-request jar, kept in `sharedMap`, starts from the incoming Cookie header
 *   and takes every cookie core sets, so each internal call sees the cookies of the previous one.
 *
 * Values stay in their wire form throughout: nothing is decoded, so nothing is encoded twice.
 */
import type { Cookie as AuthCookie } from "@authlib/core"
import { encodeCookieValue, parseCookiePairs, serializeCookie } from "@authlib/core/internal"
import type { Cookie, CookieOptions } from "@builder.io/qwik-city"

/** The slice of Qwik's request event this module needs (kept small for test doubles). */
export interface CookieEvent {
  readonly request: Request
  readonly cookie: Cookie
  readonly headers: Headers
  readonly sharedMap: Map<string, unknown>
}

const JAR_KEY = "@authlib/qwik:cookie-jar"
const asIs = (value: string): string => value

/** The request's cookies as core should see them now, in wire form. */
export function cookieJar(ev: CookieEvent): Map<string, string> {
  let jar = ev.sharedMap.get(JAR_KEY) as Map<string, string> | undefined
  if (!jar) {
    jar = new Map(Object.entries(parseCookiePairs(ev.request.headers.get("cookie") ?? "", asIs)))
    ev.sharedMap.set(JAR_KEY, jar)
  }
  return jar
}

/** A `Cookie` request header from the jar. */
export function cookieHeader(ev: CookieEvent): string {
  return [...cookieJar(ev)].map(([name, value]) => `${name}=${value}`).join("; ")
}

function expired(options: AuthCookie["options"]): boolean {
  if (options.maxAge !== undefined) return options.maxAge <= 0
  return options.expires !== undefined && options.expires.getTime() <= Date.now()
}

function qwikOptions(o: AuthCookie["options"]): CookieOptions {
  const options: CookieOptions = {}
  if (o.domain !== undefined) options.domain = o.domain
  if (o.path !== undefined) options.path = o.path
  if (o.maxAge !== undefined) options.maxAge = o.maxAge
  else if (o.expires !== undefined) options.expires = o.expires
  if (o.httpOnly) options.httpOnly = true
  if (o.secure) options.secure = true
  if (o.sameSite === true) options.sameSite = "strict"
  else if (o.sameSite) options.sameSite = o.sameSite
  return options
}

/**
 * Applies the cookies core answered, as core's objects: to the jar (so later internal calls see
 * them) and to the response through `ev.cookie`, value in wire form (core's encoding; Qwik sends
 * strings as they are). `Partitioned`, which Qwik's cookie API cannot express, makes the cookie go
 * out as a `Set-Cookie` header built by core instead.
 */
export function applyCookies(ev: CookieEvent, cookies: readonly AuthCookie[] | undefined): void {
  if (!cookies?.length) return
  const jar = cookieJar(ev)
  for (const cookie of cookies) {
    const value = cookie.value ? encodeCookieValue(cookie.value) : ""
    if (expired(cookie.options)) jar.delete(cookie.name)
    else jar.set(cookie.name, value)
    if (cookie.options.partitioned) ev.headers.append("Set-Cookie", serializeCookie(cookie))
    else ev.cookie.set(cookie.name, value, qwikOptions(cookie.options))
  }
}
