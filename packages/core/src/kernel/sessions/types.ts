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
 * An e-mail link used through the `link` issuance: the token and the e-mail account's owner, as
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
 * What a strategy is, for the code that must know: start-up checks, the features that need stored
 * sessions or stored users. Facts only; every behaviour goes through the seam's functions.
 */
export interface SessionTraits {
  /** Whether sessions are stored one by one (and so can be listed and ended one by one). */
  readonly storesSessions: boolean
  /** Whether a session points at a stored user (so even credentials users are stored). */
  readonly needsStoredUser: boolean
  /** Adapter methods the strategy needs; start-up refuses a configuration without them. */
  readonly adapterMethods: readonly string[]
  /** Whether sessions can keep provider tokens themselves (with `session.providerTokens`); database sessions never do: the accounts keep them. */
  readonly keepsProviderTokens: boolean
}

type AccountKey = Pick<AdapterAccount, "provider" | "providerAccountId">

/**
 * What a new session is issued for. `sign-in`: the issuer's usual path (the user stored, the `jwt`
 * callback run). The other two store the session in the adapter call that finds its user, where
 * the strategy and the adapter can (database sessions; benchmarked hot paths):
 * - `account`: the owner of `account` found and the session stored at once
 *   (`createSessionForAccount`); answers `null` when they cannot (JWT, an adapter without the
 *   method) or no user owns the account: the usual path follows.
 * - `link`: an e-mail link (`token` already hashed) used and, for an owner who needs no write
 *   (verified, address unchanged), the session stored in the same call
 *   (`useVerificationTokenAndCreateSession`); answers `undefined` when they cannot (the link is
 *   used the usual way) and `null` when this caller did not receive the token.
 */
export type Issuance =
  | { readonly kind: "sign-in"; readonly session: NewSession }
  | { readonly kind: "account"; readonly account: AccountKey; readonly authentication: Authentication }
  | { readonly kind: "link"; readonly link: { identifier: string; token: string }; readonly account: AccountKey; readonly authentication: Authentication }
  | { readonly kind: "authenticator"; readonly passkey: { readonly credentialID: string; readonly counter: number }; readonly authentication: Authentication }

/** What each kind of issuance answers. */
export interface Issued {
  "sign-in": Cookie[]
  account: { user: AdapterUser; cookies: Cookie[] } | null
  link: LinkUse | null | undefined
  authenticator: { user: AdapterUser; cookies: Cookie[] } | null | undefined
}

/**
 * A change to the request's session, which `replace` makes by issuing its successor (same user,
 * same start: never a longer absolute lifetime). Each field is one feature's hook on the seam.
 */
export interface SessionChange {
  /**
   * Step-up: the successor records `authentication`, and its token changes with the privilege
   * (JWT: a new token; database: a new stored session, the old one deleted; ASVS 5.0 7.2.4).
   */
  readonly authentication?: Authentication
  /** Tokens of one provider kept in the session (`session.providerTokens`); a strategy that keeps none ignores them. */
  readonly providerTokens?: { readonly providerId: string; readonly tokens: StoredProviderTokens }
  /** A provider refused the user's refresh token: the session reads `error: "RefreshTokenError"` from now on (database: marked in place, where the adapter keeps session metadata). */
  readonly error?: "RefreshTokenError"
  /**
   * Revocation by epoch: run once the session was checked against its user's epoch (`current`,
   * `null` for a user the adapter keeps none for), it moves the epoch on and returns the new one,
   * under which the successor goes on. Only strategies that end sessions by epoch ask it (JWT);
   * stored sessions are deleted instead, and need no successor.
   */
  readonly epoch?: (userId: string, current: number | null) => Promise<number | null>
}

/** What ending sessions did: how many stored sessions ended (`null` when not counted: JWT), and cookies to set. */
export interface Revocation {
  revoked: number | null
  cookies: Cookie[]
}

/**
 * The session seam: issue / read / end / principal / replace, and the strategy's traits. `issue` and
 * `replace` are called by the one issuer only (`issuer.ts`; a call-graph test keeps it so).
 */
export interface SessionStrategy {
  readonly traits: SessionTraits
  /** Starts a session (see {@link Issuance}); answers the cookies to set, or what the fast path found. */
  issue<I extends Issuance>(req: AuthRequest, ctx: Context, issuance: I): Promise<Issued[I["kind"]]>
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
   * The request's session replaced by its successor with `change` (see {@link SessionChange}): the
   * cookies to set, or `null` when the request carries no session that may act.
   */
  replace(req: AuthRequest, ctx: Context, change: SessionChange): Promise<Cookie[] | null>
}
