/**
 * The second step of a pending sign-in with a code (TOTP or backup): the one path of
 * `POST two-factor` `action=verify` (`route.ts`) and of `completeTwoFactorSignIn`
 * (`functions-session.ts`), so the route and the server function check exactly the same things.
 */
import type { AuthRequest, AuthResponse, Context } from "../../kernel/types/http.js"
import { twoFactorOptions } from "./manage.js"
import { TwoFactorError } from "./errors.js"
import { checkCode, codeOf } from "./check-code.js"
import { finishPending } from "./passkey.js"
import { readPending } from "./pending.js"
import { signInMissing } from "./refusal.js"

/**
 * Checks `code` for the request's pending sign-in (counted per user and per sign-in, accepted once)
 * and ends it with its session. Throws `TwoFactorError` (`SIGN_IN_MISSING`, `CODE_MISSING`,
 * `CODE_INVALID`, `TWO_FACTOR_OFF`) or `RateLimited`; a refusal sets nothing and keeps the sign-in pending.
 */
export async function verifyPendingCode(req: AuthRequest, ctx: Context, code: unknown): Promise<AuthResponse> {
  twoFactorOptions(ctx)
  const pending = await readPending(req, ctx)
  if (!pending) throw signInMissing()
  // A sign-in held to enrol has no second factor yet: every code is refused (`CODE_INVALID`).
  if (pending.enrol || pending.userId === undefined) throw new TwoFactorError("The code is not valid", { code: "CODE_INVALID" })
  await checkCode(ctx, pending.userId, codeOf(code), pending)
  return finishPending(req, ctx, pending)
}
