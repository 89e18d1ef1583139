/**
 * Enrolment forced by `twoFactor.required`: a user without two factors whom the policy names is held
 * after the first factor (no session) with a pending sign-in marked `enrol`. For that sign-in,
 * `totp-enroll` and `totp-confirm` act for its user, as they act for a signed-in one; a confirmed
 * enrolment completes the sign-in and answers the backup codes this once: to a script as
 * `{ enabled, backupCodes, url }` with the session cookies, to the built-in page as a page that
 * lists them and links on to the callback URL.
 */
import { TwoFactorError } from "./errors.js"
import { adapterMethods } from "../../kernel/ports/ports.js"
import { formTargets, pageHeaders } from "../../kernel/pages/index.js"
import type { AuthRequest, AuthResponse, Context } from "../../kernel/types/http.js"
import { confirmTotp, enrollTotp, type TotpEnrollment } from "./actions.js"
import { base32Encode } from "./base32.js"
import { otpauthUri } from "./otpauth-uri.js"
import { renderBackupCodesPage } from "./page.js"
import { finishPending } from "./passkey.js"
import { readPending, type PendingTwoFactor } from "./pending.js"
import { answeringForms, fromForm, signInMissing } from "./refusal.js"
import { openTotpKey } from "./secret-box.js"
import { twoFactorStore } from "./store.js"

/** The request's pending sign-in held to enrol; `SIGN_IN_MISSING` for none (or one held for a code). */
export async function pendingEnrolment(req: AuthRequest, ctx: Context): Promise<PendingTwoFactor> {
  const pending = await readPending(req, ctx)
  if (!pending?.enrol) throw signInMissing()
  return pending
}

/**
 * What the page shows a pending enrolment: the unconfirmed secret the user has (a reload or a
 * mistyped code must not change the QR code they scanned), else a new one. Reusing it gives nothing
 * away: it was made for this user, and whoever holds their first factor may enrol anyway.
 */
export async function currentEnrolment(ctx: Context, pending: PendingTwoFactor): Promise<TotpEnrollment> {
  const record = await twoFactorStore(ctx).getTwoFactor(pending.userId)
  if (record && !record.enabled) {
    const key = await openTotpKey(record.secret, pending.userId, ctx.config.secret).then(
      (opened) => opened.key,
      () => undefined, // sealed with a retired secret: enrol anew
    )
    if (key) {
      const user = await adapterMethods(ctx.config.adapter, ["getUser"], "Two-factor sign-in").getUser(pending.userId)
      const issuer = ctx.config.twoFactor?.issuer ?? "authlib"
      return { secret: base32Encode(key.secret), uri: otpauthUri(key, { issuer, account: user?.email ?? user?.name ?? pending.userId }) }
    }
  }
  return enrollTotp(ctx, pending.userId)
}

/** `totp-enroll` for a pending enrolment: a new secret (replacing an unconfirmed one). */
export async function enrolPending(req: AuthRequest, ctx: Context): Promise<TotpEnrollment> {
  return enrollTotp(ctx, (await pendingEnrolment(req, ctx)).userId)
}

/** `totp-confirm` + `code` for a pending enrolment: enabled, the backup codes once, and the session. */
export function confirmPending(req: AuthRequest, ctx: Context): Promise<AuthResponse> {
  return answeringForms(req, ctx, async () => {
    const pending = await pendingEnrolment(req, ctx)
    const { backupCodes } = await confirmTotp(ctx, pending.userId, req.body.code)
    const done = await finishPending(req, ctx, pending)
    const url = done.redirect
    if (!url) throw new TwoFactorError("The sign-in could not be completed", { code: "SIGN_IN_MISSING" })
    if (!fromForm(req)) return { json: { enabled: true, backupCodes, url }, cookies: done.cookies ?? [] }
    const html = renderBackupCodesPage({ backupCodes, continueUrl: url, theme: ctx.config.theme })
    return { html, headers: pageHeaders(html, formTargets(ctx.origin, ctx.config.pages, url)), cookies: done.cookies ?? [] }
  })
}
