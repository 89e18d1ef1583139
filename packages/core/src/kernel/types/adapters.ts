/**
 * The database adapter contract. Method names and signatures are those of Auth.js v5, so an Auth.js
 * adapter works with authlib and an authlib adapter works with Auth.js. Every method is optional;
 * authlib checks at start-up that the methods a configuration needs are present.
 *
 * Race rules every adapter must keep (the conformance suite in `@authlib/adapter-test` checks them):
 * - `useVerificationToken`: under concurrent calls for one token, exactly one caller receives it;
 *   the others receive `null`. The returned record carries the stored `expires`.
 * - `extendSession` (optional): under concurrent calls for one due session, exactly one caller
 *   extends it; the others receive `null`.
 * - `updateAccount` (optional) with `expected`: under concurrent calls with the same expected
 *   refresh token, exactly one caller receives the updated account; the others receive `null`.
 * - `deleteUser` removes the user's sessions, accounts and authenticators with it.
 * - `deleteAuthenticator` (optional): under concurrent calls for one credential, exactly one caller
 *   receives the deleted authenticator; the others receive `null`.
 * - A capability's port (declared in its folder) states its own race rules; `deleteUser` removes
 *   the user's records of every port the adapter implements.
 * - Multi-record writes are atomic: a failure leaves no half-written record.
 * - Unknown ids return `null` (or `undefined` from deletes), they do not throw.
 *
 * Session tokens reach the adapter already hashed by core (SHA-256, base64url): store them as given.
 */
import type { Awaitable } from "@authlib/jwt"
import type { Account, User } from "./model.js"

/**
 * A user as stored by an adapter. `email` is `null` for a user whose provider gave no address
 * (an OAuth account with a private or absent e-mail): adapters store such users with a `NULL`
 * (unique-when-present) e-mail column. Auth.js types it `string` but stores `null` all the same.
 */
export interface AdapterUser extends User {
  id: string
  email: string | null
  emailVerified: Date | null
}

/** The type of an account stored by an adapter. */
export type AdapterAccountType = "oauth" | "oidc" | "email" | "webauthn" | "credentials"

/** An account as stored by an adapter. */
export interface AdapterAccount extends Account {
  userId: string
  type: AdapterAccountType
}

/**
 * A database session as stored by an adapter. `sessionToken` is the hash of the cookie's token.
 *
 * The first three fields are Auth.js's. The four optional ones are authlib's session metadata
 * (what `listSessions` shows, and the mark of a refused provider refresh token). Core sends them to
 * `createSession` and `updateSession` only when the adapter has `listSessionsByUserId` (an
 * authlib-only method): an Auth.js adapter may refuse keys it does not know. An adapter with
 * `listSessionsByUserId` stores them and returns those that are set from `getSessionAndUser` and
 * `listSessionsByUserId`; one that stores none still works (the list then shows them as unknown).
 */
export interface AdapterSession {
  sessionToken: string
  userId: string
  expires: Date
  /** When the session was started. */
  createdAt?: Date | null
  /** A display-safe client name such as "Firefox on Linux" (from a fixed vocabulary, never the raw header). */
  clientDescription?: string | null
  /** The client's network: "203.0.113.0/24" or "2001:db8:1:2::/64". */
  clientNetwork?: string | null
  /** Set to "RefreshTokenError" when a provider refused the user's refresh token; shown as `session.error`. */
  error?: string | null
  /** When the user last authenticated for this session, in seconds since the epoch (step-up asks how recent). */
  authTime?: number | null
  /** How: RFC 8176 method values such as `["pwd", "otp", "mfa"]`, stored and returned as given (order kept). */
  amr?: string[] | null
}

/** The optional metadata fields of `AdapterSession`. */
export type SessionMetadata = Pick<AdapterSession, "createdAt" | "clientDescription" | "clientNetwork" | "error" | "authTime" | "amr">

/** A one-time token of e-mail sign-in. `token` is stored hashed by core. */
export interface VerificationToken {
  identifier: string
  expires: Date
  token: string
}

/**
 * A WebAuthn credential (passkey) as stored by an adapter. The first eight fields are Auth.js's;
 * `name`, `createdAt` and `lastUsedAt` are authlib's optional additions for managing passkeys, and
 * a row without them (every Auth.js adapter) keeps working: the passkey list shows them as `null`.
 *
 * Core never sends the three additions to `createAuthenticator` or `updateAuthenticatorCounter`
 * (an Auth.js adapter may refuse keys it does not know), so an adapter that stores them writes
 * them itself, with no extra write per sign-in:
 * - `createAuthenticator` stamps `createdAt` (now) when the record has none;
 * - `updateAuthenticatorCounter`, which core calls exactly once per passkey sign-in, also stamps
 *   `lastUsedAt` (now) in the same write;
 * - `updateAuthenticator` sets `name`.
 */
