/**
 * The provider tokens of an OAuth/OIDC account as a session keeps them (`StoredProviderTokens`,
 * JWT sessions with `session.providerTokens`): the token fields it came with, nothing else.
 */
import type { Account } from "../types/config.js"
import type { StoredProviderTokens } from "./types.js"

const TOKEN_FIELDS = ["access_token", "refresh_token", "expires_at", "token_type", "scope"] as const

/** The tokens of `account` to keep, or undefined for an account that is not OAuth/OIDC or has no access token. */
export function accountTokens(account: Account): StoredProviderTokens | undefined {
  if ((account.type !== "oauth" && account.type !== "oidc") || !account.access_token) return undefined
  const kept: StoredProviderTokens = {}
  for (const field of TOKEN_FIELDS) if (account[field] !== undefined) (kept as Record<string, unknown>)[field] = account[field]
  return kept
}
