/**
 * The scope of a server component, server action or route handler that calls `auth()` (or a
 * server-side `signIn`, `signOut`, `unstable_update`, server function) without a request in hand:
 * built from `next/headers` once per request and per `NextAuth` instance, with React's `cache`
 * (Next scopes it to the request), so every `auth()` of one render shares one session read.
 *
 * Cookies core sets go out through Next's cookie store. In a server component Next refuses any
 * cookie change (only actions and route handlers may set cookies): a sliding refresh of the session
 * is then left to the next request that can carry it (the proxy's, a route handler's); the session
 * read itself is unchanged.
 */
import type { Cookie } from "@authlib/core"
import { encodeCookieValue, normalizeBasePath, parseCookiePairs } from "@authlib/core/internal"
import { cookies, headers } from "next/headers.js"
import { cache } from "react"
import { configFor, type NextAuthConfigInput } from "./config.js"
import { originOf, requestOrigin, type RequestScope } from "./scope.js"

export type CookieStore = Awaited<ReturnType<typeof cookies>>

/** Next's cookie options for core's (`sameSite: true` is `strict`). */
export function nextCookieOptions(o: Cookie["options"]) {
  return {
    ...(o.domain !== undefined ? { domain: o.domain } : {}),
    ...(o.path !== undefined ? { path: o.path } : {}),
    ...(o.maxAge !== undefined ? { maxAge: o.maxAge } : o.expires !== undefined ? { expires: o.expires } : {}),
    ...(o.httpOnly ? { httpOnly: true } : {}),
    ...(o.secure ? { secure: true } : {}),
    ...(o.partitioned ? { partitioned: true } : {}),
    ...(o.sameSite === true ? { sameSite: "strict" as const } : o.sameSite ? { sameSite: o.sameSite } : {}),
  }
}

/** Whether `err` is Next's refusal to change cookies outside an action or route handler. */
function isReadonlyCookies(err: unknown): boolean {
  return err instanceof Error && err.message.startsWith("Cookies can only be modified in a Server Action or Route Handler")
}

/** Sets core's cookies through Next's store (value as core gave it: Next percent-encodes it as core would). */
function setOnStore(store: CookieStore, cookies: readonly Cookie[]): void {
  for (const cookie of cookies) {
    try {
      store.set({ name: cookie.name, value: cookie.value, ...nextCookieOptions(cookie.options) })
    } catch (err) {
      // A server component: cookies cannot change here (see the module's note).
      if (isReadonlyCookies(err)) return
      throw err
    }
  }
}

/** How often each cookie name occurs in a `Cookie` header. */
function nameCounts(header: string): Map<string, number> {
  const counts = new Map<string, number>()
  for (const pair of header.split(";")) {
    const name = pair.slice(0, pair.indexOf("=")).trim()
    if (name) counts.set(name, (counts.get(name) ?? 0) + 1)
  }
  return counts
}

/**
 * The request's cookies as core should see them. The `Cookie` header, parsed by core's rules (the
 * first of two same-named cookies wins, as everywhere in authlib), then Next's cookie store for
 * every name the header holds at most once: after a server action changed cookies, the render Next
 * answers the action with sees the new values in the store only, not in the header. A name the
 * header holds twice keeps the header's first value (the store keeps the last one, which a planted
 * cookie could be).
 */
export function jarOfRequest(header: string, store: CookieStore): Map<string, string> {
  const jar = new Map(Object.entries(parseCookiePairs(header, (value) => value)))
  const counts = nameCounts(header)
  const current = new Map(store.getAll().map((c) => [c.name, encodeCookieValue(c.value)]))
  for (const name of new Set([...jar.keys(), ...current.keys()])) {
    if ((counts.get(name) ?? 0) > 1) continue
    const value = current.get(name)
    if (value === undefined) jar.delete(name)
    else jar.set(name, value)
  }
  return jar
}

/**
 * The scope of the current request for the `NextAuth` instance `input` belongs to (React `cache`
 * keys on the argument, so each instance has its own).
 */
export const headersScope = cache(async (input: NextAuthConfigInput): Promise<RequestScope> => {
  const [incoming, store, config] = await Promise.all([headers(), cookies(), configFor(input, undefined)])
  const copy = new Headers(incoming)
  return {
    config,
    basePath: normalizeBasePath(config.basePath),
    headers: copy,
    origin: originOf(config, requestOrigin(copy)),
    jar: jarOfRequest(copy.get("cookie") ?? "", store),
    emit: (cookies) => setOnStore(store, cookies),
  }
})
