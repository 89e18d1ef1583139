/**
 * `getAccessToken(request, config, providerId)`: a valid access token of the signed-in user for a
 * provider, refreshed first when it expires within `minValidity` seconds (default 60), for server
 * code that calls the provider's API. The token never goes to the browser unless the app puts it
 * there.
 *
 * - Tokens live on the user's account row (an adapter with `listAccountsByUserId` and
 *   `updateAccount`), in either session strategy.
 * - Single flight: concurrent calls for one account in this process share one refresh.
 * - Across instances: one refresh at the provider. The instance that refreshes first claims a lease
 *   in the account's `refresh_token` column with a compare-and-swap (`updateAccount(..., { refresh_token })`),
 *   calls the provider, and stores the new tokens in place of the lease (another compare-and-swap);
 *   the others see the lease and wait for those tokens. A lease whose holder died is taken over once
 *   it runs out (25 s).
 * - Failure: `RefreshTokenError` (`INVALID_GRANT`, `REFRESH_FAILED`, ...), logged; the stored tokens
 *   are unchanged. A refused refresh token (`INVALID_GRANT`) emits `refreshTokenError` and marks the
 *   session (`session.error`), or ends it with `onInvalidGrant: "sign-out"`; network failures
 *   leave the user signed in.
 */
import type { AdapterAccount } from "../../kernel/types/adapters.js"
import { InvalidProvider, RefreshTokenError, SessionRequired } from "../../kernel/errors/errors.js"
import { optionalPort, port } from "../../kernel/ports/ports.js"
import type { Context } from "../../kernel/types/http.js"
import { REFRESH_TIMEOUT_MS, refreshTokens } from "./refresh.js"
// Re-exported so the port's declaration (`accountTokens` in `ADAPTER_PORTS`) is part of every
// program that loads this module's types, as an application does through `getAccessToken`.
export { ACCOUNT_TOKENS_PORT } from "./port.js"
import type { OAuthConfig } from "../../kernel/types/providers.js"
import { serverCall } from "../../kernel/run/server-call.js"
import { emitEvent } from "../../kernel/user-code/events.js"
import { sessionStrategy } from "../../kernel/sessions/strategy.js"
import { requirePrincipal } from "../../kernel/sessions/principal.js"
import type { AuthConfig } from "../../kernel/types/config.js"
import { serializeCookie, type Cookie } from "../../kernel/cookies/serialize.js"
import type { AuthRequest } from "../../kernel/types/http.js"
import { clearSessionCookie } from "../../kernel/sessions/session-cookie.js"
import type { ProviderTokenStore, StoredProviderTokens } from "../../kernel/sessions/types.js"

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
  /**
   * When the provider refuses the refresh token (`RefreshTokenError` / `INVALID_GRANT`): `"mark"`
   * (default) keeps the user signed in to the app and marks the session (`session.error =
   * "RefreshTokenError"`); `"sign-out"` ends the session (the `signOut` event runs, the cookie is
   * cleared through the error's `setCookie`). Network failures never sign anyone out.
   */
  onInvalidGrant?: "mark" | "sign-out"
}

/** Provider tokens on account rows (checked when `getAccessToken` is called, see `accessTokenResult`). */
const PURPOSE = { what: "getAccessToken", otherwise: "or JWT sessions with session.providerTokens" }
const accounts = (ctx: Context) => port(ctx.config, "accountTokens", PURPOSE)

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
  const account = (await accounts(ctx).listAccountsByUserId(userId)).find((a) => a.provider === providerId)
  if (!account) throw new RefreshTokenError(`The signed-in user has no "${providerId}" account`, { code: "ACCOUNT_NOT_LINKED", cause: { provider: providerId } })
  return account
}

/**
 * The refresh lease: while one instance refreshes an account, its `refresh_token` column holds
 * `<prefix><until ms>:<nonce>:<the refresh token>`, claimed with a compare-and-swap. Other instances
 * see the lease and wait for the new tokens instead of calling the provider; a lease past its time
 * (its holder died) is taken over with a compare-and-swap on the lease itself, the refresh token
 * inside it still usable.
 */
