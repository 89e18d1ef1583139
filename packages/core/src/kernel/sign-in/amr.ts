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
 * Second factors (TOTP or a backup code) add `otp` and `mfa`; see `recordVerifiedFactor`.
 */
import { registry } from "../registry/installed.js"
import type { Context } from "../types/http.js"
import type { Authentication, SignInResult } from "../types/sign-in.js"

/** Seconds since the epoch, as JWT `auth_time` counts. */
export const nowSeconds = (): number => Math.floor(Date.now() / 1000)

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
      return result.userVerified && registry().passkeyIsMultiFactor(ctx.config) ? ["hwk", "user", "mfa"] : ["hwk", "user"]
    default:
      return []
  }
}

/** `a` then the values of `b` not in it (order kept, no duplicates). */
export function unionAmr(a: readonly string[], b: readonly string[]): string[] {
  return [...new Set([...a, ...b])]
}

/** Factors a capability verified during this request (one context per request). */
const verified = new WeakMap<Context, string[]>()

/**
 * Records that a second factor (`amr`, e.g. `["otp"]`) was verified in this request: a sign-in it
 * completes (`completeSignIn`) then carries that factor and `mfa`, authenticated now.
 */
export function recordVerifiedFactor(ctx: Context, amr: readonly string[]): void {
  verified.set(ctx, unionAmr(verified.get(ctx) ?? [], amr))
}

/** `first` with the second factors verified in this request, if any (time: now). */
export function withVerifiedFactors(ctx: Context, first: Authentication | undefined): Authentication | undefined {
  const second = verified.get(ctx)
  if (!second?.length) return first
  return { time: nowSeconds(), amr: unionAmr(unionAmr(first?.amr ?? [], second), ["mfa"]) }
}
