/**
 * THE place a session is issued. Every flow ends in `issueSession(result)`: the `signIn` callback
 * decides, the user and account are stored (adapter), the `jwt` callback shapes the token, the
 * strategy writes the session cookie, the `signIn` event fires, and the user is redirected.
 */
import { emitEvent } from "../events.js"
import type { SignInResult } from "../flows/types.js"
import type { AuthRequest, AuthResponse, Context } from "../http/types.js"
import { pageUrl } from "../http/urls.js"
import type { CallbacksOptions } from "../types.js"
import { runSignInCallback } from "../callbacks.js"
import { sessionStrategy, type NewSession } from "./strategy.js"
import { persistUser } from "./link-user.js"
import { principalOf } from "./principal.js"
import type { AdapterAccount, AdapterUser } from "../adapters.js"
import type { PersistedUser } from "./link-user.js"

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

/** Who signed in: the stored user and account where there are, else the flow's. */
function newSession(result: SignInResult, stored: PersistedUser | undefined): NewSession {
  return { user: stored?.user ?? result.user, account: stored?.account ?? result.account, profile: result.profile, isNewUser: stored?.isNewUser ?? false }
}

async function signInEvent(ctx: Context, result: SignInResult, stored: PersistedUser | undefined): Promise<void> {
  await emitEvent(ctx, "signIn", {
    user: result.account.type === "credentials" ? result.user : (stored?.user ?? result.user),
    account: stored?.account ?? result.account,
    ...(result.profile ? { profile: result.profile } : {}),
    isNewUser: stored?.isNewUser ?? false,
  })
}

/** Turns a successful flow into session cookies and the redirect that follows sign-in. */
export async function issueSession(req: AuthRequest, ctx: Context, result: SignInResult, callbackUrl: string): Promise<AuthResponse> {
  const flowCookies = result.cookies ?? []
  const decision = await runSignInCallback(signInParams(result), ctx)
  if (decision.redirect) return { redirect: decision.redirect, cookies: flowCookies }
  // A returning credentials user under database sessions: owner and session in one adapter call.
  const strategy = sessionStrategy(ctx.config)
  const atOnce = result.account.type === "credentials" && strategy.issueForAccount && ctx.config.adapter ? await strategy.issueForAccount(req, ctx, result.account) : null
  // Without an adapter nothing is stored: skip the call and its microtask (credentials + jwt).
  const stored = atOnce ? ownerOf(result, atOnce.user) : ctx.config.adapter ? await persistIfNeeded(req, ctx, result) : undefined
  const cookies = atOnce ? atOnce.cookies : await strategy.issue(req, ctx, newSession(result, stored))
  if (ctx.config.events.signIn) await signInEvent(ctx, result, stored)
  const { newUser } = ctx.config.pages
  const redirect = stored?.isNewUser && newUser ? pageUrl(ctx, newUser, { callbackUrl }) : callbackUrl
  return { redirect, cookies: flowCookies.length ? [...flowCookies, ...cookies] : cookies }
}
