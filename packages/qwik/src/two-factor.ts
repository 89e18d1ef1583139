/**
 * The signed-in user's two-factor sign-in from Qwik server code (`routeLoader$`, `routeAction$`,
 * `server$`): core's server functions, given the request as core sees it in this request (its
 * cookies as updated by earlier calls, so a session refreshed a moment ago counts).
 *
 * Like core's, they check no CSRF token: use them in Qwik City actions, whose same-origin check
 * protects the POST (keep `checkOrigin` on), or behind your own protection. Errors are core's
 * (`SessionRequired`, `TwoFactorError` with its `code`, `RateLimited` for too many codes).
 *
 * The second step of a sign-in itself is core's route (`{basePath}/two-factor`, or
 * `pages.twoFactor`): the binding's sign-in already sends a user with two factors there.
 */
import {
  disableTwoFactorSignIn as coreDisable,
  getTwoFactorStatus as coreStatus,
  regenerateTwoFactorBackupCodes as coreRegenerate,
  startTotpEnrollment as coreStart,
  type TotpEnrollment,
  type TwoFactorStatus,
} from "@authlib/core"
import { totpConfirmationResult } from "@authlib/core/internal"
import type { RequestEventCommon } from "@builder.io/qwik-city"
import { internalRequest, requireContext } from "./context.js"
import { applyCookies } from "./cookies.js"

async function coreRequest(ev: RequestEventCommon, caller: string) {
  const ctx = await requireContext(ev, caller)
  return { request: internalRequest(ev, ctx, "two-factor"), config: ctx.config }
}

/** Whether the signed-in user has two factors on, and how many backup codes are left. */
export async function getTwoFactorStatus(ev: RequestEventCommon): Promise<TwoFactorStatus> {
  const { request, config } = await coreRequest(ev, "getTwoFactorStatus")
  return coreStatus(request, config)
}

/**
 * Starts enrolling an authenticator app: the base32 `secret` (to type in), the `otpauth://` `uri`
 * and `qrSvg`, a QR code of the URI as SVG markup (core's, with no script or link: safe to render
 * with `dangerouslySetInnerHTML`). Nothing is enabled until `confirmTotpEnrollment` gets a code;
 * `TwoFactorError` / `ALREADY_ENABLED` while it is on.
 */
export async function startTotpEnrollment(ev: RequestEventCommon): Promise<TotpEnrollment & { qrSvg: string }> {
  const { request, config } = await coreRequest(ev, "startTotpEnrollment")
  return coreStart(request, config)
}

/**
 * Turns two-factor sign-in on with a first code from the enrolled app; resolves the 10 backup
 * codes, to show this once. The code is a second factor verified now: the session is re-issued as
 * authenticated with both (its cookie set here; later reads in this request see it), so adding a
 * passkey or unlinking an account right after needs no step-up.
 */
export async function confirmTotpEnrollment(ev: RequestEventCommon, input: { code: string }): Promise<{ enabled: true; backupCodes: string[] }> {
  const ctx = await requireContext(ev, "confirmTotpEnrollment")
  const { cookies, ...confirmed } = await totpConfirmationResult(internalRequest(ev, ctx, "two-factor"), ctx.config, input)
  applyCookies(ev, cookies)
  // A later session read in this request must see the re-issued session, not a cached result.
  ctx.session = undefined
  return confirmed
}

/** Turns two-factor sign-in off, with a current code (from the app, or a backup code). */
export async function disableTwoFactorSignIn(ev: RequestEventCommon, input: { code: string }): Promise<{ enabled: false }> {
  const { request, config } = await coreRequest(ev, "disableTwoFactorSignIn")
  return coreDisable(request, config, input)
}

/** Replaces the backup codes with 10 new ones (the old ones stop working), with a current code. */
export async function regenerateTwoFactorBackupCodes(ev: RequestEventCommon, input: { code: string }): Promise<{ backupCodes: string[] }> {
  const { request, config } = await coreRequest(ev, "regenerateTwoFactorBackupCodes")
  return coreRegenerate(request, config, input)
}
