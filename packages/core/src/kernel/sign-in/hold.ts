/**
 * Sign-ins a capability holds back (a second factor to verify, an enrolment to finish). A held
 * sign-in writes nothing: its user is planned (`planUser`), not stored, and no account, user or
 * passkey is written until the hold ends. The holder keeps a `ResumableSignIn` (made here) and hands
 * it back to `completeHeldSignIn`, which plans again, checks that the plan still names the user it
 * held, stores the user and issues the session, and only then runs the sign-in type's `signedIn`
 * rule. The one write before a hold is an e-mail proof's clean-up (`settleProof`): it belongs to
 * the proof, and it removes a squatter's second factor, which must not get to hold the address's
 * owner.
 */
import { AccessDenied } from "../errors/errors.js"
import type { AdapterUser } from "../types/adapters.js"
import type { BeforeIssueHook } from "../types/capability.js"
import type { AuthRequest, AuthResponse, Context, Cookie } from "../types/http.js"
import type { Authentication, NewSession, ResumableSignIn, SignInResult } from "../types/sign-in.js"
import { afterSignedIn, completeSignIn } from "./complete.js"
import { applyPlan, planUser, plannedUserId, settleProof, type PersistedUser, type UserPlan } from "./link-user.js"
import { resumable, resumedResult } from "./resume.js"
import { newSession, signInEventInput } from "./session-of.js"
import { firstFactorOf } from "./amr.js"
import { nowSeconds } from "../sessions/lifetime.js"

/** A sign-in's user plan, and the signed-in user an account joins (if any). */
export interface Planned {
  readonly plan: UserPlan
  readonly linkTo: string | undefined
}

/** The session a held sign-in would issue now: the planned user's (a new user without an `id`). */
function heldSession(result: SignInResult, plan: UserPlan | undefined, authentication: Authentication): NewSession {
  if (!plan) return newSession(result, undefined, authentication)
  if (plan.write === "create") {
    const { id: _providerId, ...user } = result.user
    return { user, account: result.account, profile: result.profile, isNewUser: true, authentication }
  }
  return newSession(result, { user: plan.user, account: { ...result.account, userId: plan.user.id } as PersistedUser["account"], isNewUser: false }, authentication)
}

/**
 * Asks the active `beforeIssue` hooks, in order, whether to hold the sign-in; the first answer is
 * sent instead of a session. An e-mail proof is settled first (see the file comment); nothing else
 * is written. Undefined when no hook holds it: the caller stores the user and issues the session.
 */
export async function holdSignIn(
  req: AuthRequest,
  ctx: Context,
  holds: readonly BeforeIssueHook[],
  result: SignInResult,
  planned: Planned | undefined,
  callbackUrl: string,
  cookies: readonly Cookie[],
): Promise<{ held: AuthResponse } | { plan: UserPlan | undefined }> {
  const plan = planned && (await settleProof(ctx, result, planned.plan))
  const first = firstFactorOf(ctx, result)
  const authentication = { time: nowSeconds(), amr: [...first.amr] }
  const session = heldSession(result, plan, authentication)
  const userId = plan ? plannedUserId(plan) : typeof result.user.id === "string" ? result.user.id : undefined
  const resume = resumable(ctx.config.registry, result, plan !== undefined, authentication, planned?.linkTo)
  for (const hook of holds) {
    const held = await hook.hold(req, ctx, { session, userId, resume, callbackUrl, cookies, factors: first.factors })
    if (held) return { held }
  }
  return { plan }
}

/** How a holder finishes a held sign-in. */
export interface HeldSignInCompletion {
  readonly resume: ResumableSignIn
  /** The user it held (`PendingSignIn.userId`); the plan made now must name the same one. */
  readonly userId: string | undefined
  readonly callbackUrl: string
  /** Whether the `signIn` event fires. */
  readonly event: boolean
  /** The holder's cookies to send with the session (its own cleared). */
  readonly cookies: readonly Cookie[]
  /** Runs once the user is stored and before the session is issued (an enrolment stores its second factor). */
  readonly beforeSession?: (user: { id: string | undefined; stored: AdapterUser | undefined }) => Promise<void>
}

/**
 * Ends a held sign-in: the user planned again and stored (the plan must still name the held user,
 * else `AccessDenied` `SIGN_IN_CHANGED` and nothing is written), then the session issued as any
 * sign-in's, with the factors verified in this request.
 */
export async function completeHeldSignIn(req: AuthRequest, ctx: Context, held: HeldSignInCompletion): Promise<AuthResponse> {
  const result = resumedResult(held.resume)
  let stored: PersistedUser | undefined
  if (held.resume.stores) {
    const plan = await planUser(ctx, result, held.resume.linkTo)
    if (plannedUserId(plan) !== held.userId)
      throw new AccessDenied("The sign-in's user changed while it was held: sign in again", { code: "SIGN_IN_CHANGED", cause: { provider: result.account.provider } })
    stored = await applyPlan(ctx, result, plan)
  }
  await held.beforeSession?.({ id: stored?.user.id ?? held.userId, stored: stored?.user })
  const session = newSession(result, stored, held.resume.authentication)
  const event = held.event ? signInEventInput(ctx.config.registry, result, stored) : undefined
  // The sign-in type's part (`UserRules.signedIn`) waited for the hold to end: its own is what `keep` kept.
  return afterSignedIn(ctx, result, session.user.id, await completeSignIn(req, ctx, session, held.callbackUrl, held.cookies, event))
}
