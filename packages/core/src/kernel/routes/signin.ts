/**
 * GET /signin: the built-in sign-in page (or a redirect to `pages.signIn`).
 * POST /signin/:provider: CSRF check, then the provider's flow starts (OAuth redirect, e-mail link).
 * Providers without a start step (credentials) send the user to the sign-in page.
 */
import { InvalidProvider } from "../errors/errors.js"
import { callbackUrlCookie, resolveCallbackUrl } from "../http/callback-url.js"
import type { AuthRequest, AuthResponse, Context } from "../types/http.js"
import { routeUrl } from "../http/urls.js"
import { formTargets, pageHeaders, renderSignInPage, signInFormTargets } from "../pages/index.js"
import { toAppProvider } from "../providers/normalize.js"
import type { CredentialInput, OAuthProviderButtonStyles, ProviderConfig, WebAuthnConfig } from "../types/providers.js"
import { csrfTokenFor } from "../security/csrf.js"
import { providerOf } from "../providers/lookup.js"
import { limitClient } from "../rate-limit/limiter.js"

function pageProvider(provider: ProviderConfig, ctx: Context) {
  const style = (provider as { style?: OAuthProviderButtonStyles }).style
  const credentials = provider.type === "credentials" ? (provider as { credentials?: Record<string, CredentialInput> }).credentials : undefined
  const passkey = provider.type === "webauthn" ? (provider as WebAuthnConfig) : undefined
  const webauthn = passkey
    ? { optionsUrl: `${ctx.actionBase}/webauthn-options/${encodeURIComponent(passkey.id)}`, autofill: passkey.enableConditionalUI !== false, register: passkey.allowNewAccounts === true }
    : undefined
  return { ...toAppProvider(provider, ctx.actionBase), ...(style ? { style } : {}), ...(credentials ? { credentials } : {}), ...(webauthn ? { webauthn } : {}) }
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
  })
  const headers = pageHeaders(html, signInFormTargets(providers, formTargets(ctx.origin, ctx.config.pages, callbackUrl)))
  return { html, headers, cookies: cookie ? [cookie] : [] }
}


export async function signinProvider(req: AuthRequest, ctx: Context): Promise<AuthResponse> {
  const provider = providerOf(req.action, req.providerId, ctx.config)
  const declared = ctx.config.registry.flow(provider.type)
  if (!declared) throw new InvalidProvider(`Provider type "${provider.type}" has no sign-in flow in this version`, { code: "FLOW_UNAVAILABLE", cause: { provider: provider.id } })
  const { flow } = declared
  if (declared.limits?.signin) await limitClient(req, ctx, declared.limits.signin)
  const callbackUrl = await resolveCallbackUrl(req, ctx, false)
  if (!flow.signin) return { redirect: routeUrl(ctx, "signIn", { callbackUrl }) }
  const res = await flow.signin(req, { ...ctx, provider, callbackUrl })
  return { ...res, cookies: [...(res.cookies ?? []), callbackUrlCookie(callbackUrl, ctx)] }
}
