/**
 * A passkey as the second factor of a pending sign-in (`action=verify-passkey` + `data`): the
 * options came from `GET webauthn-options/:provider`, which during a pending sign-in answers the
 * pending user's passkeys with a challenge bound to that sign-in (the `heldSignIn` hook below).
 * The passkey capability verifies the assertion as it verifies a passkey sign-in; the sign-in then
 * completes as after a code. A sign-in held only to enrol (`twoFactor.required`) has no second
 * factor yet, so a passkey cannot finish it (`NOT_ENABLED`). Nor can one finish a sign-in that a
 * passkey began, whatever its user verification (`SAME_FACTOR`): that would count one possession as
 * two factors. Such a sign-in is finished with a TOTP or backup code only.
 */
import { independentOf, recordVerifiedFactor, type VerifiedFactor } from "../../kernel/sign-in/amr.js"
import { TwoFactorError } from "./errors.js"
import { completeHeldSignIn, type HeldSignInCompletion } from "../../kernel/sign-in/hold.js"
import type { HeldSignIn } from "../../kernel/types/capability.js"
import type { AuthRequest, AuthResponse, Context } from "../../kernel/types/http.js"
import { passkeyProviderForUser, verifyHeldSignInPasskey } from "../webauthn/index.js"
import type { WebAuthnConfig } from "../../kernel/types/providers.js"
import { twoFactorOptions } from "./manage.js"
import { clearPending, firstFactorOf, readPending, type PendingTwoFactor } from "./pending.js"
import { answeringForms, signInMissing } from "./refusal.js"

/** A passkey as a second factor: possession of a hardware-guarded key (RFC 8176 `hwk`), of the kind of a passkey first factor. */
export const PASSKEY_FACTOR: VerifiedFactor = { kind: "webauthn", amr: ["hwk"] }

/** Whether a passkey may be the second factor of `pending`: not for a sign-in held to enrol, nor one a passkey began. */
export function passkeyMayFinish(pending: PendingTwoFactor): boolean {
  return !pending.enrol && independentOf(firstFactorOf(pending), PASSKEY_FACTOR)
}

/** The passkey provider that may finish `pending` (the user has a passkey, and no passkey began the sign-in), or undefined. */
export async function passkeyToFinish(ctx: Context, pending: PendingTwoFactor): Promise<WebAuthnConfig | undefined> {
  if (!passkeyMayFinish(pending) || pending.userId === undefined) return undefined
  return passkeyProviderForUser(ctx, pending.userId)
}

/**
 * The kernel's view of the pending sign-in for other capabilities' routes (the passkey options of a
 * second factor), or undefined: also for a pending sign-in that no passkey may finish, so no options
 * are bound to it.
 */
export async function heldTwoFactorSignIn(req: AuthRequest, ctx: Context): Promise<HeldSignIn | undefined> {
  if (!ctx.config.twoFactor) return undefined
  const pending = await readPending(req, ctx)
  return pending?.userId !== undefined && passkeyMayFinish(pending) ? { id: pending.id, userId: pending.userId } : undefined
}

/**
 * Ends `pending`: its user stored as planned when it was held (the kernel checks the plan still
 * names that user), `beforeSession` (an enrolment stores its second factor), then its session, the
 * `signIn` event owed, and the pending cookie cleared.
 */
export function finishPending(
  req: AuthRequest,
  ctx: Context,
  pending: PendingTwoFactor,
  extraCookies: AuthResponse["cookies"] = [],
  beforeSession?: HeldSignInCompletion["beforeSession"],
): Promise<AuthResponse> {
  const cookies = [...extraCookies, ...clearPending(req, ctx)]
  return completeHeldSignIn(req, ctx, { resume: pending.resume, userId: pending.userId, callbackUrl: pending.callbackUrl, event: pending.event, cookies, ...(beforeSession ? { beforeSession } : {}) })
}

/**
 * Verifies a passkey assertion (`data`, for options made during the pending sign-in) and ends the
 * request's pending sign-in with its session: the one path of `action=verify-passkey` and
 * `completeTwoFactorSignInWithPasskey`. Throws `SIGN_IN_MISSING`, `NOT_ENABLED`, the passkey refusals.
 */
export async function verifyPendingPasskey(req: AuthRequest, ctx: Context, input: { data: unknown; provider?: unknown }): Promise<AuthResponse> {
  twoFactorOptions(ctx)
  const pending = await readPending(req, ctx)
  if (!pending) throw signInMissing()
  if (pending.enrol) throw new TwoFactorError("Enrol an authenticator app first: this sign-in has no second factor yet", { code: "NOT_ENABLED" })
  if (!passkeyMayFinish(pending))
    throw new TwoFactorError("This sign-in began with a passkey: finish it with a code from your authenticator app or a backup code", { code: "SAME_FACTOR" })
  // Past `passkeyMayFinish` (not held to enrol), the pending user is stored.
  if (pending.userId === undefined) throw signInMissing()
  const { cookies } = await verifyHeldSignInPasskey(req, ctx, { data: input.data, provider: input.provider, held: { id: pending.id, userId: pending.userId } })
  recordVerifiedFactor(ctx, PASSKEY_FACTOR)
  return finishPending(req, ctx, pending, cookies)
}

/** `POST two-factor` `action=verify-passkey` + `data` (and optionally `provider`). */
export function verifyPasskey(req: AuthRequest, ctx: Context): Promise<AuthResponse> {
  return answeringForms(req, ctx, () => verifyPendingPasskey(req, ctx, { data: req.body.data, provider: req.body.provider }))
}
