/**
 * The OAuth client as oauth4webapi sees it: metadata from `clientId` and `client`, and the client
 * authentication method of `client.token_endpoint_auth_method`.
 */
import * as o from "oauth4webapi"
import { OAuthCallbackError } from "../../kernel/errors/errors.js"
import type { OAuthConfig } from "../../kernel/types/providers.js"

/** Client metadata: the provider's `client` overrides plus its `clientId`. */
export function clientOf(provider: OAuthConfig): o.Client {
  return { ...(provider.client as Record<string, o.JsonValue | undefined>), client_id: provider.clientId ?? "" }
}

/**
 * `client_secret_basic` (default when a secret is set), `client_secret_post`, or `none` (default
 * without a secret: a public client, protected by PKCE).
 */
export function clientAuthOf(provider: OAuthConfig): o.ClientAuth {
  const method = provider.client?.token_endpoint_auth_method ?? (provider.clientSecret ? "client_secret_basic" : "none")
  if (method === "none") return o.None()
  if (method !== "client_secret_basic" && method !== "client_secret_post") {
    throw new OAuthCallbackError(`token_endpoint_auth_method "${method}" is not supported`, {
      code: "CLIENT_AUTH_UNSUPPORTED",
      cause: { provider: provider.id, method },
    })
  }
  if (!provider.clientSecret) {
    throw new OAuthCallbackError(`Provider "${provider.id}" needs a "clientSecret" for ${method}`, {
      code: "CLIENT_SECRET_MISSING",
      cause: { provider: provider.id, method },
    })
  }
  return method === "client_secret_post" ? o.ClientSecretPost(provider.clientSecret) : o.ClientSecretBasic(provider.clientSecret)
}
