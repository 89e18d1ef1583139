/**
 * The callbacks whose answer steers a flow, read the same way wherever they run. (Every callback
 * runs through `run.ts`, which maps what it throws.)
 */
import { AccessDenied } from "../errors/errors.js"
import type { Context } from "../types/http.js"
import type { CallbacksOptions } from "../types/config.js"
import { runUserCode } from "./run.js"

/**
 * Runs the `signIn` callback (spec 2.6, 3): true continues; false -> `AccessDenied`; a string ->
 * redirect there (resolved against the origin); a throw -> `AccessDenied` with the original message
 * (an `AuthError` thrown on purpose passes through). Exported for flows that ask before acting
 * (e-mail asks with `email: { verificationRequest: true }` before sending mail).
 */
export async function runSignInCallback(params: Parameters<CallbacksOptions["signIn"]>[0], ctx: Context): Promise<{ redirect?: string }> {
  const outcome = await runUserCode("signIn", params.account?.provider, () => ctx.config.callbacks.signIn(params))
  if (outcome === true) return {}
  if (typeof outcome === "string" && outcome !== "") return { redirect: new URL(outcome, ctx.origin).href }
  throw new AccessDenied("The signIn callback refused the sign-in", { code: "SIGNIN_CALLBACK_FALSE", cause: { provider: params.account?.provider } })
}