const LEASE_PREFIX = "authlib-refresh-lease:"
/** Two full refresh attempts, and a margin. */
const LEASE_MS = 2 * REFRESH_TIMEOUT_MS + 5_000
/** How often a waiting instance looks for the new tokens. */
const POLL_MS = 50

function parseLease(value: string | undefined): { until: number; token: string } | undefined {
  if (!value?.startsWith(LEASE_PREFIX)) return undefined
  const [until, , ...token] = value.slice(LEASE_PREFIX.length).split(":")
  return { until: Number(until), token: token.join(":") }
}

const keyOf = (account: AdapterAccount) => ({ provider: account.provider, providerAccountId: account.providerAccountId })

/** Waits until the lease on the account is gone (or past its time): the account as it is then. */
async function awaitLease(ctx: Context, account: AdapterAccount): Promise<AdapterAccount> {
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS))
    const current = await accounts(ctx).getAccount(account.providerAccountId, account.provider)
    if (!current) throw new RefreshTokenError(`The "${account.provider}" account was unlinked during a refresh`, { code: "ACCOUNT_NOT_LINKED", cause: { provider: account.provider } })
    const lease = parseLease(current.refresh_token)
    if (!lease || lease.until <= Date.now()) return current
  }
}

/**
 * One refresh of `account` across every instance sharing the adapter: claim the lease, call the
 * provider, store the new tokens in place of the lease; or, when another instance holds the lease,
 * wait for its tokens. Resolves the stored account afterwards.
 */
async function refreshAndStore(ctx: Context, provider: OAuthConfig, account: AdapterAccount, minValidity: number): Promise<AdapterAccount> {
  const adapter = accounts(ctx)
  // Tokens another instance stored meanwhile are taken as they are, even when they too expire
  // within `minValidity` (a provider's lifetime can be shorter): refreshing them again would only
  // spend the provider's next refresh token.
  const renewed = (a: AdapterAccount) => (a.access_token !== undefined && a.access_token !== account.access_token) || fresh(a, minValidity)
  let current = account
  for (;;) {
    const held = parseLease(current.refresh_token)
    if (held && held.until > Date.now()) {
      current = await awaitLease(ctx, current)
      if (renewed(current)) return current
      continue
    }
    const original = held ? held.token : current.refresh_token!
    const lease = `${LEASE_PREFIX}${Date.now() + LEASE_MS}:${crypto.randomUUID()}:${original}`
    const claimed = await adapter.updateAccount({ ...keyOf(current), refresh_token: lease }, { refresh_token: current.refresh_token ?? null })
    if (!claimed) {
      // Another instance claimed it (or stored new tokens) first: look again.
      const again = await adapter.getAccount(current.providerAccountId, current.provider)
      if (!again) throw new RefreshTokenError(`The "${provider.id}" account was unlinked during a refresh`, { code: "ACCOUNT_NOT_LINKED", cause: { provider: provider.id } })
      if (renewed(again) && !parseLease(again.refresh_token)) return again
      current = again
      continue
    }
    let next: Awaited<ReturnType<typeof refreshTokens>>
    try {
      next = await refreshTokens(provider, original)
    } catch (err) {
      // Give the refresh token back (spent or not, it is the provider's to judge next time).
      await Promise.resolve(adapter.updateAccount({ ...keyOf(current), refresh_token: original }, { refresh_token: lease })).catch(() => null)
      throw err
    }
    const stored = await adapter.updateAccount({ ...keyOf(current), ...next }, { refresh_token: lease })
    if (stored) return stored
    // The lease ran out and another instance took over: its tokens are the current ones.
    const after = await adapter.getAccount(current.providerAccountId, current.provider)
    if (after?.access_token && !parseLease(after.refresh_token)) return after
    throw new RefreshTokenError(`The "${provider.id}" account changed while its token was refreshed`, { code: "REFRESH_FAILED", cause: { provider: provider.id } })
  }
}

