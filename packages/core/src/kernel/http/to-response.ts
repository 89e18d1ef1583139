/**
 * The only place an `AuthResponse` becomes a `Response`. A redirect is a 302 with `Location`, or,
 * when the caller sent `X-Auth-Return-Redirect: 1` (client-side `fetch`), `200 { url }`.
 */
import { serializeCookie } from "../cookies/serialize.js"
import type { AuthResponse } from "../types/http.js"

/** Nothing authlib answers may be stored by a shared cache. */
const CACHE_CONTROL = "private, no-cache, no-store"

export function wantsRedirectAsJson(request: Request): boolean {
  return request.headers.get("x-auth-return-redirect") === "1"
}

/**
 * The headers of `res` plus the one header its kind of answer needs (`name: value`). Without route
 * headers the answer is a plain record, which undici takes in faster than pairs, holding the first
 * cookie (`moreCookies` appends the others); route headers need the pairs.
 */
function headersOf(res: AuthResponse, name: string, value: string): Record<string, string> | Array<[string, string]> {
  const cookies = res.cookies ?? []
  if (res.headers === undefined) {
    const out: Record<string, string> = { "cache-control": CACHE_CONTROL, [name]: value }
    if (cookies.length > 0) out["set-cookie"] = serializeCookie(cookies[0]!)
    return out
  }
  const pairs: Array<[string, string]> = Object.entries(res.headers)
  if (!pairs.some(([key]) => key.toLowerCase() === "cache-control")) pairs.push(["cache-control", CACHE_CONTROL])
  for (const cookie of cookies) pairs.push(["set-cookie", serializeCookie(cookie)])
  pairs.push([name, value])
  return pairs
}

/**
 * `response` with the cookies of `res` that `headersOf`'s record left out, appended in order
 * (`Set-Cookie` keeps its order; a second cookie, such as a sign-in's device mark, costs one append
 * instead of the whole header set converted as pairs).
 */
function moreCookies(res: AuthResponse, response: Response): Response {
  const cookies = res.cookies
  if (res.headers === undefined && cookies !== undefined) for (let i = 1; i < cookies.length; i++) response.headers.append("set-cookie", serializeCookie(cookies[i]!))
  return response
}

const JSON_TYPE = "application/json"

export function toResponse(res: AuthResponse, returnRedirect: boolean): Response {
  if (res.redirect !== undefined) {
    if (returnRedirect) return moreCookies(res, new Response(JSON.stringify({ url: res.redirect }), { status: 200, headers: headersOf(res, "content-type", JSON_TYPE) }))
    return moreCookies(res, new Response(null, { status: res.status ?? 302, headers: headersOf(res, "location", res.redirect) }))
  }
  if (res.text !== undefined) return moreCookies(res, new Response(res.text.body, { status: res.status ?? 200, headers: headersOf(res, "content-type", res.text.type) }))
  if (res.html !== undefined) return moreCookies(res, new Response(res.html, { status: res.status ?? 200, headers: headersOf(res, "content-type", "text/html; charset=utf-8") }))
  return moreCookies(res, new Response(JSON.stringify(res.json ?? null), { status: res.status ?? 200, headers: headersOf(res, "content-type", JSON_TYPE) }))
}
