/**
 * Two-factor management as server functions: the same actions as `POST {basePath}/two-factor`,
 * for the signed-in user of `request`, run as `Auth()` runs a request (see `serverCall`).
 */
import { serverCall } from "../../kernel/run/server-call.js"
import { requirePrincipal } from "../../kernel/sessions/principal.js"
import type { AuthConfig } from "../../kernel/types/config.js"
import { confirmTotp, disableTwoFactor, enrollTotp, regenerateBackupCodes, twoFactorStatus, type TotpEnrollment, type TwoFactorStatus } from "./actions.js"
import { freshEnrollingUser } from "./enrolment-gate.js"
import { qrCodeSvg } from "./qr-svg.js"

const who = "Sign in to manage two-factor sign-in"

/** Whether the signed-in user has two factors on, and how many backup codes are left. @throws SessionRequired, TwoFactorError */
export function getTwoFactorStatus(request: Request, config: AuthConfig): Promise<TwoFactorStatus> {
  return serverCall(request, config, "two-factor", async (req, ctx) => twoFactorStatus(ctx, (await requirePrincipal(req, ctx, who)).userId))
}

/**
 * Starts enrolling a TOTP authenticator for the signed-in user: the secret (base32, to type in), the
 * `otpauth://` URI and a QR code of it as SVG markup. Not enabled until `confirmTotp` gets a code.
 * Needs a sign-in within `twoFactor.freshAge` (a change to the account's factors).
 * @throws SessionRequired, ReauthenticationRequired (`AUTHENTICATION_TOO_OLD`), TwoFactorError (`ALREADY_ENABLED`, `TWO_FACTOR_OFF`)
 */
export function startTotpEnrollment(request: Request, config: AuthConfig): Promise<TotpEnrollment & { qrSvg: string }> {
  return serverCall(request, config, "two-factor", async (req, ctx) => {
    const enrollment = await enrollTotp(ctx, await freshEnrollingUser(req, ctx))
    return { ...enrollment, qrSvg: qrCodeSvg(enrollment.uri, { title: "Scan with your authenticator app" }) }
  })
}

/**
 * Enables two factors with a first code from the enrolled app; answers the 10 backup codes, shown
 * this once. Needs a sign-in within `twoFactor.freshAge`, as `startTotpEnrollment` does.
 * @throws SessionRequired, ReauthenticationRequired (`AUTHENTICATION_TOO_OLD`), TwoFactorError
 */
export function confirmTotpEnrollment(request: Request, config: AuthConfig, input: { code: string }): Promise<{ enabled: true; backupCodes: string[] }> {
  return serverCall(request, config, "two-factor", async (req, ctx) => confirmTotp(ctx, await freshEnrollingUser(req, ctx), input.code))
}

/** Turns two factors off, with a current code (TOTP or backup). @throws SessionRequired, TwoFactorError (`CODE_INVALID`, `TOTP_LOCKED`), RateLimited */
export function disableTwoFactorSignIn(request: Request, config: AuthConfig, input: { code: string }): Promise<{ enabled: false }> {
  return serverCall(request, config, "two-factor", async (req, ctx) => disableTwoFactor(ctx, (await requirePrincipal(req, ctx, who)).userId, input.code))
}

/** Replaces the backup codes (the old ones stop working), with a current code. @throws SessionRequired, TwoFactorError, RateLimited */
export function regenerateTwoFactorBackupCodes(request: Request, config: AuthConfig, input: { code: string }): Promise<{ backupCodes: string[] }> {
  return serverCall(request, config, "two-factor", async (req, ctx) => regenerateBackupCodes(ctx, (await requirePrincipal(req, ctx, who)).userId, input.code))
}
