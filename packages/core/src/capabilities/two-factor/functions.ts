/**
 * Two-factor management as server functions: the same actions as `POST {basePath}/two-factor`,
 * for the signed-in user of `request`, run as `Auth()` runs a request (see `serverCall`).
 */
import { serverCall } from "../../kernel/run/server-call.js"
import { requirePrincipal } from "../../kernel/sessions/principal.js"
import type { AuthConfig } from "../../kernel/types/config.js"
import { disableTwoFactor, enrollTotp, regenerateBackupCodes, twoFactorStatus, type TotpEnrollment, type TwoFactorStatus } from "./manage.js"
import { serializeCookie, type Cookie } from "../../kernel/cookies/serialize.js"
import { confirmForSession, freshEnrolling } from "./enrolment-gate.js"
import { qrCodeSvg } from "./qr-svg.js"

const who = "Sign in to manage two-factor sign-in"

/** Whether the signed-in user has two factors on, and how many backup codes are left. @throws SessionRequired, TwoFactorError */
export function getTwoFactorStatus(request: Request, config: AuthConfig): Promise<TwoFactorStatus> {
  return serverCall(request, config, "two-factor", async (req, ctx) => twoFactorStatus(ctx, (await requirePrincipal(req, ctx, who)).userId))
}

/**
 * Starts enrolling a TOTP authenticator for the signed-in user: the secret (base32, to type in), the
 * `otpauth://` URI and a QR code of it as SVG markup. Not enabled until `confirmTotpEnrollment` gets a code.
 * Needs a sign-in within `twoFactor.freshAge` (a change to the account's factors).
 * @throws SessionRequired, ReauthenticationRequired (`AUTHENTICATION_TOO_OLD`), TwoFactorError (`ALREADY_ENABLED`, `TWO_FACTOR_OFF`)
 */
export function startTotpEnrollment(request: Request, config: AuthConfig): Promise<TotpEnrollment & { qrSvg: string }> {
  return serverCall(request, config, "two-factor", async (req, ctx) => {
    const enrollment = await enrollTotp(ctx, (await freshEnrolling(req, ctx)).userId)
    return { ...enrollment, qrSvg: qrCodeSvg(enrollment.uri, { title: "Scan with your authenticator app" }) }
  })
}

/** `confirmTotpEnrollment`'s work, with the cookies as objects (for bindings that set them themselves). */
export function totpConfirmationResult(request: Request, config: AuthConfig, input: { code: string }): Promise<{ enabled: true; backupCodes: string[]; cookies: Cookie[] }> {
  return serverCall(request, config, "two-factor", (req, ctx) => confirmForSession(req, ctx, input.code))
}

/**
 * Enables two factors with a first code from the enrolled app; answers the 10 backup codes, shown
 * this once, and `setCookie`: the session re-issued as authenticated now with both factors (the
 * code was a second factor verified now), which the response must carry, else the browser keeps
 * the session it had (and is asked for a code before its next change to the ways in). Needs a
 * sign-in within `twoFactor.freshAge`, as `startTotpEnrollment` does.
 * @throws SessionRequired, ReauthenticationRequired (`AUTHENTICATION_TOO_OLD`), TwoFactorError
 */
export async function confirmTotpEnrollment(request: Request, config: AuthConfig, input: { code: string }): Promise<{ enabled: true; backupCodes: string[]; setCookie: string[] }> {
  const { cookies, ...confirmed } = await totpConfirmationResult(request, config, input)
  return { ...confirmed, setCookie: cookies.map(serializeCookie) }
}

/** Turns two factors off, with a current code (TOTP or backup). @throws SessionRequired, TwoFactorError (`CODE_INVALID`, `TOTP_LOCKED`), RateLimited */
export function disableTwoFactorSignIn(request: Request, config: AuthConfig, input: { code: string }): Promise<{ enabled: false }> {
  return serverCall(request, config, "two-factor", async (req, ctx) => disableTwoFactor(ctx, (await requirePrincipal(req, ctx, who)).userId, input.code))
}

/** Replaces the backup codes (the old ones stop working), with a current code. @throws SessionRequired, TwoFactorError, RateLimited */
export function regenerateTwoFactorBackupCodes(request: Request, config: AuthConfig, input: { code: string }): Promise<{ backupCodes: string[] }> {
  return serverCall(request, config, "two-factor", async (req, ctx) => regenerateBackupCodes(ctx, (await requirePrincipal(req, ctx, who)).userId, input.code))
}
