/**
 * Step-up: the signed-in user proves a second factor again (`POST {basePath}/two-factor`,
 * `action=step-up` + `code`, or the server function `stepUpTwoFactor`), and the session is re-issued recording it:
 * authenticated now, its methods plus `otp` and `mfa`. Changes to the ways in (passkeys, linked
 * accounts) then pass `requireFreshSecondFactor` for `twoFactor.freshAge` seconds; the app's own
 * sensitive actions ask `requireRecentAuthentication`.
 *
 * The code is checked as every code is (`check-code.ts`: counted, accepted once, same refusal for
 * every cause); the session is replaced, never extended in place: a new JWT, or a new stored
 * session with a new token (the privilege changed, so the token does too).
 */
import { nowSeconds, unionAmr } from "../../kernel/sign-in/amr.js"
import { requirePrincipal, type Principal } from "../../kernel/sessions/principal.js"
import { sessionStrategy } from "../../kernel/sessions/strategy.js"
import type { AuthRequest, AuthResponse, Context, Cookie } from "../../kernel/types/http.js"
import { twoFactorOptions } from "./actions.js"
import { checkCode, codeOf } from "./check-code.js"

/** The answer of a step-up: the new authentication time (seconds since the epoch). */
export interface StepUpResult {
  authTime: number
}

/**
 * Checks `code` for the signed-in user and re-issues their session as freshly authenticated with
 * two factors: the one path of `action=step-up` and `stepUpTwoFactor`. Resolves the new time and
 * the session's cookies.
 */
export async function stepUp(req: AuthRequest, ctx: Context, code: unknown): Promise<StepUpResult & { cookies: Cookie[] }> {
  twoFactorOptions(ctx)
  const principal = await requirePrincipal(req, ctx, "Sign in to verify a second factor")
  await checkCode(ctx, principal.userId, codeOf(code))
  return reissueWithSecondFactor(req, ctx, principal)
}

/**
 * The signed-in user's session replaced by one authenticated now with a second factor (its methods
 * plus `otp` and `mfa`): after a step-up code, or the first code of an enrolment just confirmed (a
 * one-time code is independent of every first factor). Resolves the new time and the cookies.
 */
export async function reissueWithSecondFactor(req: AuthRequest, ctx: Context, principal: Principal): Promise<StepUpResult & { cookies: Cookie[] }> {
  const authentication = { time: nowSeconds(), amr: unionAmr(principal.amr, ["otp", "mfa"]) }
  const cookies = await sessionStrategy(ctx.config).reauthenticate(req, ctx, authentication)
  return { authTime: authentication.time, cookies }
}

/** `POST two-factor` `action=step-up`. */
export async function stepUpAction(req: AuthRequest, ctx: Context): Promise<AuthResponse<StepUpResult>> {
  const { authTime, cookies } = await stepUp(req, ctx, req.body.code)
  return { json: { authTime }, cookies }
}