export interface AdapterAuthenticator {
  credentialID: string
  userId: string
  providerAccountId: string
  counter: number
  credentialBackedUp: boolean
  credentialPublicKey: string
  credentialDeviceType: string
  transports?: string | null
  /** The name its owner gave the passkey (`updateAuthenticator`); `null` or absent until then. */
  name?: string | null
  /** When the passkey was registered: stamped by `createAuthenticator`; `null` or absent when unknown. */
  createdAt?: Date | null
  /** When the passkey last signed someone in: stamped by `updateAuthenticatorCounter`. */
  lastUsedAt?: Date | null
}

/**
 * The adapter ports capabilities add, by declaration merging (port name -> its method names): a
 * capability augments this interface, `Adapter` with the methods, and declares the port's method
 * list (`Capability.ports`). Kernel ports are `PORTS` in `ports/ports.ts`.
 */
export interface CapabilityPorts {}

export interface Adapter {
  createUser?(user: AdapterUser): Awaitable<AdapterUser>
  getUser?(id: string): Awaitable<AdapterUser | null>
  getUserByEmail?(email: string): Awaitable<AdapterUser | null>
  getUserByAccount?(
    providerAccountId: Pick<AdapterAccount, "provider" | "providerAccountId">,
  ): Awaitable<AdapterUser | null>
  updateUser?(user: Partial<AdapterUser> & Pick<AdapterUser, "id">): Awaitable<AdapterUser>
  /** Deletes the user and everything that belongs to them. */
  deleteUser?(userId: string): Promise<void> | Awaitable<AdapterUser | null | undefined>
  linkAccount?(account: AdapterAccount): Promise<void> | Awaitable<AdapterAccount | null | undefined>
  unlinkAccount?(
    providerAccountId: Pick<AdapterAccount, "provider" | "providerAccountId">,
  ): Promise<void> | Awaitable<AdapterAccount | undefined>
  createSession?(session: { sessionToken: string; userId: string; expires: Date } & SessionMetadata): Awaitable<AdapterSession>
  getSessionAndUser?(sessionToken: string): Awaitable<{ session: AdapterSession; user: AdapterUser } | null>
  updateSession?(
    session: Partial<AdapterSession> & Pick<AdapterSession, "sessionToken">,
  ): Awaitable<AdapterSession | null | undefined>
  deleteSession?(sessionToken: string): Promise<void> | Awaitable<AdapterSession | null | undefined>
  /**
   * Optional, authlib only (Auth.js never calls it). Sets the session's `expires` to
   * `session.expires` only while the stored `expires` is still earlier than `dueBefore` (the session
   * is still due for its sliding extension), checked and written atomically: one conditional
   * update, such as `UPDATE ... SET expires = $2 WHERE "sessionToken" = $1 AND expires < $3 RETURNING ...`.
   * Returns the updated session when this call extended it; `null` when the session is no longer
   * due (another caller extended it first) or unknown. Under concurrent calls with the same
   * `dueBefore`, exactly one caller receives the session.
   *
   * Core calls it on a read of a database session whose expiry is due to slide, so that concurrent
   * reads write once: the caller that wins re-sends the cookie, the others keep theirs. Without
   * it core falls back to `updateSession`, which writes on every concurrent read.
   */
  extendSession?(session: { sessionToken: string; expires: Date }, dueBefore: Date): Awaitable<AdapterSession | null | undefined>
  /**
   * Optional, authlib only: a new session (with its metadata) for the user who owns the account
   * `provider`/`providerAccountId`, written atomically with that look-up (one statement in SQL),
   * answered with the stored session and its user; `null`, and nothing written, when no user owns
   * the account. Core calls it for a credentials sign-in under database sessions, in place of
   * `getUserByAccount` then `createSession` (one round trip instead of two); on `null` it takes that
   * usual path, which links or creates the user.
   */
  createSessionForAccount?(
    account: Pick<AdapterAccount, "provider" | "providerAccountId">,
    session: { sessionToken: string; expires: Date } & Omit<SessionMetadata, "error">,
  ): Awaitable<{ session: AdapterSession; user: AdapterUser } | null>
  /**
   * Optional, authlib only: every session of the user (expired ones included), in any order; `[]`
   * for an unknown user. Core reads it to list a user's sessions (`listSessions`). An adapter with
   * it keeps every `SessionMetadata` field core writes (`authTime` and `amr` included: step-up reads
   * them back through `getSessionAndUser`).
   */
  listSessionsByUserId?(userId: string): Awaitable<AdapterSession[]>
  /**
   * Optional, authlib only: deletes every session of the user except the one whose (hashed) token
   * is `keepSessionToken`, if given, and answers how many it deleted. Sessions of other users are
   * untouched. One statement. Core calls it to end a user's other sessions, or all of them
   * (`revokeOtherSessions`, `revokeUserSessions`).
   */
  deleteSessionsByUserId?(userId: string, keepSessionToken?: string): Awaitable<number>
  /**
   * Optional, authlib only: the user's session epoch, a counter that starts at 0 (a stored `NULL`
   * reads as 0); `null` for an unknown user. JWT sessions carry the epoch they were issued under
   * and are refused once it is lower than the user's (see `incrementUserSessionEpoch`).
   */
  getUserSessionEpoch?(userId: string): Awaitable<number | null>
  /**
   * Optional, authlib only: adds 1 to the user's session epoch atomically (one statement, such as
   * `UPDATE ... SET "sessionEpoch" = COALESCE("sessionEpoch", 0) + 1 WHERE ... RETURNING ...`) and
   * answers the new value; `null` for an unknown user. Under concurrent calls each caller receives
   * a different value. Core calls it to end every JWT session of a user (`revokeUserSessions`,
   * signing out everywhere, ending the other sessions).
   */
  incrementUserSessionEpoch?(userId: string): Awaitable<number | null>
  createVerificationToken?(verificationToken: VerificationToken): Awaitable<VerificationToken | null | undefined>
  /** Returns the token and deletes it, atomically: under concurrent calls exactly one caller receives it. */
  useVerificationToken?(params: { identifier: string; token: string }): Awaitable<VerificationToken | null>
  /**
   * Optional, authlib only: `useVerificationToken` (the same single-use guarantee) and, read in
   * the same atomic step, the user who owns the account `provider`/`providerAccountId` (`owner`,
   * `null` when nobody does); `null` when this caller did not receive the token. Core's e-mail
   * completion calls it in place of `useVerificationToken` then `getUserByAccount` (one round trip
   * instead of two).
   */
  useVerificationTokenForAccount?(
    params: { identifier: string; token: string },
    account: Pick<AdapterAccount, "provider" | "providerAccountId">,
  ): Awaitable<{ token: VerificationToken; owner: AdapterUser | null } | null>
  /**
   * Optional, authlib only: e-mail link completion for a returning user in one atomic step (one
   * statement in SQL). It uses the token as `useVerificationToken` does (exactly one of concurrent
   * callers receives it) and reads the owner of the account `provider`/`providerAccountId` as
   * `useVerificationTokenForAccount` does; then, only when the token's `expires` is later than the
   * time of the call, the owner's `email` equals `params.identifier` and the owner's
   * `emailVerified` is set, it stores `session` (with its metadata) for the owner. Answers the token,
   * the owner (`null` when nobody owns the account) and the stored session (`null` when it wrote
   * none); `null`, with nothing used or written, when this caller did not receive the token.
   *
   * Core calls it in place of `useVerificationTokenForAccount` then `createSession` (one round trip
   * instead of two) only where nothing must see the user before the session exists: database
   * sessions, no `signIn` callback, and no capability that may hold the sign-in back.
   * When it answers no session (a new address, an unverified user, an address whose `email`
   * account is not linked), core goes on with the token and owner it answered, as after
   * `useVerificationTokenForAccount`: the user is created, verified or linked, then the session stored.
   */
  useVerificationTokenAndCreateSession?(
    params: { identifier: string; token: string },
    account: Pick<AdapterAccount, "provider" | "providerAccountId">,
    session: { sessionToken: string; expires: Date } & Omit<SessionMetadata, "error">,
  ): Awaitable<{ token: VerificationToken; owner: AdapterUser | null; session: AdapterSession | null } | null>
  /**
   * Optional, authlib only: the stored token, read without using it up (`null` when unknown). Core
   * calls it when an e-mail link is opened, so that a used or expired link says so at once instead
   * of after the user confirms; without it the confirm page is shown for every link, as before.
   */
  getVerificationToken?(params: { identifier: string; token: string }): Awaitable<VerificationToken | null>
  /**
   * Optional, authlib only: deletes the verification tokens of `identifier` except the `keep` with
   * the latest `expires` (ties broken by any stable order) and answers how many it deleted. Tokens of
   * other identifiers are untouched; `keep` is at least 1. One statement (such as `DELETE ... WHERE
   * identifier = $1 AND token NOT IN (SELECT ... ORDER BY expires DESC LIMIT $2)`): concurrent calls
   * for one identifier may delete fewer, never one of the `keep` newest.
   *
   * Core calls it after storing a new e-mail sign-in token, so that at most
   * `rateLimit.email.maxLiveTokens` links per address work at any time (the oldest are retired).
   * Without it, the per-address send limits alone bound the live tokens.
   */
  retireVerificationTokens?(identifier: string, keep: number): Awaitable<number>
  getAccount?(providerAccountId: string, provider: string): Awaitable<AdapterAccount | null>
  /**
   * Optional, authlib only: a partial update of the account `provider` + `providerAccountId` name
   * (the token fields: `access_token`, `refresh_token`, `expires_at`, `id_token`, `scope`,
   * `token_type`, `session_state`; a key left out is kept, `null` clears it; the keys, `type` and
   * `userId` never change). Returns the stored account after the update, or `null` when no account
   * matches. With `expected`, the update is a compare-and-swap: it applies only while the stored
   * `refresh_token` equals `expected.refresh_token` (`null` matching a missing one), in one atomic
   * statement (such as `UPDATE ... WHERE provider = $1 AND "providerAccountId" = $2 AND
   * refresh_token IS NOT DISTINCT FROM $3 RETURNING ...`); otherwise nothing changes and the answer
   * is `null`. Under concurrent calls with the same `expected`, exactly one caller receives the
   * account. Core uses it to write refreshed provider tokens back (database sessions), so that two
   * instances racing a refresh store one result.
   */
  updateAccount?(account: Partial<AdapterAccount> & Pick<AdapterAccount, "provider" | "providerAccountId">, expected?: { refresh_token: string | null }): Awaitable<AdapterAccount | null>
  getAuthenticator?(credentialID: string): Awaitable<AdapterAuthenticator | null>
  createAuthenticator?(authenticator: AdapterAuthenticator): Awaitable<AdapterAuthenticator>
  listAuthenticatorsByUserId?(userId: string): Awaitable<AdapterAuthenticator[]>
  /**
   * Rejects when the credential is unknown. An adapter that stores `lastUsedAt` stamps it here, in
   * the same write (core calls this once per passkey sign-in).
   */
  updateAuthenticatorCounter?(credentialID: string, newCounter: number): Awaitable<AdapterAuthenticator>
  /**
   * Optional, authlib only: the first statement of a passkey sign-in. Uses the token exactly as
   * `useVerificationToken` does (single use: of concurrent calls one receives it) and reads the
   * authenticator of `credentialID` as `getAuthenticator` does, in one round trip (one statement in
   * SQL). `token` is `null` when this caller did not receive it (unknown, used, or used by a
   * concurrent call), `authenticator` when no authenticator has the id; the token is used either way.
   */
  useVerificationTokenAndGetAuthenticator?(
    params: { identifier: string; token: string },
    credentialID: string,
  ): Awaitable<{ token: VerificationToken | null; authenticator: AdapterAuthenticator | null }>
  /**
   * Optional, authlib only: the second statement of a passkey sign-in, under database sessions.
   * Sets the authenticator's counter (and stamps `lastUsedAt`) as `updateAuthenticatorCounter`
   * does and, for the user who owns it, writes the session (with its metadata) and answers the
   * updated authenticator, its user and the stored session, atomically (one statement in SQL).
   * `null`, and nothing written, when no authenticator has `credentialID` (deleted meanwhile, such
   * as by the account pre-hijacking clean-up) or its user is gone: core then refuses the sign-in.
   */
  updateAuthenticatorCounterAndCreateSession?(
    credentialID: string,
    newCounter: number,
    session: { sessionToken: string; expires: Date } & Omit<SessionMetadata, "error">,
  ): Awaitable<{ authenticator: AdapterAuthenticator; user: AdapterUser; session: AdapterSession } | null>
  /**
   * Optional, authlib only (Auth.js never calls it): deletes the authenticator and returns it as it
   * was, or `null` when no authenticator has `credentialID`. One atomic delete (such as
   * `DELETE ... RETURNING`): under concurrent calls for one credential exactly one caller receives
   * the record. It removes the authenticator only; core unlinks the passkey's `webauthn` account
   * with `unlinkAccount`. Keyed by credential id alone: core has already checked that the passkey
   * belongs to the signed-in user. Needed to delete passkeys (`deletePasskey`, POST `passkeys`).
   */
  deleteAuthenticator?(credentialID: string): Awaitable<AdapterAuthenticator | null>
  /**
   * Optional, authlib only: sets the fields `patch` names (today `name`; a key left out is kept) and
   * returns the updated authenticator, or `null` when no authenticator has `credentialID` (nothing
   * is created). Keyed by credential id alone, like `deleteAuthenticator`. Needed to rename
   * passkeys (`renamePasskey`, POST `passkeys`).
   */
  updateAuthenticator?(credentialID: string, patch: { name?: string | null }): Awaitable<AdapterAuthenticator | null>
  /**
   * Optional, authlib only: every account linked to the user, in any order (`[]` for an unknown
   * user). Core reads it before deleting a user's last passkey, to tell whether another linked
   * account (OAuth, OIDC, e-mail, credentials) still lets them sign in; without it only an e-mail
   * address counts, so deleting the last passkey is refused more often, never allowed wrongly.
   */
  listAccountsByUserId?(userId: string): Awaitable<AdapterAccount[]>
}
