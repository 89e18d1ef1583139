/**
 * How the two-factor step answers a refusal: a form posted by a person (the built-in page) goes back
 * to the page, which says why (`?error=...&code=...`), or to the sign-in page when no sign-in is
 * pending any more; a script (JSON, or `X-Auth-Return-Redirect: 1`) gets the error as JSON.
 */
import { AuthError, RateLimited } from "../../kernel/errors/errors.js"
import { WebAuthnVerificationError } from "../webauthn/index.js"
import { TwoFactorError } from "./errors.js"
import { routeUrl } from "../../kernel/http/urls.js"
import type { AuthRequest, AuthResponse, Context } from "../../kernel/types/http.js"

/** A form posted by a person (not a script). */
export const fromForm = (req: AuthRequest) =>
  (req.headers.get("content-type") ?? "").startsWith("application/x-www-form-urlencoded") && req.headers.get("x-auth-return-redirect") !== "1"

/** Refusals the page can explain; anything else goes to the kernel's error policy. */
const explained = (err: unknown): err is AuthError => err instanceof TwoFactorError || err instanceof RateLimited || err instanceof WebAuthnVerificationError

/** Runs `step`; a refusal of a form post becomes a redirect back to the page (logged), other errors are thrown. */
export async function answeringForms(req: AuthRequest, ctx: Context, step: () => Promise<AuthResponse>): Promise<AuthResponse> {
  try {
    return await step()
  } catch (err) {
    if (!fromForm(req) || !explained(err)) throw err
    ctx.config.logger.warn(err.type, err)
    if (err instanceof TwoFactorError && err.code === "SIGN_IN_MISSING") return { redirect: routeUrl(ctx, "signIn") }
    return { redirect: routeUrl(ctx, "twoFactor", { error: err.type, code: err.code }) }
  }
}

export const signInMissing = () => new TwoFactorError("No sign-in is waiting for a second factor (or its 5 minutes are over)", { code: "SIGN_IN_MISSING" })
