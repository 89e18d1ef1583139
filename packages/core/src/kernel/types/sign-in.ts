/**
 * The flow seam. A flow is the provider-type-specific part of signing in (credentials, OAuth/OIDC,
 * e-mail, WebAuthn). Routes pick the flow from the provider's `type`; a flow never touches session
 * cookies: it returns a `SignInResult` and `sign-in/issue.ts` turns that into a session (e-mail may
 * have the session strategy store it with the link's use: `issued`, which the issuer sends).
 */
import type { AdapterAccount, AdapterUser } from "./adapters.js"
import type { Cookie } from "./http.js"
import type { AuthRequest, AuthResponse, Context } from "./http.js"
import type { ProviderConfig } from "./providers.js"
import type { Account, Profile, User } from "./config.js"

/**
 * What every successful flow hands to `issueSession`: what every sign-in type has, and one slot,
 * `own`, for the type's own data, which only its rules (`SignInTypeDeclaration`) read.
 */
export interface SignInResult<Own = unknown> {
  /** The user as the provider produced it (credentials: what `authorize` returned). */
  user: User
  /** The account: `provider`, `providerAccountId`, `type` and any token set. */
  account: Account
  /** The provider's raw profile (OAuth/OIDC). */
  profile?: Profile
  /** Cookies the flow consumed or set (for example expired check cookies); never session cookies. */
  cookies?: Cookie[]
  /**
   * The session was already stored with the first factor's last write (an e-mail link's use:
   * `SessionStrategy.issueForLink`, only where `mayIssueWithFirstFactor` allowed it): its stored
   * user and the cookies to set.
   */
  issued?: { user: AdapterUser; cookies: Cookie[] }
  /** The sign-in type's own data (the passkey's owner, the e-mail look-up, the submitted credentials...). */
  own?: Own
}

/** The end of a `callback` step: a sign-in to issue, or an intermediate page (e-mail confirm). */
export type FlowOutcome = { signIn: SignInResult } | { response: AuthResponse }

/** What a flow step receives: the request context plus its provider and the validated callback URL. */
export interface FlowContext<P extends ProviderConfig = ProviderConfig> extends Context {
  readonly provider: P
  /** Where the user goes after sign-in, already passed through the `redirect` callback. */
  readonly callbackUrl: string
  /** The signed-in user's id (asked of the session strategy on demand); set by the callback route. */
  readonly signedInUserId?: () => Promise<string | undefined>
}

/** One provider type's sign-in steps. */
export interface Flow<P extends ProviderConfig = ProviderConfig> {
  /**
   * POST signin/:provider, after the CSRF check: start the sign-in. OAuth returns a redirect to the
   * authorization endpoint plus check cookies (bound to `ctx.provider.id`); e-mail sends the link and
   * redirects to verify-request. Absent (credentials): the route shows the sign-in page instead.
   */
  signin?(req: AuthRequest, ctx: FlowContext<P>): Promise<AuthResponse>
  /** GET or POST callback/:provider: verify what came back and return the signed-in user. */
  callback(req: AuthRequest, ctx: FlowContext<P>): Promise<FlowOutcome>
  /** Methods callback/:provider accepts for this type. */
  readonly callbackMethods: ReadonlyArray<"GET" | "POST">
  /**
   * Whether POST callback/:provider must pass the CSRF check. True unless another check binds the
   * response to this browser (OAuth `form_post`, protected by state/PKCE check cookies).
   */
  readonly callbackCsrf: boolean
}

/**
 * How and when a session's user authenticated: `time` in seconds since the epoch (the last factor
 * verified), `amr` the methods in RFC 8176 terms (see `sign-in/amr.ts`), `"mfa"` once two factors
 * were verified. Sessions keep it (JWT claims `auth_time` and `amr`; database session metadata) so
 * that step-up can ask how recent and how strong the authentication is.
 */
export interface Authentication {
  time: number
  amr: string[]
}

/** Who signed in, as the issuer hands it to the strategy. */
export interface NewSession {
  user: User | AdapterUser
  account: Account | AdapterAccount
  profile: Profile | undefined
  isNewUser: boolean
  /** How the user authenticated (absent: unknown, as for sessions issued before this was recorded). */
  authentication?: Authentication
}

/**
 * A sign-in held back before its session (by a `beforeIssue` hook), as the holder keeps it until the
 * hold ends (JSON-safe: the two-factor capability seals it in a cookie) and hands it back to
 * `completeHeldSignIn`. Nothing of it is stored until then: the user is planned, not written.
 */
export interface ResumableSignIn {
  /** The flow's result, without what must not be kept (submitted credentials, cookies, look-ups); dates as ISO strings. */
  readonly result: Pick<SignInResult, "account" | "profile" | "own"> & { user: Omit<User, "emailVerified"> & { emailVerified: string | null } }
  /** The signed-in user the account was being linked to, if any. */
  readonly linkTo?: string
  /** Whether the sign-in stores its user (an adapter, and not a credentials sign-in with JWT sessions). */
  readonly stores: boolean
  /** How and when the first factor authenticated the user. */
  readonly authentication: Authentication
}

/**
 * A sign-in whose first factor succeeded and whose user is known (planned where there is an adapter,
 * but not yet written), before its session is issued: what a `beforeIssue` hook of a capability sees.
 */
export interface PendingSignIn {
  /** The session it would issue now; for a new user, `user` has no `id` yet (`userId` undefined). */
  readonly session: NewSession
  /** The stored user it signs in (the account's owner, or the user it joins); undefined for a user not yet created. */
  readonly userId: string | undefined
  /** What the holder keeps to finish it later (`completeHeldSignIn`). */
  readonly resume: ResumableSignIn
  /** Where the user goes once signed in (already through the `redirect` callback). */
  readonly callbackUrl: string
  /** The flow's own cookies (expired check cookies): the hook's answer must carry them. */
  readonly cookies: readonly Cookie[]
  /** How many factors the first factor proved, as they count under the config (2: a passkey that verified the person too). */
  readonly factors: 1 | 2
}

/**
 * Who a sign-in's user is and what storing it writes, read without writing anything (so a sign-in
 * held for a second factor stores nothing until that factor passes):
 * - `none`: the account is the user's already (`ownerId`: the account's owner, where it differs);
 * - `link`: the account (and a new passkey) joins `user`;
 * - `create`: a new user is created with the account (with `email` as its address, when the sign-in proved one);
 * - `prove`: the sign-in proves `address`, the address of `user`, never verified (an e-mail link):
 *   the clean-up of what was linked without that proof runs, the address is marked verified, then
 *   the account is linked unless `ownerId` owns it.
 */
export type UserPlan =
  | { readonly write: "none"; readonly user: AdapterUser; readonly ownerId?: string }
  | { readonly write: "link"; readonly user: AdapterUser }
  | { readonly write: "create"; readonly emailVerified: Date | null; readonly email?: string }
  | { readonly write: "prove"; readonly user: AdapterUser; readonly ownerId: string | null; readonly address: string }
