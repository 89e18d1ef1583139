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
 * - `deleteUser` removes the user's sessions, accounts and authenticators with it.
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

/** A database session as stored by an adapter. `sessionToken` is the hash of the cookie's token. */
export interface AdapterSession {
  sessionToken: string
  userId: string
  expires: Date
}

/** A one-time token of e-mail sign-in. `token` is stored hashed by core. */
export interface VerificationToken {
  identifier: string
  expires: Date
  token: string
}

/** A WebAuthn credential (passkey) as stored by an adapter. */
export interface AdapterAuthenticator {
  credentialID: string
  userId: string
  providerAccountId: string
  counter: number
  credentialBackedUp: boolean
  credentialPublicKey: string
  credentialDeviceType: string
  transports?: string | null
}

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
  createSession?(session: { sessionToken: string; userId: string; expires: Date }): Awaitable<AdapterSession>
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
  createVerificationToken?(verificationToken: VerificationToken): Awaitable<VerificationToken | null | undefined>
  /** Returns the token and deletes it, atomically: under concurrent calls exactly one caller receives it. */
  useVerificationToken?(params: { identifier: string; token: string }): Awaitable<VerificationToken | null>
  getAccount?(providerAccountId: string, provider: string): Awaitable<AdapterAccount | null>
  getAuthenticator?(credentialID: string): Awaitable<AdapterAuthenticator | null>
  createAuthenticator?(authenticator: AdapterAuthenticator): Awaitable<AdapterAuthenticator>
  listAuthenticatorsByUserId?(userId: string): Awaitable<AdapterAuthenticator[]>
  /** Rejects when the credential is unknown. */
  updateAuthenticatorCounter?(credentialID: string, newCounter: number): Awaitable<AdapterAuthenticator>
}
