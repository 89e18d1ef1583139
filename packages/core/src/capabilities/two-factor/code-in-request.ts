/**
 * The second factor in the sign-in request itself: a credentials sign-in may carry the code
 * (TOTP or backup) in `twoFactorCode` beside the password, and a right code signs a user with two
 * factors in at once, with both factors recorded: one round trip, no pending sign-in. A refused
 * code (wrong, used before, throttled, not a string) answers exactly as a wrong password does
 * (`CredentialsSignin`, the reason in the log), so the answer never says which of the two was
 * wrong. An empty field counts as absent: the usual pending sign-in and two-factor page follow.
 */
import { CredentialsSignin, RateLimited } from "../../kernel/errors/errors.js"
import { TwoFactorError } from "./errors.js"
import type { AuthRequest, Context } from "../../kernel/types/http.js"
import type { PendingSignIn } from "../../kernel/types/sign-in.js"
import { checkCode, codeOf } from "./check-code.js"

/** The sign-in body field that carries the second factor (the library's own: `authorize` never sees it). */
export const CODE_FIELD = "twoFactorCode"

/** The code sent with a credentials first factor; `undefined` when there is none (or another way in). */
export function codeInRequest(req: AuthRequest, pending: PendingSignIn): unknown {
  if (pending.session.account.type !== "credentials" || !Object.hasOwn(req.body, CODE_FIELD)) return undefined
  const value = req.body[CODE_FIELD]
  return value === "" ? undefined : value
}

/** Checks the code like the two-factor step does (counted per user, accepted once); a refusal is `CredentialsSignin`. */
export async function checkCodeInRequest(ctx: Context, pending: PendingSignIn, userId: string, code: unknown): Promise<void> {
  try {
    await checkCode(ctx, userId, codeOf(code))
  } catch (err) {
    if (!(err instanceof TwoFactorError) && !(err instanceof RateLimited)) throw err
    throw new CredentialsSignin(`the second factor sent with the sign-in was refused (${err.type} ${err.code ?? ""})`, { cause: { provider: pending.session.account.provider } })
  }
}