async function accessToken(ctx: Context, userId: string, provider: OAuthConfig, minValidity: number): Promise<ProviderAccessToken> {
  const account = await accountOf(ctx, userId, provider.id)
  if (fresh(account, minValidity)) return tokenOf(account)
  if (!account.refresh_token)
    throw new RefreshTokenError(`The "${provider.id}" access token has expired and there is no refresh token`, { code: "REFRESH_TOKEN_MISSING", cause: { provider: provider.id } })
  const key = `${account.provider}\u0000${account.providerAccountId}`
  let pending = inFlight.get(key)
  if (!pending) {
    pending = refreshAndStore(ctx, provider, account, minValidity).finally(() => inFlight.delete(key))
    inFlight.set(key, pending)
  }
  return tokenOf(await pending)
}

/** The re-issued session cookies of a refused refresh (JWT sessions), for bindings that set cookies as objects. */
const markedSessions = new WeakMap<RefreshTokenError, Cookie[]>()

/**
 * A refused refresh token (`INVALID_GRANT`): the `refreshTokenError` event, then the session marked
 * (`mark`) or ended (`sign-out`); the cookies that takes ride on the error (`setCookie`). `mark`
 * is how the session learns it: the token store's own mark for tokens kept in a JWT, else the
 * strategy's. Other errors pass through untouched.
 */
async function onRefused(req: AuthRequest, ctx: Context, providerId: string, userId: string, err: unknown, options: GetAccessTokenOptions, mark: () => Promise<Cookie[]>): Promise<unknown> {
  if (!(err instanceof RefreshTokenError) || err.code !== "INVALID_GRANT") return err
  await emitEvent(ctx, "refreshTokenError", { provider: providerId, userId, error: err })
  let cookies: Cookie[]
  if (options.onInvalidGrant === "sign-out") {
    const strategy = sessionStrategy(ctx.config)
    await emitEvent(ctx, "signOut", await strategy.end(req, ctx))
    cookies = clearSessionCookie(req, ctx)
  } else {
    cookies = await mark()
  }
  err.setCookie = cookies.map(serializeCookie)
  markedSessions.set(err, cookies)
  return err
}

/** The session cookies `err` asks to set (see `RefreshTokenError.setCookie`), as objects. */
export function refreshErrorCookies(err: unknown): Cookie[] {
  return err instanceof RefreshTokenError ? (markedSessions.get(err) ?? []) : []
}

/** Refreshes in flight in this process for tokens kept in sessions, by subject and provider. */
const inFlightSession = new Map<string, Promise<StoredProviderTokens>>()

/**
 * The token path (`session.providerTokens`, no adapter accounts): the token from the session, or a
 * refresh whose result is written into a re-issued session cookie. One refresh per subject and
 * provider in a process; across instances not coordinated (see the README).
 */
