/**
 * The only place an `AuthResponse` becomes a `Response`. A redirect is a 302 with `Location`, or,
 * when the caller sent `X-Auth-Return-Redirect: 1` (client-side `fetch`), `200 { url }`.
 */
import { serializeCookie } from "../cookies/serialize.js"
import type { AuthResponse } from "./types.js"

/** Nothing authlib answers may be stored by a shared cache. */
const CACHE_CONTROL = "private, no-cache, no-store"

export function wantsRedirectAsJson(request: Request): boolean {
  return request.headers.get("x-auth-return-redirect") === "1"
}

export function toResponse(res: AuthResponse, returnRedirect: boolean): Response {
  // Header tuples: one allocation instead of a Headers object mutated per header (hot path).
  const headers: Array<[string, string]> = Object.entries(res.headers ?? {})
  if (!headers.some(([name]) => name.toLowerCase() === "cache-control")) headers.push(["cache-control", CACHE_CONTROL])
  for (const cookie of res.cookies ?? []) headers.push(["set-cookie", serializeCookie(cookie)])
  if (res.redirect !== undefined) {
    if (returnRedirect) {
      headers.push(["content-type", "application/json"])
      return new Response(JSON.stringify({ url: res.redirect }), { status: 200, headers })
    }
    headers.push(["location", res.redirect])
    return new Response(null, { status: res.status ?? 302, headers })
  }
  if (res.html !== undefined) {
    headers.push(["content-type", "text/html; charset=utf-8"])
    return new Response(res.html, { status: res.status ?? 200, headers })
  }
  headers.push(["content-type", "application/json"])
  return new Response(JSON.stringify(res.json ?? null), { status: res.status ?? 200, headers })
}
