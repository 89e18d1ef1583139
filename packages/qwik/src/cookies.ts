/**
 * Cookies between core and Qwik City, in two directions:
 *
 * - Qwik's own `send(response)` keeps only `name=rest-of-line` of each Set-Cookie and loses the
 *   attributes' meaning, so every Set-Cookie that core answers is parsed here and set through
 *   `ev.cookie` with its options (HttpOnly, SameSite, Path, Max-Age...).
 * - The binding calls core in-process several times in one request (CSRF token, then sign-in;
 *   session read). A per-request jar, kept in `sharedMap`, starts from the incoming Cookie header
 *   and takes every cookie core sets, so each internal call sees the cookies of the previous one.
 *
 * Values stay in their wire form throughout: nothing is decoded, so nothing is encoded twice.
 */
import type { Cookie, CookieOptions } from "@builder.io/qwik-city"
import { parseCookie, parseSetCookie, type SetCookie } from "cookie"

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
    const parsed = parseCookie(ev.request.headers.get("cookie") ?? "", { decode: asIs })
    jar = new Map(Object.entries(parsed).filter((e): e is [string, string] => e[1] !== undefined))
    ev.sharedMap.set(JAR_KEY, jar)
  }
  return jar
}

/** A `Cookie` request header from the jar. */
export function cookieHeader(ev: CookieEvent): string {
  return [...cookieJar(ev)].map(([name, value]) => `${name}=${value}`).join("; ")
}

function expired(cookie: SetCookie): boolean {
  if (cookie.maxAge !== undefined) return cookie.maxAge <= 0
  return cookie.expires !== undefined && cookie.expires.getTime() <= Date.now()
}

function qwikOptions(cookie: SetCookie): CookieOptions {
  const options: CookieOptions = {}
  if (cookie.domain !== undefined) options.domain = cookie.domain
  if (cookie.path !== undefined) options.path = cookie.path
  if (cookie.maxAge !== undefined) options.maxAge = cookie.maxAge
  else if (cookie.expires !== undefined) options.expires = cookie.expires
  if (cookie.httpOnly) options.httpOnly = true
  if (cookie.secure) options.secure = true
  if (cookie.sameSite !== undefined) options.sameSite = cookie.sameSite
  return options
}

/**
 * Applies Set-Cookie lines from core: to the jar (so later internal calls see them) and to the
 * response through `ev.cookie`. Attributes Qwik's cookie API cannot express (Partitioned,
 * Priority) make the line go out verbatim as a response header instead.
 */
export function applySetCookies(ev: CookieEvent, lines: readonly string[]): void {
  const jar = cookieJar(ev)
  for (const line of lines) {
    const cookie = parseSetCookie(line, { decode: asIs })
    if (!cookie.name) continue
    if (expired(cookie)) jar.delete(cookie.name)
    else jar.set(cookie.name, cookie.value ?? "")
    if (cookie.partitioned || cookie.priority) ev.headers.append("Set-Cookie", line)
    else ev.cookie.set(cookie.name, cookie.value ?? "", qwikOptions(cookie))
  }
}
