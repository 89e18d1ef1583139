/**
 * How a user authenticated, in RFC 8176 "Authentication Method Reference" values, recorded with
 * every session (`Authentication`) so step-up can ask how recent and how strong it was.
 *
 * First factors:
 * - credentials: `pwd` (the app's `authorize` checked a password or the like);
 * - e-mail link: `otp`. RFC 8176 has no e-mail value; the link carries a random one-time secret
 *   delivered out of band, which is what `otp` describes (`sms`/`tel` name the channel, not this);
 * - OAuth/OIDC: `fed`, an unregistered value (RFC 8176 §1 allows them): the user authenticated at
 *   another party whose methods we do not know. Claiming `pwd` would say more than we know;
 * - passkey: `hwk` (proof of possession of a key the authenticator guards, signing only after a
 *   gesture) and `user` (WebAuthn's user-presence test). With user verification (a PIN or
 *   biometric), `mfa` too unless a capability says otherwise (`Capability.passkeyIsMultiFactor`):
 *   the authenticator proved possession and the person, so step-up treats it as two factors.
 * Second factors (TOTP or a backup code: `otp`; a passkey after another first factor: `hwk`) add
 * their methods and `mfa`, only when independent of the first (`independentOf`); see `recordVerifiedFactor`.
 */
import { nowSeconds } from "../sessions/lifetime.js"
import type { Context } from "../types/http.js"
import type { VerifiedFactor } from "../types/request-memo.js"
import type { Authentication, SignInResult } from "../types/sign-in.js"


/** The methods of a first factor, from the flow's result. */
export function firstFactorAmr(ctx: Context, result: SignInResult): string[] {
  switch (result.account.type) {
    case "credentials":
      return ["pwd"]
    case "email":
      return ["otp"]
    case "oauth":
    case "oidc":
      return ["fed"]
    case "webauthn":
      return result.userVerified && ctx.config.registry.passkeyIsMultiFactor(ctx.config) ? ["hwk", "user", "mfa"] : ["hwk", "user"]
    default:
      return []
  }
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
