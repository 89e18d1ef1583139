/**
 * How a user authenticated, in RFC 8176 "Authentication Method Reference" values, recorded with
 * every session (`Authentication`) so step-up can ask how recent and how strong it was.
 *
 * First factors: each sign-in type declares its methods and how many factors it proves
 * (`SignInTypeDeclaration.firstFactor`, with the reasons for its values beside it). One that proves
 * two in one step (a passkey with user verification) gets `mfa` too unless a capability says
 * otherwise (`Capability.oneStepMultiFactor`), or whatever it says when the app's configuration
 * named the party that verified both (`FirstFactor.byConfiguration`).
 * Second factors (TOTP or a backup code: `otp`; a passkey after another first factor: `hwk`) add
 * their methods and `mfa`, only when independent of the first (`independentOf`); see `recordVerifiedFactor`.
 */
import { nowSeconds } from "../sessions/lifetime.js"
import type { Context } from "../types/http.js"
import type { VerifiedFactor } from "../types/request-memo.js"
import type { Authentication, SignInResult } from "../types/sign-in.js"
import type { FirstFactor } from "../types/capability.js"


/**
 * A first factor as it counts under `ctx.config`: its sign-in type's methods and factors, and `mfa`
 * when the type proved two factors in one step and no capability says that does not count
 * (`Capability.oneStepMultiFactor`).
 */
export function firstFactorOf(ctx: Context, result: SignInResult): FirstFactor {
  const proved = ctx.config.registry.signInType(result.account.type)?.firstFactor(result) ?? { amr: [], factors: 1 }
  if (proved.factors === 2 && (proved.byConfiguration === true || ctx.config.registry.oneStepMultiFactor(ctx.config))) return { amr: unionAmr(proved.amr, ["mfa"]), factors: 2 }
  return { amr: proved.amr.filter((method) => method !== "mfa"), factors: 1 }
}

/** The methods of a first factor, from the flow's result (see `firstFactorOf`). */
export function firstFactorAmr(ctx: Context, result: SignInResult): string[] {
  return [...firstFactorOf(ctx, result).amr]
}

/** `a` then the values of `b` not in it (order kept, no duplicates). */
export function unionAmr(a: readonly string[], b: readonly string[]): string[] {
  return [...new Set([...a, ...b])]
}

export type { VerifiedFactor } from "../types/request-memo.js"

/**
 * THE rule of two factors: a second factor counts only when it is independent of the first, i.e. of
 * another kind of credential. A passkey after a passkey (the same one, or another on the same
 * authenticator) proves one possession, not two, so it never completes a sign-in a passkey began.
 */
export function independentOf(firstFactorType: string, factor: VerifiedFactor): boolean {
  return factor.kind !== firstFactorType
}

/**
 * Records that a second factor was verified in this request: a sign-in it completes
 * (`completeSignIn`) then carries that factor and `mfa`, authenticated now.
 */
export function recordVerifiedFactor(ctx: Context, factor: VerifiedFactor): void {
  ctx.memo.verifiedFactors = [...(ctx.memo.verifiedFactors ?? []), factor]
}

/**
 * The authentication of a sign-in whose first factor was of account type `firstFactorType`, with the
 * second factors verified in this request, if any (time: now, and `mfa`). A factor that is not
 * independent of the first is a capability's mistake (it must refuse such a factor before): thrown,
 * so that no session is issued on one credential counted twice.
 */
export function withVerifiedFactors(ctx: Context, firstFactorType: string, first: Authentication | undefined): Authentication | undefined {
  const second = ctx.memo.verifiedFactors
  if (!second?.length) return first
  if (!second.every((factor) => independentOf(firstFactorType, factor))) throw new Error(`a second factor of the first factor's own kind ("${firstFactorType}") was recorded: refused`)
  const amr = second.reduce<string[]>((all, factor) => unionAmr(all, factor.amr), [...(first?.amr ?? [])])
  return { time: nowSeconds(), amr: unionAmr(amr, ["mfa"]) }
}
