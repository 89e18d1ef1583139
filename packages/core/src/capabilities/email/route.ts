/** GET /verify-request: "check your e-mail" (or a redirect to `pages.verifyRequest`). */
import type { AuthRequest, AuthResponse, Context } from "../../kernel/types/http.js"
import { routeUrl } from "../../kernel/http/urls.js"
import { pageHeaders, renderVerifyRequestPage } from "../../kernel/pages/index.js"

export async function verifyRequest(req: AuthRequest, ctx: Context): Promise<AuthResponse> {
  if (ctx.config.pages.verifyRequest) return { redirect: routeUrl(ctx, "verifyRequest", { ...req.query }) }
  const html = renderVerifyRequestPage({ host: new URL(ctx.origin).host, theme: ctx.config.theme, signinUrl: routeUrl(ctx, "signIn") })
  return { html, headers: pageHeaders(html) }
}
