/**
 * THE place a session is issued. Every flow ends in `issueSession(result)`: the `signIn` callback
 * decides, the user and account are stored (adapter), the `jwt` callback shapes the token, the
 * strategy writes the session cookie, the `signIn` event fires, and the user is redirected.
 */
import { emitEvent } from "../user-code/events.js"
import type { Authentication, SignInResult } from "../types/sign-in.js"
import type { AuthRequest, AuthResponse, Context } from "../types/http.js"
import { pageUrl } from "../http/urls.js"
import type { CallbacksOptions } from "../types/config.js"
import { runSignInCallback } from "../user-code/callbacks.js"
import { sessionStrategy, type NewSession } from "../sessions/strategy.js"
import { registry } from "../registry/installed.js"
import type { Cookie } from "../types/http.js"
import type { EventCallbacks } from "../types/config.js"
import { persistUser } from "./link-user.js"
import { principalOf } from "../sessions/principal.js"
import type { AdapterAccount, AdapterUser } from "../types/adapters.js"
import type { PersistedUser } from "./link-user.js"
import { firstFactorAmr, nowSeconds, withVerifiedFactors } from "./amr.js"

/** Credentials users are stored only where a session needs a stored user; other types whenever there is an adapter. */
async function persistIfNeeded(req: AuthRequest, ctx: Context, result: SignInResult): Promise<PersistedUser | undefined> {
  if (!ctx.config.adapter) return undefined
  const strategy = sessionStrategy(ctx.config)
  const type = result.account.type
  if (type === "credentials" && !strategy.needsStoredUser) return undefined
  // WebAuthn names its user itself: a passkey's owner, or the signed-in user who added it.
  const linkTo = type === "webauthn" ? result.knownUserId : type === "credentials" || type === "email" ? undefined : (await principalOf(req, ctx))?.userId
  return persistUser(ctx, result, linkTo)
}

/** What `persistUser` answers for an account whose owner is `user` (see `issueForAccount`). */
const ownerOf = (result: SignInResult, user: AdapterUser): PersistedUser => ({ user, account: { ...result.account, userId: user.id } as AdapterAccount, isNewUser: false })

type SignInParams = Parameters<CallbacksOptions["signIn"]>[0]

/** The `signIn` callback's input: the flow's fields, absent ones left out (built without spreads). */
function signInParams(result: SignInResult): SignInParams {
  const params: SignInParams = { user: result.user, account: result.account }
  if (result.profile) params.profile = result.profile
  if (result.credentials) params.credentials = result.credentials
  if (result.email) params.email = result.email
  return params
}

/** Who signed in (the stored user and account where there are, else the flow's), how and when. */
/** When and how the first factor authenticated the user. */
function authenticationOf(ctx: Context, result: SignInResult): Authentication {
  return { time: nowSeconds(), amr: firstFactorAmr(ctx, result) }
}

function newSession(ctx: Context, result: SignInResult, stored: PersistedUser | undefined): NewSession {
  const authentication = authenticationOf(ctx, result)
  return { user: stored?.user ?? result.user, account: stored?.account ?? result.account, profile: result.profile, isNewUser: stored?.isNewUser ?? false, authentication }
}

/** What the `signIn` event receives, fixed when the first factor succeeds. */
export type SignInEventInput = Parameters<EventCallbacks["signIn"]>[0]

function signInEventInput(result: SignInResult, stored: PersistedUser | undefined): SignInEventInput {
  return {
    user: result.account.type === "credentials" ? result.user : (stored?.user ?? result.user),
    account: stored?.account ?? result.account,
    ...(result.profile ? { profile: result.profile } : {}),
    isNewUser: stored?.isNewUser ?? false,
  }
}

/**
 * Whether a flow may store the session together with its first factor's last write, before
 * `issueSession` runs (e-mail: `SessionStrategy.issueForLink`): only when nothing must see the
 * stored user first, i.e. no `signIn` callback and no capability that may hold the sign-in back.
 */
