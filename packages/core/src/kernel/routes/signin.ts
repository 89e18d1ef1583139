/**
 * GET /signin: the built-in sign-in page (or a redirect to `pages.signIn`).
 * POST /signin/:provider: CSRF check, then the provider's flow starts (OAuth redirect, e-mail link).
 * Providers without a start step (credentials) send the user to the sign-in page.
 */
import { InvalidProvider } from "../errors/errors.js"
import { callbackUrlCookie, resolveCallbackUrl } from "../http/callback-url.js"
import type { AuthRequest, AuthResponse, Context } from "../types/http.js"
import { routeUrl } from "../http/urls.js"
import { buttonOf, buttonPart, formTargets, pageHeaders, renderSignInPage, signInFormTargets, type SignInPageProvider } from "../pages/index.js"
import { toAppProvider } from "../providers/normalize.js"
import type { ProviderConfig } from "../types/providers.js"
import { csrfTokenFor } from "../security/csrf.js"
import { providerOf } from "../providers/lookup.js"
import { limitClient } from "../rate-limit/limiter.js"

/** A provider's form, as its sign-in type draws it (a type without one: a plain button to its sign-in URL). */
function pageProvider(provider: ProviderConfig, ctx: Context): SignInPageProvider {
  const { style } = buttonOf(provider)
  const { signinUrl, callbackUrl } = toAppProvider(provider, ctx.actionBase)
  const urls = { signinUrl, callbackUrl, actionBase: ctx.actionBase }
  const part = ctx.config.registry.signInType(provider.type)?.page(provider, urls) ?? buttonPart(provider, signinUrl, false)
  return style ? { style, part } : { part }
}

export async function signinPage(req: AuthRequest, ctx: Context): Promise<AuthResponse> {
  const { error, code, callbackUrl: requested, email } = req.query
  if (ctx.config.pages.signIn) return { redirect: routeUrl(ctx, "signIn", { callbackUrl: requested, error, code }) }
  const callbackUrl = await resolveCallbackUrl(req, ctx, false)
  const { token, cookie } = await csrfTokenFor(req, ctx)
  const providers = ctx.config.providers.map((p) => pageProvider(p, ctx))
  const html = renderSignInPage({
    providers,
    csrfToken: token,
    callbackUrl,
    ...(error ? { error } : {}),
    ...(code ? { code } : {}),
    ...(email ? { email } : {}),
    theme: ctx.config.theme,
    texts: ctx.config.registry.errorText,
  })
  const headers = pageHeaders(html, signInFormTargets(providers, formTargets(ctx.origin, ctx.config.pages, callbackUrl)))
  return { html, headers, cookies: cookie ? [cookie] : [] }
}


export async function signinProvider(req: AuthRequest, ctx: Context): Promise<AuthResponse> {
  const provider = providerOf(req.action, req.providerId, ctx.config)
  const declared = ctx.config.registry.signInType(provider.type)
  if (!declared) throw new InvalidProvider(`Provider type "${provider.type}" has no sign-in flow in this version`, { code: "FLOW_UNAVAILABLE", cause: { provider: provider.id } })
  const { flow } = declared
  if (declared.limits?.signin) await limitClient(req, ctx, declared.limits.signin)
  const callbackUrl = await resolveCallbackUrl(req, ctx, false)
  if (!flow.signin) return { redirect: routeUrl(ctx, "signIn", { callbackUrl }) }
  const res = await flow.signin(req, { ...ctx, provider, callbackUrl })
  return { ...res, cookies: [...(res.cookies ?? []), callbackUrlCookie(callbackUrl, ctx)] }
}
