/**
 * GET /error?error=<type>&code=<code>: the error page (or a redirect to `pages.error`). Type and
 * code only select one of the page's fixed texts, so nothing user-supplied is echoed as prose.
 */
import type { AuthRequest, AuthResponse, Context } from "../types/http.js"
import { routeUrl } from "../http/urls.js"
import { pageHeaders, renderErrorPage } from "../pages/index.js"

export async function errorPage(req: AuthRequest, ctx: Context): Promise<AuthResponse> {
  const error = req.query.error ?? "Default"
  const code = req.query.code
  if (ctx.config.pages.error) return { redirect: routeUrl(ctx, "error", { error, code }) }
  const { status, html } = renderErrorPage({ error, ...(code ? { code } : {}), signinUrl: routeUrl(ctx, "signIn"), theme: ctx.config.theme, texts: ctx.config.registry.errorText })
  return { status, html, headers: pageHeaders(html) }
}
