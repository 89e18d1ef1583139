/**
 * What every part of SSO reads first: the option (or "not configured"), the port of the adapter,
 * the SSO provider, and the URLs of a connection (its entity ID and ACS URL are part of what the IdP
 * checks, so they come from the configured origin, never a request's Host).
 */
import { UnknownAction } from "../../kernel/errors/errors.js"
import { port, type PortMethods } from "../../kernel/ports/ports.js"
import type { Context } from "../../kernel/types/http.js"
import type { SsoConfig } from "./provider.js"
import type { ResolvedSsoOptions } from "./options.js"

/** The resolved option; without it, SSO answers as an action this configuration lacks. */
export function ssoOptions(ctx: Context): ResolvedSsoOptions {
  const options = ctx.config.sso
  if (!options) throw new UnknownAction("Enterprise SSO is not configured", { code: "ACTION_UNAVAILABLE" })
  return options
}

/** The `ssoConnections` port (checked at start-up when the option is set). */
export const ssoStore = (ctx: Context): PortMethods<"ssoConnections"> => port(ctx.config, "ssoConnections", "Enterprise SSO")

/** The configured SSO provider (the start-up check requires one when `sso` is set). */
export function ssoProvider(ctx: Context): SsoConfig {
  const provider = ctx.config.providers.find((p): p is SsoConfig => p.type === "sso")
  if (!provider) throw new UnknownAction("Enterprise SSO is not configured", { code: "ACTION_UNAVAILABLE" })
  return provider
}

/** A connection's SP entity ID, ACS URL and OIDC redirect URI. */
export function connectionUrls(ctx: Context, connectionId: string): { entityId: string; acsUrl: string; callbackUrl: string } {
  const id = encodeURIComponent(connectionId)
  return { entityId: `${ctx.actionBase}/sso/metadata/${id}`, acsUrl: `${ctx.actionBase}/sso/acs/${id}`, callbackUrl: `${ctx.actionBase}/sso/callback/${id}` }
}
