/**
 * `getAccessToken(request, config, providerId)`: a valid access token of the signed-in user for a
 * provider, refreshed first when it expires within `minValidity` seconds (default 60), for server
 * code that calls the provider's API. The token never goes to the browser unless the app puts it
 * there.
 *
 * - Tokens live on the user's account row (an adapter with `listAccountsByUserId` and
 *   `updateAccount`), in either session strategy.
 * - Single flight: concurrent calls for one account in this process share one refresh.
 * - Across instances: the new tokens are written with a compare-and-swap on the refresh token the
 *   refresh spent (`updateAccount(..., { refresh_token })`); an instance that loses the race reads
 *   the winner's tokens instead of storing its own, so every instance ends on the same tokens.
 *   (Two instances can still both call the provider when they start within one request's time; a
 *   provider that rotates refresh tokens then refuses the second call, which reads the winner's.)
 * - Failure: `RefreshTokenError` (`INVALID_GRANT`, `REFRESH_FAILED`, ...), logged; the stored tokens
 *   are unchanged and the user stays signed in to the app.
 */
import type { AdapterAccount } from "./adapters.js"
import { InvalidProvider, MissingAdapterMethods, RefreshTokenError, SessionRequired } from "./errors.js"
import type { Context } from "./http/types.js"
import { refreshTokens } from "./flows/oauth/refresh.js"
import type { OAuthConfig } from "./providers/types.js"
import { serverCall } from "./server-call.js"
import { sessionStrategy } from "./sessions/strategy.js"
import type { AuthConfig } from "./types.js"

/** A provider access token as `getAccessToken` gives it. */
export interface ProviderAccessToken {
  accessToken: string
  /** Seconds since the epoch, when the provider said; else undefined (taken as not expiring). */
  expiresAt: number | undefined
  tokenType: string | undefined
  scope: string | undefined
}

/** Options of `getAccessToken`. */
export interface GetAccessTokenOptions {
  /** Refresh when the token expires within this many seconds. Default 60. */
  minValidity?: number
}

const NEEDED = ["listAccountsByUserId", "updateAccount"] as const

/** Refreshes in flight in this process, by account: concurrent callers share one. */
const inFlight = new Map<string, Promise<AdapterAccount>>()

function tokenOf(account: AdapterAccount): ProviderAccessToken {
  return { accessToken: account.access_token!, expiresAt: account.expires_at, tokenType: account.token_type, scope: account.scope }
}

function fresh(account: AdapterAccount, minValidity: number): boolean {
  if (!account.access_token) return false
  return account.expires_at === undefined || account.expires_at - Date.now() / 1000 > minValidity
}

async function accountOf(ctx: Context, userId: string, providerId: string): Promise<AdapterAccount> {
  const accounts = await ctx.config.adapter!.listAccountsByUserId!(userId)
  const account = accounts.find((a) => a.provider === providerId)
  if (!account) throw new RefreshTokenError(`The signed-in user has no "${providerId}" account`, { code: "ACCOUNT_NOT_LINKED", cause: { provider: providerId } })
  return account
}

/** One refresh of `account`, written back with a compare-and-swap; the stored account afterwards. */
async function refreshAndStore(ctx: Context, provider: OAuthConfig, account: AdapterAccount): Promise<AdapterAccount> {
  const spent = account.refresh_token!
  const next = await refreshTokens(provider, spent)
  const key = { provider: account.provider, providerAccountId: account.providerAccountId }
  const stored = await ctx.config.adapter!.updateAccount!({ ...key, ...next }, { refresh_token: spent })
  if (stored) return stored
  // Another instance stored its refresh first: its tokens are the current ones.
  const current = await ctx.config.adapter!.getAccount!(account.providerAccountId, account.provider)
  if (current?.access_token) return current
  throw new RefreshTokenError(`The "${provider.id}" account changed while its token was refreshed`, { code: "REFRESH_FAILED", cause: { provider: provider.id } })
}

async function accessToken(ctx: Context, userId: string, provider: OAuthConfig, minValidity: number): Promise<ProviderAccessToken> {
  const account = await accountOf(ctx, userId, provider.id)
  if (fresh(account, minValidity)) return tokenOf(account)
  if (!account.refresh_token)
    throw new RefreshTokenError(`The "${provider.id}" access token has expired and there is no refresh token`, { code: "REFRESH_TOKEN_MISSING", cause: { provider: provider.id } })
  const key = `${account.provider}\u0000${account.providerAccountId}`
  let pending = inFlight.get(key)
  if (!pending) {
    pending = refreshAndStore(ctx, provider, account).finally(() => inFlight.delete(key))
    inFlight.set(key, pending)
  }
  return tokenOf(await pending)
}

/**
 * A valid access token of the signed-in user for OAuth/OIDC provider `providerId`, refreshed when it
 * expires within `minValidity` seconds. See the module comment; the core README's "Calling provider
 * APIs" has an example.
 *
 * @throws SessionRequired when the request carries no valid session.
 * @throws RefreshTokenError `ACCOUNT_NOT_LINKED`, `REFRESH_TOKEN_MISSING`, `INVALID_GRANT`, `REFRESH_FAILED`.
 * @throws MissingAdapterMethods without an adapter that has `listAccountsByUserId`, `updateAccount` and `getAccount`.
 */
export function getAccessToken(request: Request, config: AuthConfig, providerId: string, options: GetAccessTokenOptions = {}): Promise<ProviderAccessToken> {
  return serverCall(request, config, "session", async (req, ctx) => {
    const provider = ctx.config.providerById.get(providerId)
    if (!provider || (provider.type !== "oauth" && provider.type !== "oidc"))
      throw new InvalidProvider(`"${providerId}" is not an OAuth or OIDC provider of this configuration`, { code: "UNKNOWN_PROVIDER", cause: { provider: providerId } })
    const adapter = ctx.config.adapter
    const missing = [...NEEDED, "getAccount" as const].filter((m) => typeof adapter?.[m] !== "function")
    if (missing.length) throw new MissingAdapterMethods(`getAccessToken needs an adapter with ${missing.join(", ")}`, { code: "ADAPTER_METHODS_MISSING", cause: { missing } })
    const userId = await sessionStrategy(ctx.config).currentUserId(req, ctx)
    if (userId === undefined) throw new SessionRequired("Sign in to use a provider's access token", { code: "SESSION_MISSING" })
    const minValidity = options.minValidity ?? 60
    return accessToken(ctx, userId, provider as OAuthConfig, minValidity)
  })
}
