/**
 * The session-strategy interface and the values that cross it. Implemented by `jwt-strategy.ts`
 * and `database-strategy.ts`; chosen by `strategy.ts`.
 */
import type { JWT } from "@authlib/jwt"
import type { AdapterAccount, AdapterSession, AdapterUser } from "../adapters.js"
import type { Cookie } from "../cookies/serialize.js"
import type { AuthRequest, AuthResponse, Context } from "../http/types.js"
import type { Account, Profile, Session, User } from "../model.js"

/** Who signed in, as the issuer hands it to the strategy. */
export interface NewSession {
  user: User | AdapterUser
  account: Account | AdapterAccount
  profile: Profile | undefined
  isNewUser: boolean
}

/** Data of a session update (POST /session), or undefined for a read. */
export interface SessionUpdate {
  data: unknown
}

/** What the `signOut` event receives. */
export type SignOutMessage = { session: AdapterSession | null | undefined | void } | { token: JWT | null }

export interface SessionStrategy {
  /** Whether a session points at a stored user (so even credentials users are stored). */
  readonly needsStoredUser: boolean
  /** Adapter methods the strategy needs; start-up refuses a configuration without them. */
  readonly adapterMethods: readonly string[]
  /** Starts a session for a sign-in; only `issueSession` calls this. Resolves the cookies to set. */
  issue(req: AuthRequest, ctx: Context, signIn: NewSession): Promise<Cookie[]>
  /** The request's session as the `session` callback shapes it (or `null`), with cookie changes. */
  read(req: AuthRequest, ctx: Context, update?: SessionUpdate): Promise<AuthResponse<Session | null>>
  /** Ends the request's session (sign-out); never throws for an adapter failure. */
  end(req: AuthRequest, ctx: Context): Promise<SignOutMessage>
  /** The id of the user whose valid session the request carries, for linking a second account. */
  currentUserId(req: AuthRequest, ctx: Context): Promise<string | undefined>
}
