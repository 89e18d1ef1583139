/**
 * The refresh-token grant (RFC 6749 6) on oauth4webapi, for every OAuth/OIDC provider with a token
 * endpoint: the provider's client authentication, the answer validated (an ID token in it checked
 * like at sign-in: claims and signature; `expires_in` between 0 and a year), `expires_at` derived
 * from `expires_in`, and a rotated refresh token kept (the old one when the provider sends none).
 * A request that got no answer or a 5xx is sent once more; `invalid_grant` and every other answer
 * are final.
 */
import * as o from "oauth4webapi"
import type { AdapterAccount } from "../../kernel/types/adapters.js"
import { RefreshTokenError } from "../../kernel/errors/errors.js"
import type { OAuthConfig } from "../../kernel/types/providers.js"
import { clientAuthOf, clientOf } from "../oauth/index.js"
import { authorizationServer } from "../oauth/index.js"
import { httpOptions } from "../oauth/index.js"
import { defaultAccount, normalizeTokens } from "../oauth/index.js"

/** The token fields a refresh writes back to the account. */
export type RefreshedTokens = Pick<AdapterAccount, "access_token" | "refresh_token" | "expires_at" | "id_token" | "scope" | "token_type">

/** A one-line reason for the log, never a token. */
function reasonOf(err: unknown): string {
  if (err instanceof o.ResponseBodyError) return `${err.status} ${err.error}`
  return err instanceof Error ? err.message : String(err)
}

/** How long one refresh request may take before it counts as failed. */
export const REFRESH_TIMEOUT_MS = 10_000
/** The longest `expires_in` taken at face value (a year); more, or zero or less, is a broken answer. */
const MAX_EXPIRES_IN = 365 * 24 * 3600

/**
 * The token endpoint's answer, sent at most twice: again only when the first request got no answer
 * (network error, timeout) or a 5xx, never after a 2xx or 4xx, since a provider that rotates refresh
 * tokens has spent the old one once it answers.
 */
async function request(provider: OAuthConfig, server: o.AuthorizationServer, client: o.Client, refreshToken: string): Promise<Response> {
  let last: unknown
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const options = { ...httpOptions(provider), signal: AbortSignal.timeout(REFRESH_TIMEOUT_MS) }
      let response = await o.refreshTokenGrantRequest(server, client, clientAuthOf(provider), refreshToken, options)
      // The provider's `token.conform` fixes its answers here as at sign-in (GitHub's, say).
      const conform = typeof provider.token === "object" ? provider.token.conform : undefined
      response = (await conform?.(response)) ?? response
      if (response.status < 500) return response
      last = new Error(`the token endpoint answered ${response.status}`)
    } catch (err) {
      last = err
    }
  }
  throw last
}

async function once(provider: OAuthConfig, refreshToken: string): Promise<RefreshedTokens> {
  const server = await authorizationServer(provider)
  const client = clientOf(provider)
  const response = await request(provider, server, client, refreshToken)
  const tokens = await o.processRefreshTokenResponse(server, client, response)
  const { expires_in: expiresIn } = tokens
  if (expiresIn !== undefined && !(typeof expiresIn === "number" && expiresIn > 0 && expiresIn <= MAX_EXPIRES_IN))
    throw new Error(`the token endpoint answered an unusable expires_in (${String(expiresIn).slice(0, 20)})`)
  // The very Response processed above: oauth4webapi checks the signature of the ID token it parsed.
  if (tokens.id_token && server.jwks_uri) await o.validateApplicationLevelSignature(server, response, httpOptions(provider))
  const next = defaultAccount(normalizeTokens({ ...tokens }))
  return { ...next, refresh_token: (next.refresh_token as string | undefined) ?? refreshToken } as RefreshedTokens
}

/**
 * New tokens for `refreshToken`. Throws `RefreshTokenError`: `INVALID_GRANT` when the provider
 * refuses the refresh token, `REFRESH_FAILED` for anything else (no answer twice, a 5xx twice, an
 * answer that does not validate).
 */
export async function refreshTokens(provider: OAuthConfig, refreshToken: string): Promise<RefreshedTokens> {
  try {
    return await once(provider, refreshToken)
  } catch (err) {
    if (err instanceof o.ResponseBodyError && err.error === "invalid_grant")
      throw new RefreshTokenError(`Provider "${provider.id}" refused the refresh token (${err.error_description ?? err.error})`, { code: "INVALID_GRANT", cause: { provider: provider.id, err } })
    throw new RefreshTokenError(`Refreshing the access token of provider "${provider.id}" failed: ${reasonOf(err)}`, {
      code: "REFRESH_FAILED",
      cause: { provider: provider.id, ...(err instanceof Error ? { err } : {}) },
    })
  }
}
