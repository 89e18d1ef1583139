/**
 * The in-process calls an action makes to core before the sign-in or sign-out itself, and the
 * redirect that ends an action. Each call carries the request's cookie jar, so a CSRF cookie core
 * sets in the first call is the one the next call presents.
 */
import { Configuration, ERROR_CODES, InvalidRequest, RateLimited, type AuthError, type AuthResult, type ProviderType } from "@authlib/core"
import { authResult } from "@authlib/core/internal"
import type { RequestEventCommon } from "@builder.io/qwik-city"
import { internalRequest, isUnderBasePath, requestOptions, type AuthContext } from "./context.js"
import { applyCookies } from "./cookies.js"

/**
 * The error for an in-process answer that lacks what the caller needs (a redirect, a token). A
 * request core refused as malformed (a 4xx `InvalidRequest`: body over 64 KiB, headers over
 * 16 KiB) is the client's fault and stays an `InvalidRequest` with core's status and code; any
 * other answer is a server fault. A rate-limit refusal (core's JSON `{ error: "RateLimited" }`) is
 * a `RateLimited` with core's code and `retryAfter`. Never a fallback: a refused sign-in must not redirect as if it
 * had succeeded.
 */
export function failedCall(what: string, status: number | undefined, body: unknown): AuthError {
  const refused = body as { error?: unknown; code?: unknown; message?: unknown; retryAfter?: unknown } | null | undefined
  if (refused?.error === "RateLimited") {
    const code = refused.code === "STORE_UNAVAILABLE" ? "STORE_UNAVAILABLE" : "LIMIT_REACHED"
    return new RateLimited(`${what} was refused: too many attempts`, { code, retryAfter: typeof refused.retryAfter === "number" ? refused.retryAfter : 60 })
  }
  if (status !== undefined && status >= 400 && status < 500 && refused?.error === "InvalidRequest") {
    const message = typeof refused.message === "string" ? refused.message : `${what} was refused as malformed`
    // Only a code of the catalogue is passed on: the body came back through an HTTP-shaped answer.
    const code = ERROR_CODES.InvalidRequest.find((c) => c === refused.code) ?? "REQUEST_INVALID"
    return new InvalidRequest(message, { code, status })
  }
  return new Configuration(`${what} answered ${status ?? "no status"} without the expected result`, {
    code: "INTERNAL_CALL_FAILED",
    cause: { status, body },
  })
}

/**
 * One in-process call to core: its internal result (JSON as a value, cookies as objects, applied
 * to the jar and the response here), never a `Response` to parse.
 */
export async function coreCall(ev: RequestEventCommon, ctx: AuthContext, action: string, init?: Parameters<typeof internalRequest>[3]): Promise<AuthResult> {
  const result = await authResult(internalRequest(ev, ctx, action, init), ctx.config, requestOptions(ev))
  applyCookies(ev, result.cookies)
  return result
}

async function getJson(ev: RequestEventCommon, ctx: AuthContext, action: string): Promise<unknown> {
  const result = await coreCall(ev, ctx, action)
  if ((result.status ?? 200) !== 200) throw failedCall(`GET ${ctx.basePath}/${action}`, result.status, result.json)
  return result.json
}

/**
 * The CSRF token for the sign-in or sign-out POST, obtained server-side from core (GET /csrf).
 * Core sets the CSRF cookie when the browser has none; the jar passes it on to the POST, so
 * core's double-submit check runs in full.
 */
export async function csrfToken(ev: RequestEventCommon, ctx: AuthContext): Promise<string> {
  const body = (await getJson(ev, ctx, "csrf")) as { csrfToken?: unknown } | null
  if (typeof body?.csrfToken !== "string") throw new Configuration("GET /csrf answered no csrfToken", { code: "INTERNAL_CALL_FAILED" })
  return body.csrfToken
}

/** The type of provider `id` as core sees it (GET /providers), or undefined for an unknown id. */
export async function providerType(ev: RequestEventCommon, ctx: AuthContext, id: string): Promise<ProviderType | undefined> {
  const providers = (await getJson(ev, ctx, "providers")) as Record<string, { type?: ProviderType }> | null
  return providers && Object.hasOwn(providers, id) ? providers[id]?.type : undefined
}

/** The current page, as the default place to come back to (without Qwik's `qaction` parameter). */
export function currentPage(ev: RequestEventCommon): string {
  const url = new URL(ev.url)
  url.searchParams.delete("qaction")
  return url.href
}

/** Whether this is Qwik City's client fetching an action's result (`.../q-data.json`), not a document. */
function isClientDataRequest(ev: RequestEventCommon): boolean {
  return new URL(ev.request.url).pathname.endsWith("/q-data.json")
}

/**
 * Ends an action by sending the browser to `to`:
 *
 * - An app page on the same origin: a thrown 303 with a path, which Qwik City's client follows as
 *   a client-side navigation.
 * - Anything else (core's pages under `basePath`, an OAuth provider): a thrown 303 with the full
 *   URL for a document request. For Qwik City's client-side action request, a thrown redirect to
 *   such a URL ends with no answer at all in Qwik City 1.20, so the URL goes in the `Location`
 *   header of the normal (200) answer instead: Qwik City copies it into the data it sends as
 *   `redirect`, and its client loads that URL as a new document.
 */
export function redirectFromAction(ev: RequestEventCommon, ctx: AuthContext, to: string): void {
  const url = new URL(to, ev.url)
  if (url.origin === ev.url.origin && !isUnderBasePath(url.pathname, ctx.basePath)) {
    // As a bare path, `https://app//evil.example` (which a permissive `redirect` callback may pass)
    // would read as protocol-relative: a browser would leave the site.
    const path = url.pathname.replace(/^\/{2,}/, "/")
    throw ev.redirect(303, `${path}${url.search}${url.hash}`)
  }
  if (!isClientDataRequest(ev)) throw ev.redirect(303, url.href)
  ev.headers.set("Location", url.href)
}
