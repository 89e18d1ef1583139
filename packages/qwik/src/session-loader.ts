/**
 * The session, read lazily: nothing happens until a loader, action or endpoint asks for it, and
 * then core's session route runs in-process (no HTTP round trip) once per request; every later
 * ask in the same request gets the same promise.
 */
import { Configuration, type Session } from "@authlib/core"
import { serializeCookie } from "@authlib/core/internal"
import type { RequestEventCommon } from "@builder.io/qwik-city"
import { requireContext, type AuthContext } from "./context.js"
import { coreCall } from "./core-calls.js"
import type { GetSessionResult } from "./types.js"

async function readSession(ev: RequestEventCommon, ctx: AuthContext): GetSessionResult {
  const result = await coreCall(ev, ctx, "session")
  // `cookie` is the spec's list of Set-Cookie values; the cookies themselves are applied already.
  const cookie = (result.cookies ?? []).map(serializeCookie)
  const status = result.status ?? 200
  if (status !== 200) {
    // Core has logged the cause through the logger; the page must not pass it off as "signed out".
    throw new Configuration(`GET ${ctx.basePath}/session answered ${status}`, {
      code: "SESSION_ROUTE_FAILED",
      cause: { status, body: JSON.stringify(result.json ?? result.html ?? null).slice(0, 500) },
    })
  }
  return { cookie, data: (result.json ?? null) as Session | null }
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
