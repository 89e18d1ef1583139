/**
 * Step-up: the signed-in user proves a second factor again (`POST {basePath}/two-factor`,
 * `action=step-up` + `code`, or + `data` for a passkey; or the server function `stepUpTwoFactor`),
 * and the session is re-issued recording it: authenticated now, its methods plus `otp` (or `hwk`)
 * and `mfa`. Changes to the ways in (passkeys, linked accounts) then pass `requireFreshSecondFactor`
 * for `twoFactor.freshAge` seconds; the app's own sensitive actions ask `requireRecentAuthentication`.
 *
 * A passkey steps up as it signs in: with user verification counted as two factors
 * (`passkeyCountsAsTwoFactors`), on its own; without, only as a factor independent of the session's
 * (never for a session a passkey signed in: one possession is not two factors, `SAME_FACTOR`). Its
 * options come from `GET webauthn-options/:provider?action=authenticate&purpose=step-up`, bound to
 * the signed-in user and to step-up.
 *
 * The code is checked as every code is (`check-code.ts`: counted, accepted once, same refusal for
 * every cause); the session is replaced, never extended in place: a new JWT, or a new stored
 * session with a new token (the privilege changed, so the token does too).
 */
import { nowSeconds } from "../../kernel/sessions/lifetime.js"
import { unionAmr } from "../../kernel/sign-in/amr.js"
import { requirePrincipal, type Principal } from "../../kernel/sessions/principal.js"
import { sessionStrategy } from "../../kernel/sessions/strategy.js"
import type { AuthRequest, AuthResponse, Context, Cookie } from "../../kernel/types/http.js"
import { twoFactorOptions } from "./manage.js"
import { checkCode, codeOf } from "./check-code.js"
import { TwoFactorError } from "./errors.js"
import { verifyStepUpPasskey } from "../webauthn/index.js"

/** The answer of a step-up: the new authentication time (seconds since the epoch). */
export interface StepUpResult {
  authTime: number
}

/**
 * Checks `code` for the signed-in user and re-issues their session as freshly authenticated with
 * two factors: the one path of `action=step-up` and `stepUpTwoFactor`. Resolves the new time and
 * the session's cookies.
 */
export async function stepUp(req: AuthRequest, ctx: Context, input: StepUpInput): Promise<StepUpResult & { cookies: Cookie[] }> {
  const options = twoFactorOptions(ctx)
  const principal = await requirePrincipal(req, ctx, "Sign in to verify a second factor")
  if (input.data === undefined) {
    await checkCode(ctx, principal.userId, codeOf(input.code))
    return reissueWithSecondFactor(req, ctx, principal)
  }
  const { cookies, userVerified } = await verifyStepUpPasskey(req, ctx, { data: input.data, provider: input.provider, userId: principal.userId })
  const bothFactors = userVerified && options.passkeyCountsAsTwoFactors
  // Without user verification the passkey is one possession factor: never a second one beside a passkey's session.
  if (!bothFactors && principal.amr.includes("hwk"))
    throw new TwoFactorError("This session began with a passkey: step up with a code from your authenticator app or a backup code", { code: "SAME_FACTOR" })
  const reissued = await reissue(req, ctx, principal, bothFactors ? ["hwk", "user", "mfa"] : ["hwk", "mfa"])
  return { ...reissued, cookies: [...cookies, ...reissued.cookies] }
}

/** What a step-up proves: a `code` (TOTP or backup), or a passkey's assertion `data` (and optionally its `provider`). */
export interface StepUpInput {
  code?: unknown
  data?: unknown
  provider?: unknown
}

/**
 * The signed-in user's session replaced by one authenticated now with a second factor (its methods
 * plus `otp` and `mfa`): after a step-up code, or the first code of an enrolment just confirmed (a
 * one-time code is independent of every first factor). Resolves the new time and the cookies.
 */
export function reissueWithSecondFactor(req: AuthRequest, ctx: Context, principal: Principal): Promise<StepUpResult & { cookies: Cookie[] }> {
  return reissue(req, ctx, principal, ["otp", "mfa"])
}

/** The session replaced by one authenticated now with `amr` added to its methods. */
async function reissue(req: AuthRequest, ctx: Context, principal: Principal, amr: readonly string[]): Promise<StepUpResult & { cookies: Cookie[] }> {
  const authentication = { time: nowSeconds(), amr: unionAmr(principal.amr, amr) }
  const cookies = await sessionStrategy(ctx.config).reauthenticate(req, ctx, authentication)
  return { authTime: authentication.time, cookies }
}

/** `POST two-factor` `action=step-up`. */
export async function stepUpAction(req: AuthRequest, ctx: Context): Promise<AuthResponse<StepUpResult>> {
  const { code, data, provider } = req.body
  const { authTime, cookies } = await stepUp(req, ctx, data === undefined || data === "" ? { code } : { data, provider })
  return { json: { authTime }, cookies }
}
