/**
 * OAuth 2 and OpenID Connect as a sign-in type: what the kernel asks of it besides its flow.
 *
 * - First factor `fed`, an unregistered RFC 8176 value (its §1 allows them): the user authenticated
 *   at another party whose methods are unknown here; claiming `pwd` would say more than we know.
 * - Users: the account's owner, else the signed-in user (linking another way in), else the user
 *   with the address only with `allowDangerousEmailAccountLinking` and both the provider and the
 *   stored user vouching for it (otherwise an unverified address on either side would hand one
 *   person's user to whoever typed the address at some provider: account pre-hijacking). A new
 *   user's address counts as verified from the date the provider vouched for it. The user comes
 *   from the link alone, so a session stands only while the link does (`sessions/account-link.ts`).
 * - Page: a button that sends the browser to the provider. Environment: `AUTH_<ID>_ID`,
 *   `AUTH_<ID>_SECRET`, `AUTH_<ID>_ISSUER`.
 */
import { buttonPart } from "../../kernel/pages/index.js"
import type { SignInTypeDeclaration } from "../../kernel/types/capability.js"
import type { Account, User } from "../../kernel/types/config.js"
import type { StoredProviderTokens } from "../../kernel/types/model.js"
import type { OAuthConfig, ProviderConfig } from "../../kernel/types/providers.js"
import { checkOAuthProvider } from "./check.js"
import { oauthFlow, type OAuthSignIn } from "./flow.js"

/** The date the provider vouched for the address (`buildSignIn` sets it), else null. */
const vouchedAt = (user: User): Date | null => (user.emailVerified instanceof Date ? user.emailVerified : null)

const TOKEN_FIELDS = ["access_token", "refresh_token", "expires_at", "token_type", "scope"] as const

/** The token fields an account came with, for a session that keeps provider tokens; none without an access token. */
function sessionTokens(account: Account): StoredProviderTokens | undefined {
  if (!account.access_token) return undefined
  const kept: StoredProviderTokens = {}
  for (const field of TOKEN_FIELDS) if (account[field] !== undefined) (kept as Record<string, unknown>)[field] = account[field]
  return kept
}

/** Client id, secret and issuer from `AUTH_<ID>_ID`, `_SECRET`, `_ISSUER` where neither the provider nor its `options` set them. */
function fromEnv(provider: OAuthConfig, read: (name: string) => string | undefined, stem: string): OAuthConfig {
  const opts = (provider.options ?? {}) as Record<string, unknown>
  const filled: Record<string, unknown> = { ...provider }
  const pairs = [["clientId", "ID"], ["clientSecret", "SECRET"], ["issuer", "ISSUER"]] as const
  for (const [key, suffix] of pairs) {
    const value = read(`AUTH_${stem}_${suffix}`)
    if (value !== undefined && provider[key] === undefined && opts[key] === undefined) filled[key] = value
  }
  return filled as unknown as OAuthConfig
}

export const oauthSignInType: SignInTypeDeclaration<OAuthConfig, OAuthSignIn> = {
  flow: oauthFlow,
  limits: { signin: "oauth.perClient", callback: "oauth.perClient" },
  check: (provider) => checkOAuthProvider(provider as ProviderConfig),
  firstFactor: () => ({ amr: ["fed"], factors: 1 }),
  users: {
    owner: "adapter",
    joins: "signed-in",
    fromLinkAlone: true,
    joinByEmail: (result, existing) => {
      const linkingAllowed = result.own?.allowEmailLinking === true
      const providerVerified = vouchedAt(result.user) !== null
      return { allowed: linkingAllowed && providerVerified && existing.emailVerified != null, facts: { linkingAllowed, providerVerified } }
    },
    verifiedAt: (result) => vouchedAt(result.user),
  },
  keep: (own) => (own ? { allowEmailLinking: own.allowEmailLinking } : undefined),
  page: (provider, urls) => buttonPart(provider, urls.signinUrl, true),
  fromEnv,
  redirectProxyUrl: (provider) => (provider as { redirectProxyUrl?: string }).redirectProxyUrl,
  sessionTokens,
}
