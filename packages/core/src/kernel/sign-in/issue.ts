/**
 * THE place a session is issued. Every flow ends in `issueSession(result)`: the `signIn` callback
 * decides, the user is planned (read only), a capability may hold the sign-in back (`hold.ts`:
 * nothing written until it ends), the user and account are stored (adapter), the `jwt` callback
 * shapes the token, the strategy writes the session cookie, the `signIn` event fires, the sign-in
 * type's `signedIn` rule runs (not for a held sign-in: when its hold ends), and the user is
 * redirected (`complete.ts`).
 */
import type { SignInResult } from "../types/sign-in.js"
import type { AuthRequest, AuthResponse, Context, Cookie } from "../types/http.js"
import type { CallbacksOptions } from "../types/config.js"
import { runSignInCallback } from "../user-code/callbacks.js"
import { sessionStrategy } from "../sessions/strategy.js"
import { issue } from "../sessions/issuer.js"
import { applyPlan, planUser, userRules, type UserPlan } from "./link-user.js"
import { principalOf } from "../sessions/principal.js"
import { requireFreshSecondFactor } from "../sessions/freshness.js"
import { sessionTokensOf } from "../sessions/account-tokens.js"
import type { UserRules } from "../types/capability.js"
import { afterSignedIn, completeSignIn, signedIn } from "./complete.js"
import { holdSignIn, type Planned } from "./hold.js"
import { authenticationOf, newSession, ownerOf, signInEventInput } from "./session-of.js"

export type { SignInEventInput } from "./session-of.js"

/**
 * The user plan of a sign-in that stores its user: whenever there is an adapter, but the app's own
 * users (`UserRules.owner: "app"`) only where a session needs a stored user. Linking a new way in
 * to the signed-in user passes the step-up gate here, as adding a passkey does in its callback.
 */
async function planIfNeeded(req: AuthRequest, ctx: Context, result: SignInResult): Promise<Planned | undefined> {
  const rules = userRules(ctx.config.registry, result)
  if (rules.owner === "app" && !sessionStrategy(ctx.config).traits.needsStoredUser) return undefined
  const linkTo = await joinedUser(req, ctx, rules, result)
  const plan = await planUser(ctx, result, linkTo)
  // A passkey's callback asked the same gate already (before its ceremony); asking again reads nothing new but the freshness hook.
  if (addsWayIn(plan, linkTo)) await requireFreshSecondFactor(req, ctx, "Sign in to add a way in")
  return { plan, linkTo }
}

/** The stored user a new account of `result` joins, as its sign-in type says (`UserRules.joins`). */
async function joinedUser(req: AuthRequest, ctx: Context, rules: UserRules, result: SignInResult): Promise<string | undefined> {
  if (rules.joins === "named") return rules.linkTarget?.(result.own)
  return rules.joins === "signed-in" ? (await principalOf(req, ctx))?.userId : undefined
}

/** Whether `plan` adds a way in for the signed-in user `linkTo` (an account linked, a passkey registered) rather than signing someone in. */
const addsWayIn = (plan: UserPlan, linkTo: string | undefined): boolean => plan.write === "link" && linkTo !== undefined && plan.user.id === linkTo

type SignInParams = Parameters<CallbacksOptions["signIn"]>[0]

/** The `signIn` callback's input: the flow's fields and its sign-in type's own (`signInInput`), absent ones left out. */
function signInParams(ctx: Context, result: SignInResult): SignInParams {
  const params: SignInParams = { user: result.user, account: result.account }
  if (result.profile) params.profile = result.profile
  const own = ctx.config.registry.signInType(result.account.type)?.signInInput?.(result.own)
  if (own?.credentials) params.credentials = own.credentials
  if (own?.email) params.email = own.email
  return params
}

/**
 * Whether a flow may store the session together with its first factor's last write, before
 * `issueSession` runs (e-mail: the issuer's `link` issuance): only when nothing must see the
 * stored user first, i.e. no `signIn` callback and no capability that may hold the sign-in back.
 */
