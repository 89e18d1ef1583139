/**
 * GET /signout: the confirm page (or a redirect to `pages.signOut`).
 * POST /signout: CSRF check, the `signOut` event (`{ token }` or `{ session }` by strategy), the
 * database session deleted, every session cookie (and chunk) cleared, redirect to `callbackUrl`.
 * A failing adapter is logged and never keeps the cookies: the browser is signed out regardless.
 */
import { resolveCallbackUrl } from "../http/callback-url.js"
import type { AuthRequest, AuthResponse, Context } from "../http/types.js"
import { routeUrl } from "../http/urls.js"
import { emitEvent } from "../events.js"
import { renderSignOutPage } from "../pages/index.js"
import { assertCsrf, csrfTokenFor } from "../security/csrf.js"
import { deleteDatabaseSession, readDatabaseCookie } from "../sessions/database-strategy.js"
import { decodeJwtSession, readJwtCookie } from "../sessions/jwt-strategy.js"
import { clearChunked } from "../cookies/chunks.js"
import { logError } from "../logger.js"

export async function signoutPage(req: AuthRequest, ctx: Context): Promise<AuthResponse> {
  if (ctx.config.pages.signOut) return { redirect: routeUrl(ctx, "signOut", { callbackUrl: req.query.callbackUrl }) }
  const callbackUrl = await resolveCallbackUrl(req, ctx, false)
  const { token, cookie } = await csrfTokenFor(req, ctx)
  const html = renderSignOutPage({ signoutUrl: `${ctx.actionBase}/signout`, csrfToken: token, callbackUrl, theme: ctx.config.theme })
  return { html, cookies: cookie ? [cookie] : [] }
}

async function endSession(req: AuthRequest, ctx: Context): Promise<void> {
  if (ctx.config.session.strategy === "jwt") {
    const raw = readJwtCookie(req, ctx)
    const token = raw ? await decodeJwtSession(raw, ctx).catch(() => null) : null
    await emitEvent(ctx, "signOut", { token })
    return
  }
  const raw = readDatabaseCookie(req, ctx)
  let session: Awaited<ReturnType<typeof deleteDatabaseSession>> = null
  try {
    if (raw) session = await deleteDatabaseSession(raw, ctx)
  } catch (err) {
    // Some adapters throw for a record that is already gone (Prisma's deleteSession): an error
    // page here would leave the session cookie in a browser whose user asked to sign out.
    logError(ctx.config.logger, err)
  }
  await emitEvent(ctx, "signOut", { session })
}

export async function signout(req: AuthRequest, ctx: Context): Promise<AuthResponse> {
  await assertCsrf(req, ctx)
  const callbackUrl = await resolveCallbackUrl(req, ctx, false)
  await endSession(req, ctx)
  return { redirect: callbackUrl, cookies: clearChunked(ctx.cookies.sessionToken, req.cookies) }
}