export function mayIssueWithFirstFactor(ctx: Context): boolean {
  return !ctx.config.hasSignInCallback && !registry().beforeIssue.some((b) => b.active(ctx.config))
}

/** Turns a successful flow into session cookies and the redirect that follows sign-in. */
export async function issueSession(req: AuthRequest, ctx: Context, result: SignInResult, callbackUrl: string): Promise<AuthResponse> {
  const flowCookies = result.cookies ?? []
  // Stored with the link's use (`mayIssueWithFirstFactor` held): the default `signIn` callback allows it.
  if (result.issued) {
    const event = ctx.config.events.signIn ? signInEventInput(result, ownerOf(result, result.issued.user)) : undefined
    return signedIn(ctx, false, callbackUrl, flowCookies, result.issued.cookies, event)
  }
  // The default `signIn` callback allows every sign-in: answered here, without the user-code runner.
  const decision = ctx.config.hasSignInCallback ? await runSignInCallback(signInParams(result), ctx) : {}
  if (decision.redirect) return { redirect: decision.redirect, cookies: flowCookies }
  const strategy = sessionStrategy(ctx.config)
  const holds = registry().beforeIssue.filter((b) => b.active(ctx.config))
  // A returning credentials user under database sessions: owner and session in one adapter call,
  // unless a capability may hold the sign-in back (it must see the user before any session exists).
  if (result.account.type === "credentials" && ctx.config.adapter && holds.length === 0) {
    const atOnce = await strategy.issueForAccount(req, ctx, result.account, authenticationOf(ctx, result))
    if (atOnce) {
      const stored = ownerOf(result, atOnce.user)
      const event = ctx.config.events.signIn ? signInEventInput(result, stored) : undefined
      return signedIn(ctx, false, callbackUrl, flowCookies, atOnce.cookies, event)
    }
  }
  // Without an adapter nothing is stored: skip the call and its microtask (credentials + jwt).
  const stored = ctx.config.adapter ? await persistIfNeeded(req, ctx, result) : undefined
  const session = newSession(ctx, result, stored)
  // Every way in passes here: a capability may hold the sign-in back (a second factor) before any session cookie.
  for (const hold of holds) {
    const held = await hold.hold(req, ctx, { session, callbackUrl, cookies: flowCookies, userVerified: result.userVerified === true })
    if (held) return held
  }
  const event = ctx.config.events.signIn ? signInEventInput(result, stored) : undefined
  return completeSignIn(req, ctx, session, callbackUrl, flowCookies, event)
}

/**
 * The end of every sign-in: the strategy issues the session, the `signIn` event fires, and the user
 * goes to the callback URL (or `pages.newUser`). Also where a sign-in held back by a second factor
 * ends once that factor is verified: the factors a capability recorded as verified in this request
 * (`recordVerifiedFactor`) join the first factor's, with `mfa` and the time of now.
 */
export async function completeSignIn(
  req: AuthRequest,
  ctx: Context,
  session: NewSession,
  callbackUrl: string,
  flowCookies: readonly Cookie[],
  event: SignInEventInput | undefined,
): Promise<AuthResponse> {
  const authentication = withVerifiedFactors(ctx, session.account.type, session.authentication)
  const cookies = await sessionStrategy(ctx.config).issue(req, ctx, authentication ? { ...session, authentication } : session)
  return signedIn(ctx, session.isNewUser, callbackUrl, flowCookies, cookies, event)
}

/** The `signIn` event, then the redirect that follows sign-in, with every cookie to set. */
async function signedIn(ctx: Context, isNewUser: boolean, callbackUrl: string, flowCookies: readonly Cookie[], cookies: Cookie[], event: SignInEventInput | undefined): Promise<AuthResponse> {
  if (event) await emitEvent(ctx, "signIn", event)
  const { newUser } = ctx.config.pages
  const redirect = isNewUser && newUser ? pageUrl(ctx, newUser, { callbackUrl }) : callbackUrl
  return { redirect, cookies: flowCookies.length ? [...flowCookies, ...cookies] : cookies }
}
