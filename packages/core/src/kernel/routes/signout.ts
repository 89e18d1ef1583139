/**
 * GET /signout: the confirm page (or a redirect to `pages.signOut`).
 * POST /signout: CSRF check, the `signOut` event (`{ token }` or `{ session }` by strategy), the
 * database session deleted, every session cookie (and chunk) cleared, redirect to `callbackUrl`, or
 * to the provider's end-session endpoint first (`signOutAtProvider`, RP-Initiated Logout).
 * A failing adapter is logged and never keeps the cookies: the browser is signed out regardless.
 */
import { resolveCallbackUrl } from "../http/callback-url.js"
import type { AuthRequest, AuthResponse, Context } from "../types/http.js"
import { routeUrl } from "../http/urls.js"
import { emitEvent } from "../user-code/events.js"
import { formTargets, pageHeaders, renderSignOutPage } from "../pages/index.js"
import { csrfTokenFor } from "../security/csrf.js"
import { clearSessionCookie } from "../sessions/session-cookie.js"
import { sessionStrategy } from "../sessions/strategy.js"

export async function signoutPage(req: AuthRequest, ctx: Context): Promise<AuthResponse> {
  if (ctx.config.pages.signOut) return { redirect: routeUrl(ctx, "signOut", { callbackUrl: req.query.callbackUrl }) }
  const callbackUrl = await resolveCallbackUrl(req, ctx, false)
  const { token, cookie } = await csrfTokenFor(req, ctx)
  const html = renderSignOutPage({ signoutUrl: `${ctx.actionBase}/signout`, csrfToken: token, callbackUrl, theme: ctx.config.theme })
  return { html, headers: pageHeaders(html, formTargets(ctx.origin, ctx.config.pages, callbackUrl)), cookies: cookie ? [cookie] : [] }
}

export async function signout(req: AuthRequest, ctx: Context): Promise<AuthResponse> {
  const callbackUrl = await resolveCallbackUrl(req, ctx, false)
  // Read before the session ends: the ID token belongs to the user the session names.
  let atProvider: string | undefined
  for (const hook of ctx.config.registry.signOutRedirects) if ((atProvider = await hook(req, ctx, callbackUrl)) !== undefined) break
  await emitEvent(ctx, "signOut", await sessionStrategy(ctx.config).end(req, ctx))
  return { redirect: atProvider ?? callbackUrl, cookies: clearSessionCookie(req, ctx) }
}
