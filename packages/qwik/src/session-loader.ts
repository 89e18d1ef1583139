/**
 * The session, read lazily: nothing happens until a loader, action or endpoint asks for it, and
 * then core's session route runs in-process (no HTTP round trip) once per request; every later
 * ask in the same request gets the same promise.
 */
import { Auth, Configuration, type Session } from "@authlib/core"
import type { RequestEventCommon } from "@builder.io/qwik-city"
import { requireContext, internalRequest, type AuthContext } from "./context.js"
import { applySetCookies } from "./cookies.js"
import type { GetSessionResult } from "./types.js"

async function readSession(ev: RequestEventCommon, ctx: AuthContext): GetSessionResult {
  const res = await Auth(internalRequest(ev, ctx, "session"), ctx.config)
  const cookie = res.headers.getSetCookie()
  applySetCookies(ev, cookie)
  if (res.status !== 200) {
    // Core has logged the cause through the logger; the page must not pass it off as "signed out".
    throw new Configuration(`GET ${ctx.basePath}/session answered ${res.status}`, {
      code: "SESSION_ROUTE_FAILED",
      cause: { status: res.status, body: (await res.text()).slice(0, 500) },
    })
  }
  const data = (await res.json()) as Session | null
  return { cookie, data }
}

/** The request's session read, started on first call and shared by every later one. */
export function sessionOf(ev: RequestEventCommon, ctx: AuthContext): GetSessionResult {
  ctx.session ??= readSession(ev, ctx)
  return ctx.session
}

/**
 * The session of the current request, for endpoints, middleware and server functions
 * (`onGet`, `onRequest` of a layout, `server$`, `routeAction$`). Resolves to
 * `{ cookie, data }` (`SessionResult`; the promise is spec section 4's `GetSessionResult`);
 * `data` is `null` when signed out.
 * Needs the plugin's `onRequest` to have run, which Qwik City guarantees for every route.
 */
export async function getSession(ev: RequestEventCommon): GetSessionResult {
  return sessionOf(ev, await requireContext(ev, "getSession"))
}