export function mayIssueWithFirstFactor(ctx: Context): boolean {
  return !ctx.config.hasSignInCallback && !ctx.config.registry.beforeIssue.some((b) => b.active(ctx.config))
}

/** Turns a successful flow into session cookies and the redirect that follows sign-in. */
export async function issueSession(req: AuthRequest, ctx: Context, result: SignInResult, callbackUrl: string): Promise<AuthResponse> {
  const flowCookies = result.cookies ?? []
  // Stored with the link's use (`mayIssueWithFirstFactor` held): the default `signIn` callback allows it.
  if (result.issued) {
    const event = ctx.config.events.signIn ? signInEventInput(ctx.config.registry, result, ownerOf(result, result.issued.user)) : undefined
    return afterSignedIn(ctx, result, result.issued.user.id, await signedIn(ctx, false, callbackUrl, flowCookies, result.issued.cookies, event))
  }
  // The default `signIn` callback allows every sign-in: answered here, without the user-code runner.
  const decision = ctx.config.hasSignInCallback ? await runSignInCallback(signInParams(ctx, result), ctx) : {}
  if (decision.redirect) return { redirect: decision.redirect, cookies: flowCookies }
  const holds = ctx.config.registry.beforeIssue.filter((b) => b.active(ctx.config))
  // A returning user of the app's own (credentials) under database sessions: owner and session in
  // one adapter call, unless a capability may hold the sign-in back (it must see the user before
  // any session exists).
  if (ctx.config.adapter && holds.length === 0 && userRules(ctx.config.registry, result).owner === "app") {
    const atOnce = await issue(req, ctx, { kind: "account", account: result.account, authentication: authenticationOf(ctx, result) })
    if (atOnce) {
      const stored = ownerOf(result, atOnce.user)
      const event = ctx.config.events.signIn ? signInEventInput(ctx.config.registry, result, stored) : undefined
      return afterSignedIn(ctx, result, atOnce.user.id, await signedIn(ctx, false, callbackUrl, flowCookies, atOnce.cookies, event))
    }
  }
  // Without an adapter nothing is stored: skip the call and its microtask (credentials + jwt).
  const planned = ctx.config.adapter ? await planIfNeeded(req, ctx, result) : undefined
  let plan = planned?.plan
  // Every way in passes here: a capability may hold the sign-in back (a second factor) before any write.
  if (holds.length) {
    const asked = await holdSignIn(req, ctx, holds, result, planned, callbackUrl, flowCookies)
    if ("held" in asked) return asked.held
    plan = asked.plan
  }
  const stored = plan ? await applyPlan(ctx, result, plan) : undefined
  const event = ctx.config.events.signIn ? signInEventInput(ctx.config.registry, result, stored) : undefined
  if (plan && addsWayIn(plan, planned?.linkTo)) return signedIn(ctx, false, callbackUrl, flowCookies, await keepSession(req, ctx, result), event)
  const session = newSession(result, stored, authenticationOf(ctx, result))
  return afterSignedIn(ctx, result, session.user.id, await completeSignIn(req, ctx, session, callbackUrl, flowCookies, event))
}

/**
 * A way in added for the signed-in user (a passkey registered, an account linked) is no new sign-in:
 * their session stays as it is, with how and when they authenticated and when it started, so adding
 * a passkey after two factors does not leave a one-factor session, and no change to the ways in
 * extends a session. Only JWT sessions that keep provider tokens are re-issued, with the new
 * account's tokens beside the others. The cookies to set.
 */
async function keepSession(req: AuthRequest, ctx: Context, result: SignInResult): Promise<Cookie[]> {
  const tokens = ctx.config.session.providerTokens ? sessionTokensOf(ctx.config.registry, result.account) : undefined
  if (!tokens || !sessionStrategy(ctx.config).traits.keepsProviderTokens) return []
  return (await issue(req, ctx, { kind: "replace", change: { providerTokens: { providerId: result.account.provider, tokens } } })) ?? []
}
