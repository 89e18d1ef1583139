/**
 * The `twoFactor.required` policy: whether a user who has not enabled two factors must enrol before
 * a sign-in completes. `true` requires it of everyone; a function decides per user and runs like a
 * callback (a throw is `CallbackError`, and the sign-in fails rather than going on without it).
 */
import { CallbackError, Configuration, type AuthError } from "../../kernel/errors/errors.js"
import type { Context } from "../../kernel/types/http.js"
import type { ResolvedConfig } from "../../kernel/types/resolved-config.js"
import type { NewSession } from "../../kernel/types/sign-in.js"
import { runUserCode } from "../../kernel/user-code/run.js"

/** A start-up problem of `twoFactor.required`: anything but a boolean or a function. */
export function requiredProblem(config: ResolvedConfig): AuthError | undefined {
  const required: unknown = config.twoFactor?.required
  if (typeof required === "boolean" || typeof required === "function") return undefined
  return new Configuration('"twoFactor.required" must be true, false or a function of the user', { code: "CONFIG_INVALID", cause: { option: "twoFactor.required" } })
}

/** Whether the policy requires two factors of `user`. Only `true` from the function counts as yes. */
export async function twoFactorRequired(ctx: Context, user: NewSession["user"]): Promise<boolean> {
  const required = ctx.config.twoFactor?.required
  if (typeof required !== "function") return required === true
  const answer = await runUserCode("callback", "twoFactor.required", () => required(user))
  if (typeof answer !== "boolean")
    throw new CallbackError('"twoFactor.required" must answer true or false', { code: "CALLBACK_THREW", cause: { callback: "twoFactor.required", thrown: String(answer) } })
  return answer
}
