/**
 * Every refused SSO sign-in ends the same way: the error page with `?error=SsoSignInError&code=<CODE>`,
 * the binding cookie cleared, the refusal logged with its facts (never key material), nothing stored.
 */
import { routeUrl } from "../../kernel/http/urls.js"
import type { AuthResponse, Context } from "../../kernel/types/http.js"
import { clearBinding } from "./binding.js"
import type { SSO_SIGN_IN_ERROR_CODES } from "./errors.js"

/** A code of `SsoSignInError`. */
export type SsoSignInCode = (typeof SSO_SIGN_IN_ERROR_CODES)[number]

/** The answer to a refused sign-in. */
export function refuse(ctx: Context, code: SsoSignInCode, facts: Record<string, unknown> = {}): AuthResponse {
  ctx.config.logger.warn("SsoSignInError", `an SSO sign-in was refused: ${code}`, { code, ...facts })
  return { redirect: routeUrl(ctx, "error", { error: "SsoSignInError", code }), cookies: [clearBinding(ctx)] }
}
