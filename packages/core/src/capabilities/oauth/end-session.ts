/**
 * OpenID Connect RP-Initiated Logout 1.0: where a sign-out sends the browser when an OIDC provider
 * has `signOutAtProvider`: the provider's `end_session_endpoint` (from its discovery document, never
 * from the request) with `id_token_hint`, `client_id` and the sign-out's callback URL, already
 * checked by the `redirect` callback, as `post_logout_redirect_uri`.
 */
import type { AuthRequest, Context } from "../../kernel/types/http.js"
import { logError } from "../../kernel/errors/logger.js"
import type { OAuthConfig } from "../../kernel/types/providers.js"
import { principalOf } from "../../kernel/sessions/principal.js"
import { authorizationServer } from "./discovery.js"

const endsSession = (p: { type: string }) => p.type === "oidc" && (p as { signOutAtProvider?: unknown }).signOutAtProvider === true

/**
 * The provider's end-session URL for the request's user, or undefined (no such provider, no account
 * with an ID token, no adapter to read accounts, no endpoint). Never throws: a sign-out must not fail
 * because a provider is unreachable (the failure is logged and the sign-out ends on the app).
 */
export async function endSessionUrl(req: AuthRequest, ctx: Context, postLogoutRedirectUri: string): Promise<string | undefined> {
  const providers = ctx.config.providers.filter(endsSession) as OAuthConfig[]
  const adapter = ctx.config.adapter
  if (providers.length === 0 || !adapter?.listAccountsByUserId) return undefined
  try {
    const userId = (await principalOf(req, ctx))?.userId
    if (userId === undefined) return undefined
    const accounts = await adapter.listAccountsByUserId(userId)
    for (const provider of providers) {
      const idToken = accounts.find((a) => a.provider === provider.id && typeof a.id_token === "string" && a.id_token !== "")?.id_token
      if (!idToken) continue
      const endpoint = (await authorizationServer(provider)).end_session_endpoint
      if (!endpoint) {
        ctx.config.logger.warn("end-session-endpoint-missing", `provider "${provider.id}" has signOutAtProvider but its discovery document names no end_session_endpoint`)
        continue
      }
      const url = new URL(endpoint)
      url.searchParams.set("id_token_hint", idToken)
      url.searchParams.set("client_id", provider.clientId ?? "")
      url.searchParams.set("post_logout_redirect_uri", postLogoutRedirectUri)
      return url.href
    }
  } catch (err) {
    logError(ctx.config.logger, err)
  }
  return undefined
}
