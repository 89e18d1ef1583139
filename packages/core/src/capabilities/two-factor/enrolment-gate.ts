/**
 * Turning two factors on is a change to how the account is protected, and once on, whoever holds
 * the authenticator holds the account: a 40-day-old or stolen session must not enrol the thief's
 * app and lock the owner out. So, as ASVS 5.0 asks before any change to authentication factors,
 * enrolling and confirming for a signed-in user need the session's authentication within
 * `twoFactor.freshAge` (any first factor: the user has no second one yet), else
 * `ReauthenticationRequired` `AUTHENTICATION_TOO_OLD` and the user signs in again. A sign-in held
 * to enrol (`twoFactor.required`) has just proven its first factor: it does not come here.
 */
import { assertRecentAuthentication } from "../../kernel/sessions/freshness.js"
import { requirePrincipal } from "../../kernel/sessions/principal.js"
import type { AuthRequest, Context } from "../../kernel/types/http.js"
import { twoFactorOptions } from "./actions.js"

/** The signed-in user who may enrol now (`SessionRequired` without a session, `ReauthenticationRequired` when its sign-in is too old). */
export async function freshEnrollingUser(req: AuthRequest, ctx: Context): Promise<string> {
  const { freshAge } = twoFactorOptions(ctx)
  const principal = await requirePrincipal(req, ctx, "Sign in to manage two-factor sign-in")
  assertRecentAuthentication(ctx, principal, { maxAge: freshAge })
  return principal.userId
}
