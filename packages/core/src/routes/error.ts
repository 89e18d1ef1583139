/**
 * GET /error?error=<type>: the error page (or a redirect to `pages.error`). Only the type travels
 * in the URL; the page maps it to a fixed message, so nothing user-supplied is echoed as prose.
 */
import type { AuthRequest, AuthResponse, Context } from "../http/types.js"
import { routeUrl } from "../http/urls.js"
import { renderErrorPage } from "../pages/index.js"

export async function errorPage(req: AuthRequest, ctx: Context): Promise<AuthResponse> {
  const error = req.query.error ?? "Default"
  if (ctx.config.pages.error) return { redirect: routeUrl(ctx, "error", { error }) }
  const { status, html } = renderErrorPage({ error, signinUrl: routeUrl(ctx, "signIn"), theme: ctx.config.theme })
  return { status, html }
}
