/**
 * What the OAuth flow needs from core's request context, gathered once per request, and the
 * per-provider decisions both steps share (which checks run, which `redirect_uri` is used).
 */
import type { LoggerInstance } from "@authlib/jwt"
import type { Context } from "../../kernel/types/http.js"
import type { OAuthConfig } from "../../kernel/types/providers.js"
import type { CheckName } from "../../kernel/errors/errors.js"
import type { CheckContext } from "./checks.js"
import { proxyRedirectUri } from "./redirect-proxy.js"

export interface OAuthFlowContext extends CheckContext {
  provider: OAuthConfig
  /** This deployment's OAuth callback URL for the provider (`<actionBase>/callback/<id>`). */
  oauthCallbackUrl: string
  /** The provider's `redirectProxyUrl`, else the config's (env `AUTH_REDIRECT_PROXY_URL`). */
  redirectProxyUrl: string | undefined
  logger: LoggerInstance
}

/** Builds the flow's view of a request for one OAuth/OIDC provider. */
export function oauthContext(ctx: Context, provider: OAuthConfig): OAuthFlowContext {
  return {
    provider,
    providerId: provider.id,
    secret: [...ctx.config.secret],
    cookies: ctx.cookies,
    oauthCallbackUrl: `${ctx.actionBase}/callback/${encodeURIComponent(provider.id)}`,
    redirectProxyUrl: provider.redirectProxyUrl ?? ctx.config.redirectProxyUrl,
    logger: ctx.config.logger,
  }
}

/**
 * The checks that run for this provider: its `checks` (default `["pkce"]`), `"none"` meaning no
 * check, `nonce` only for OIDC, and `state` always when a redirect proxy is in use.
 */
export function activeChecks(flow: OAuthFlowContext): CheckName[] {
  const configured = flow.provider.checks ?? ["pkce"]
  const checks = new Set<CheckName>()
  for (const check of configured) {
    if (check === "pkce" || check === "state") checks.add(check)
    else if (check === "nonce" && flow.provider.type === "oidc") checks.add(check)
  }
  if (flow.redirectProxyUrl) checks.add("state")
  return [...checks]
}

/** The `redirect_uri` of the authorization request and of the code exchange: they must match. */
export function redirectUri(flow: OAuthFlowContext): string {
  return flow.redirectProxyUrl ? proxyRedirectUri(flow.redirectProxyUrl, flow.provider.id) : flow.oauthCallbackUrl
}
