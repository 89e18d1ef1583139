/**
 * Enrolment forced by `twoFactor.required`: a user without two factors whom the policy names is held
 * after the first factor (no session, nothing stored) with a pending sign-in marked `enrol`. Its
 * secret lives in that pending sign-in's own cookie, never in the adapter before it is confirmed:
 * it belongs to the sign-in that made it and is shown to no other (a second sign-in with the same
 * password gets its own; `totp-enroll` replaces it), so someone holding only the password can
 * neither read nor plant the secret the owner confirms. `totp-confirm` checks the first code
 * against it, and the sign-in then completes: the user stored as planned (a new user created now),
 * the secret stored and enabled, the backup codes answered this once (to a script as
 * `{ enabled, backupCodes, url }` with the session cookies, to the built-in page as a page that
 * lists them and links on to the callback URL).
 */
import { TwoFactorError } from "./errors.js"
import { formTargets, pageHeaders } from "../../kernel/pages/index.js"
import { count } from "../../kernel/rate-limit/limiter.js"
import type { AuthRequest, AuthResponse, Context, Cookie } from "../../kernel/types/http.js"
import { enableConfirmedKey, enrollmentOf, type TotpEnrollment } from "./manage.js"
import { base32Encode } from "./base32.js"
import { codeOf } from "./check-code.js"
import { renderBackupCodesPage } from "./page.js"
import { finishPending } from "./passkey.js"
import { readPending, rewritePending, type PendingTwoFactor } from "./pending.js"
import { answeringForms, fromForm, signInMissing } from "./refusal.js"
import { createTotpKey, importTotpKey, verifyTotp, type TotpKey } from "./totp.js"

/** The request's pending sign-in held to enrol; `SIGN_IN_MISSING` for none (or one held for a code). */
export async function pendingEnrolment(req: AuthRequest, ctx: Context): Promise<PendingTwoFactor> {
  const pending = await readPending(req, ctx)
  if (!pending?.enrol) throw signInMissing()
  return pending
}

/** What an app shows the pending enrolment's `key`, labelled with the held user's address or name. */
const shown = (ctx: Context, pending: PendingTwoFactor, key: TotpKey): TotpEnrollment => enrollmentOf(ctx, key, pending.resume.result.user, "authlib user")

/** A new secret for the pending enrolment (replacing its own earlier one), kept in its cookie. */
async function newEnrolment(req: AuthRequest, ctx: Context, pending: PendingTwoFactor): Promise<{ enrolment: TotpEnrollment; cookies: Cookie[] }> {
  const key = createTotpKey()
  const cookies = await rewritePending(req, ctx, { ...pending, enrolment: base32Encode(key.secret) })
  return { enrolment: shown(ctx, pending, key), cookies }
}

/**
 * What the page shows a pending enrolment: the secret it has (a reload or a mistyped code must not
 * change the QR code the user scanned), else a new one and the cookie that keeps it.
 */
export async function currentEnrolment(req: AuthRequest, ctx: Context, pending: PendingTwoFactor): Promise<{ enrolment: TotpEnrollment; cookies: Cookie[] }> {
  if (pending.enrolment) return { enrolment: shown(ctx, pending, importTotpKey(pending.enrolment)), cookies: [] }
  return newEnrolment(req, ctx, pending)
}

/** `totp-enroll` for a pending enrolment: a new secret (replacing the sign-in's earlier one). */
export async function enrolPending(req: AuthRequest, ctx: Context): Promise<AuthResponse<TotpEnrollment>> {
  const { enrolment, cookies } = await newEnrolment(req, ctx, await pendingEnrolment(req, ctx))
  return { json: enrolment, cookies }
}

/** The first code checked against the pending enrolment's own secret (counted per sign-in, and per user when stored); its time step. */
async function confirmedStep(ctx: Context, pending: PendingTwoFactor, code: unknown): Promise<{ key: TotpKey; step: number }> {
  const input = codeOf(code)
  if (!pending.enrolment) throw new TwoFactorError("Enrol an authenticator first", { code: "NOT_ENROLLED" })
  if (ctx.config.rateLimit) {
    await count(ctx, "twoFactor.perSignIn", pending.id, 1)
    if (pending.userId !== undefined) await count(ctx, "twoFactor.perUser", pending.userId, 1)
  }
  const key = importTotpKey(pending.enrolment)
  const step = verifyTotp(key, input, { timeMs: Date.now() })
  if (step === null) throw new TwoFactorError("The code is not valid", { code: "CODE_INVALID" })
  return { key, step }
}

/** `totp-confirm` + `code` for a pending enrolment: the user stored, two factors on, the backup codes once, and the session. */
export function confirmPending(req: AuthRequest, ctx: Context): Promise<AuthResponse> {
  return answeringForms(req, ctx, async () => {
    const pending = await pendingEnrolment(req, ctx)
    const { key, step } = await confirmedStep(ctx, pending, req.body.code)
    let backupCodes: string[] = []
    const done = await finishPending(req, ctx, pending, [], async (user) => {
      if (user.id === undefined) throw signInMissing()
      ;({ backupCodes } = await enableConfirmedKey(ctx, user.id, key, step))
    })
    const url = done.redirect
    if (!url) throw new TwoFactorError("The sign-in could not be completed", { code: "SIGN_IN_MISSING" })
    if (!fromForm(req)) return { json: { enabled: true, backupCodes, url }, cookies: done.cookies ?? [] }
    const html = renderBackupCodesPage({ backupCodes, continueUrl: url, theme: ctx.config.theme })
    return { html, headers: pageHeaders(html, formTargets(ctx.origin, ctx.config.pages, url)), cookies: done.cookies ?? [] }
  })
}
