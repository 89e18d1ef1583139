/**
 * Turning two factors on is a change to how the account is protected, and once on, whoever holds
 * the authenticator holds the account: a 40-day-old or stolen session must not enrol the thief's
 * app and lock the owner out. So, as ASVS 5.0 asks before any change to authentication factors,
 * enrolling and confirming for a signed-in user need the session's authentication within
 * `twoFactor.freshAge` (any first factor: the user has no second one yet), else
 * `ReauthenticationRequired` `AUTHENTICATION_TOO_OLD` and the user signs in again. A sign-in held
 * to enrol (`twoFactor.required`) has just proven its first factor: it does not come here.
 *
 * A confirmed enrolment's first code is a second factor verified now: the session is re-issued as
 * authenticated with both (as after a step-up), so the user can go on to add a passkey or unlink
 * an account at once instead of being asked for a code again.
 */
import { assertRecentAuthentication } from "../../kernel/sessions/freshness.js"
import { requirePrincipal, type Principal } from "../../kernel/sessions/principal.js"
import type { AuthRequest, Context, Cookie } from "../../kernel/types/http.js"
import { confirmTotp, twoFactorOptions } from "./manage.js"
import { reissueWithSecondFactor } from "./step-up.js"

/** The signed-in principal who may enrol now (`SessionRequired` without a session, `ReauthenticationRequired` when its sign-in is too old). */
export async function freshEnrolling(req: AuthRequest, ctx: Context): Promise<Principal> {
  const { freshAge } = twoFactorOptions(ctx)
  const principal = await requirePrincipal(req, ctx, "Sign in to manage two-factor sign-in")
  assertRecentAuthentication(ctx, principal, { maxAge: freshAge })
  return principal
}

/** `totp-confirm` for the signed-in user: two factors on, the backup codes once, and the session re-issued with both factors (its cookies). */
export async function confirmForSession(req: AuthRequest, ctx: Context, code: unknown): Promise<{ enabled: true; backupCodes: string[]; cookies: Cookie[] }> {
  const principal = await freshEnrolling(req, ctx)
  const confirmed = await confirmTotp(ctx, principal.userId, code)
  const { cookies } = await reissueWithSecondFactor(req, ctx, principal)
  return { ...confirmed, cookies }
}
