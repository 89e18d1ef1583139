/**
 * The only place an `AuthResponse` becomes a `Response`. A redirect is a 302 with `Location`, or,
 * when the caller sent `X-Auth-Return-Redirect: 1` (client-side `fetch`), `200 { url }`.
 */
import { serializeCookie } from "../cookies/serialize.js"
import type { AuthResponse } from "../types/http.js"

/** Nothing authlib answers may be stored by a shared cache. */
const CACHE_CONTROL = "private, no-cache, no-store"

export function wantsRedirectAsJson(request: Pick<Request, "headers">): boolean {
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
 * The cookies of `res` after the first, serialised, when `headersOf`'s record left them out: they
 * are appended in order (`Set-Cookie` keeps its order; a second cookie, such as a sign-in's device
 * mark, costs one append instead of the whole header set converted as pairs).
 */
function moreCookies(res: AuthResponse): string[] | undefined {
  const cookies = res.cookies
  if (res.headers !== undefined || cookies === undefined || cookies.length < 2) return undefined
  const out: string[] = []
  for (let i = 1; i < cookies.length; i++) out.push(serializeCookie(cookies[i]!))
  return out
}

const JSON_TYPE = "application/json"

/** An answer before it is a `Response`: what `toResponse` builds one from, and what `@authlib/core/node` writes straight to the socket. */
export interface ResponseParts {
  status: number
  headers: Record<string, string> | Array<[string, string]>
  /** The body's text; null for none (a redirect). */
  body: string | null
  /** `Set-Cookie` values after the one `headers` holds as a record, in order (see `moreCookies`). */
  moreCookies?: string[]
}

/** What every route answers when its answer cannot be sent (a cookie option the platform rejects). */
export const CONFIGURATION_ERROR: ResponseParts = { status: 500, headers: { "content-type": JSON_TYPE }, body: JSON.stringify({ error: "Configuration" }) }

/** The status, headers and body of `res`; throws when a cookie of it cannot be serialised. */
export function responseParts(res: AuthResponse, returnRedirect: boolean): ResponseParts {
  const parts = partsWithoutMoreCookies(res, returnRedirect)
  const more = moreCookies(res)
  if (more !== undefined) parts.moreCookies = more
  return parts
}

function partsWithoutMoreCookies(res: AuthResponse, returnRedirect: boolean): ResponseParts {
  if (res.redirect !== undefined) {
    if (returnRedirect) return { status: 200, headers: headersOf(res, "content-type", JSON_TYPE), body: JSON.stringify({ url: res.redirect }) }
    return { status: res.status ?? 302, headers: headersOf(res, "location", res.redirect), body: null }
  }
  if (res.text !== undefined) return { status: res.status ?? 200, headers: headersOf(res, "content-type", res.text.type), body: res.text.body }
  if (res.html !== undefined) return { status: res.status ?? 200, headers: headersOf(res, "content-type", "text/html; charset=utf-8"), body: res.html }
  return { status: res.status ?? 200, headers: headersOf(res, "content-type", JSON_TYPE), body: JSON.stringify(res.json ?? null) }
}

/** The `Response` of `parts`; throws what the `Response` constructor throws (a header value it refuses). */
export function responseOf(parts: ResponseParts): Response {
  const response = new Response(parts.body, { status: parts.status, headers: parts.headers })
  if (parts.moreCookies !== undefined) for (const cookie of parts.moreCookies) response.headers.append("set-cookie", cookie)
  return response
}

export function toResponse(res: AuthResponse, returnRedirect: boolean): Response {
  return responseOf(responseParts(res, returnRedirect))
}
