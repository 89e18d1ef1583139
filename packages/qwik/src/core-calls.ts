/**
 * The in-process calls an action makes to core before the sign-in or sign-out itself, and the
 * redirect that ends an action. Each call carries the request's cookie jar, so a CSRF cookie core
 * sets in the first call is the one the next call presents.
 */
import { Auth, Configuration, type ProviderType } from "@authlib/core"
import type { RequestEventCommon } from "@builder.io/qwik-city"
import { internalRequest, type AuthContext } from "./context.js"
import { applySetCookies } from "./cookies.js"

async function getJson(ev: RequestEventCommon, ctx: AuthContext, action: string): Promise<unknown> {
  const res = await Auth(internalRequest(ev, ctx, action), ctx.config)
  applySetCookies(ev, res.headers.getSetCookie())
  const body: unknown = await res.json().catch(() => undefined)
  if (res.status !== 200) {
    throw new Configuration(`GET ${ctx.basePath}/${action} answered ${res.status}`, {
      code: "INTERNAL_CALL_FAILED",
      cause: { status: res.status, body },
    })
  }
  return body
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

/**
 * Ends an action with a 303 (the browser follows with a GET). A same-origin URL is made
 * path-relative, which lets Qwik City's client navigate without a full page load.
 */
export function redirectFromAction(ev: RequestEventCommon, to: string): never {
  const url = new URL(to, ev.url)
  const target = url.origin === ev.url.origin ? `${url.pathname}${url.search}${url.hash}` : url.href
  throw ev.redirect(303, target)
}
