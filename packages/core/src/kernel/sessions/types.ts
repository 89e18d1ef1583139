/**
 * The session-strategy interface and the values that cross it. Implemented by `jwt-strategy.ts`
 * and `database-strategy.ts`; chosen by `strategy.ts`.
 */
import type { JWT } from "@authlib/jwt"
import type { AdapterAccount, AdapterSession, AdapterUser, VerificationToken } from "../types/adapters.js"
import type { Cookie } from "../cookies/serialize.js"
import type { AuthRequest, AuthResponse, Context } from "../types/http.js"
import type { Session, StoredProviderTokens } from "../types/model.js"
import type { Authentication, NewSession } from "../types/sign-in.js"
import type { Principal } from "../types/principal.js"

export type { Authentication, NewSession } from "../types/sign-in.js"
export type { Principal } from "../types/principal.js"
export type { StoredProviderTokens } from "../types/model.js"

/**
 * An e-mail link used through `issueForLink`: the token and the e-mail account's owner, as
 * `useVerificationTokenForAccount` answers them, and the session when it was stored with them.
 */
export interface LinkUse {
  token: VerificationToken
  owner: AdapterUser | null
  /** The owner's new session and the cookies to set; absent when none was stored (core goes on as after `useVerificationTokenForAccount`). */
  issued?: { user: AdapterUser; cookies: Cookie[] }
}

/** Data of a session update (POST /session), or undefined for a read. */
export interface SessionUpdate {
  data: unknown
}

/** What the `signOut` event receives. */
export type SignOutMessage = { session: AdapterSession | null | undefined | void } | { token: JWT | null }

/**
 * Provider tokens kept in the session itself (JWT strategy with `session.providerTokens`). A
 * strategy whose sessions keep none (database: the accounts keep them) has a store that says so.
 */
export interface ProviderTokenStore {
  /** Whether this strategy's sessions keep provider tokens (with `session.providerTokens` on). */
  readonly kept: boolean
  /** The request's session subject and its providers' tokens, or null without a valid session. */
  read(req: AuthRequest, ctx: Context): Promise<{ sub: string; tokens: Readonly<Record<string, StoredProviderTokens>> } | null>
  /** The session re-issued with `tokens` for `providerId`: the cookies to set. */
  write(req: AuthRequest, ctx: Context, providerId: string, tokens: StoredProviderTokens): Promise<Cookie[]>
}

/** What ending sessions did: how many stored sessions ended (`null` when not counted: JWT), and cookies to set. */
export interface Revocation {
  revoked: number | null
  cookies: Cookie[]
}

export interface SessionStrategy {
  /**
   * Where the session keeps provider tokens itself (JWT strategy with `session.providerTokens`);
   * a strategy whose sessions keep none (database: the accounts keep them) says `kept: false`.
   */
  readonly providerTokens: ProviderTokenStore
  /** Whether sessions are stored one by one (and so can be listed and ended one by one). */
  readonly storesSessions: boolean
  /** Whether a session points at a stored user (so even credentials users are stored). */
  readonly needsStoredUser: boolean
  /** Adapter methods the strategy needs; start-up refuses a configuration without them. */
  readonly adapterMethods: readonly string[]
  /** Starts a session for a sign-in; only `issueSession` calls this. Resolves the cookies to set. */
  issue(req: AuthRequest, ctx: Context, signIn: NewSession): Promise<Cookie[]>
  /**
   * In place of storing the user then `issue`: a session for the user who owns `account`
   * in one adapter call, where the strategy and the adapter can (database sessions and an adapter
   * with `createSessionForAccount`). `null` when they cannot (JWT sessions, an adapter without the method) or no user owns the account: then
   * `issueSession` takes the usual path. Only `issueSession` calls this.
   */
  issueForAccount(req: AuthRequest, ctx: Context, account: Pick<AdapterAccount, "provider" | "providerAccountId">, authentication: Authentication): Promise<{ user: AdapterUser; cookies: Cookie[] } | null>
  /**
   * In place of using an e-mail link, storing the user then `issue`: the link (`token` already
   * hashed) used and, for an owner who needs no write (verified, address unchanged), the session
   * stored in the same adapter call (database sessions and an adapter with
   * `useVerificationTokenAndCreateSession`). `undefined` when they cannot: the caller uses the link
   * the usual way. `null` when this caller did not receive the token. Only the e-mail flow calls
   * this, and only when nothing must see the user first (`mayIssueWithFirstFactor`).
   */
  issueForLink(
    req: AuthRequest,
    ctx: Context,
    link: { identifier: string; token: string },
    account: Pick<AdapterAccount, "provider" | "providerAccountId">,
    authentication: Authentication,
  ): Promise<LinkUse | null | undefined>
  /**
   * In place of `updateAuthenticatorCounter`, reading the user, then `issue`: the passkey's counter
   * set and the session stored for its owner in one adapter call (database sessions and an adapter
   * with `updateAuthenticatorCounterAndCreateSession`). `undefined` when they cannot: the caller
   * takes the usual path. `null` when no authenticator has the id any more (nothing written). Only
   * the passkey flow calls this, and only when nothing must see the user first (`mayIssueWithFirstFactor`).
   */
  issueForAuthenticator(
    req: AuthRequest,
    ctx: Context,
    passkey: { credentialID: string; counter: number },
    authentication: Authentication,
  ): Promise<{ user: AdapterUser; cookies: Cookie[] } | null | undefined>
  /** The request's session as the `session` callback shapes it (or `null`), with cookie changes. */
  read(req: AuthRequest, ctx: Context, update?: SessionUpdate): Promise<AuthResponse<Session | null>>
  /** Ends the request's session (sign-out); never throws for an adapter failure. */
  end(req: AuthRequest, ctx: Context): Promise<SignOutMessage>
  /**
   * The request's principal with every check (expiry, revocation epoch, user still present), whatever
   * `checkRevocation` says for reads; `null` without one. Call it through `principalOf` (memoised per request).
   */
  principal(req: AuthRequest, ctx: Context): Promise<Principal | null>
  /**
   * Ends every session of the request's user but its own (its own is re-issued when it must be).
   * Rejects with `SessionRequired` without a valid session, `SessionManagementError`
   * (`REVOCATION_UNAVAILABLE`) when the strategy cannot end sessions with this adapter.
   */
  revokeOthers(req: AuthRequest, ctx: Context): Promise<Revocation>
  /**
   * Step-up: the request's session replaced by one of the same user that records `authentication`
   * (JWT: a new token; database: a new stored session, the old one deleted, so the token changes
   * with the privilege, ASVS 5.0 7.2.4). Resolves the cookies to set; rejects with
   * `SessionRequired` without a session that may act.
   */
  reauthenticate(req: AuthRequest, ctx: Context, authentication: Authentication): Promise<Cookie[]>
  /** Ends every session of the request's user, its own included (its cookie cleared). Rejects as `revokeOthers`. */
  revokeAll(req: AuthRequest, ctx: Context): Promise<Revocation>
  /**
   * Marks the request's session: a provider refused the user's refresh token, so the session reads
   * `error: "RefreshTokenError"` from now on. Resolves the cookies to set (a re-issued JWT). Never
   * throws for an adapter that cannot keep the mark (it logs).
   */
  markRefreshError(req: AuthRequest, ctx: Context): Promise<Cookie[]>
}