async function sessionAccessToken(req: AuthRequest, ctx: Context, store: ProviderTokenStore, provider: OAuthConfig, options: GetAccessTokenOptions): Promise<AccessTokenResult> {
  const minValidity = options.minValidity ?? 60
  const found = await store.read(req, ctx)
  if (!found) throw new SessionRequired("Sign in to use a provider's access token", { code: "SESSION_MISSING" })
  const tokens = found.tokens[provider.id]
  if (!tokens?.access_token) throw new RefreshTokenError(`The session holds no "${provider.id}" tokens`, { code: "ACCOUNT_NOT_LINKED", cause: { provider: provider.id } })
  const as = { ...tokens, provider: provider.id, providerAccountId: found.sub, type: provider.type, userId: found.sub } as AdapterAccount
  if (fresh(as, minValidity)) return { token: tokenOf(as), cookies: [] }
  if (!tokens.refresh_token)
    throw new RefreshTokenError(`The "${provider.id}" access token has expired and there is no refresh token`, { code: "REFRESH_TOKEN_MISSING", cause: { provider: provider.id } })
  const key = `${found.sub}\u0000${provider.id}`
  let pending = inFlightSession.get(key)
  if (!pending) {
    pending = refreshTokens(provider, tokens.refresh_token).finally(() => inFlightSession.delete(key))
    inFlightSession.set(key, pending)
  }
  let next: StoredProviderTokens
  try {
    next = await pending
  } catch (err) {
    // The session says so from now on (`session.error`): the kept tokens carry the mark.
    throw await onRefused(req, ctx, provider.id, found.sub, err, options, () => store.write(req, ctx, provider.id, { ...tokens, error: "RefreshTokenError" }))
  }
  const stored: StoredProviderTokens = {}
  for (const field of ["access_token", "refresh_token", "expires_at", "token_type", "scope"] as const) if (next[field] !== undefined) (stored as Record<string, unknown>)[field] = next[field]
  const cookies = await store.write(req, ctx, provider.id, stored)
  return { token: tokenOf({ ...as, ...stored } as AdapterAccount), cookies }
}

/** The token and the cookies the response must carry (a session re-issued after a refresh). */
export interface AccessTokenResult {
  token: ProviderAccessToken
  cookies: Cookie[]
}

/** `getAccessToken`'s work, with the cookies as objects (for bindings that set them themselves). */
export function accessTokenResult(request: Request, config: AuthConfig, providerId: string, options: GetAccessTokenOptions = {}): Promise<AccessTokenResult> {
  return serverCall(request, config, "session", async (req, ctx) => {
    const provider = ctx.config.providerById.get(providerId)
    if (!provider || (provider.type !== "oauth" && provider.type !== "oidc"))
      throw new InvalidProvider(`"${providerId}" is not an OAuth or OIDC provider of this configuration`, { code: "UNKNOWN_PROVIDER", cause: { provider: providerId } })
    const minValidity = options.minValidity ?? 60
    const strategy = sessionStrategy(ctx.config)
    if (!optionalPort(ctx.config, "accountTokens") && ctx.config.session.providerTokens && strategy.providerTokens.kept)
      return sessionAccessToken(req, ctx, strategy.providerTokens, provider as OAuthConfig, options)
    accounts(ctx) // refused here (MissingAdapterMethods) before the session is read
    const { userId } = await requirePrincipal(req, ctx, "Sign in to use a provider's access token")
    try {
      return { token: await accessToken(ctx, userId, provider as OAuthConfig, minValidity), cookies: [] }
    } catch (err) {
      throw await onRefused(req, ctx, providerId, userId, err, options, () => strategy.markRefreshError(req, ctx))
    }
  })
}

/**
 * A valid access token of the signed-in user for OAuth/OIDC provider `providerId`, refreshed when it
 * expires within `minValidity` seconds. See the module comment; the core README's "Calling provider
 * APIs" has an example. `setCookie`: `Set-Cookie` values the response must carry (the session
 * re-issued after a refresh of tokens kept in it, `session.providerTokens`); empty otherwise.
 *
 * @throws SessionRequired when the request carries no valid session.
 * @throws RefreshTokenError `ACCOUNT_NOT_LINKED`, `REFRESH_TOKEN_MISSING`, `INVALID_GRANT`, `REFRESH_FAILED`.
 * @throws MissingAdapterMethods without an adapter that has `listAccountsByUserId`, `updateAccount` and
 * `getAccount`, unless JWT sessions keep provider tokens (`session.providerTokens`).
 */
export async function getAccessToken(request: Request, config: AuthConfig, providerId: string, options: GetAccessTokenOptions = {}): Promise<ProviderAccessToken & { setCookie: string[] }> {
  const { token, cookies } = await accessTokenResult(request, config, providerId, options)
  return { ...token, setCookie: cookies.map(serializeCookie) }
}
