/**
 * `getPendingTwoFactor`: what finishes the request's pending sign-in, for an app's own
 * `pages.twoFactor` page, so it offers exactly what the built-in page offers (a passkey button only
 * where a passkey may finish the sign-in).
 */
import { serverCall } from "../../kernel/run/server-call.js"
import type { AuthConfig } from "../../kernel/types/config.js"
import { twoFactorOptions } from "./manage.js"
import { passkeyToFinish } from "./passkey.js"
import { readPending } from "./pending.js"

/** What may finish a pending sign-in. */
export interface PendingTwoFactorInfo {
  /**
   * `"code"`: a TOTP or backup code (`completeTwoFactorSignIn`); `"passkey"`: one of the user's
   * passkeys (`completeTwoFactorSignInWithPasskey`), never offered after a passkey first factor;
   * `"enrol"`: the sign-in is held to enrol (`twoFactor.required`): `totp-enroll`, then
   * `totp-confirm` with the first code.
   */
  accepts: Array<"code" | "passkey" | "enrol">
}

/**
 * What finishes the pending sign-in of `request` (its `authlib.two-factor` cookie), or `null` when
 * there is none (or its 5 minutes are over). Reads only.
 * @throws TwoFactorError `TWO_FACTOR_OFF` when the app did not set `twoFactor`.
 */
export function getPendingTwoFactor(request: Request, config: AuthConfig): Promise<PendingTwoFactorInfo | null> {
  return serverCall(request, config, "two-factor", async (req, ctx) => {
    twoFactorOptions(ctx)
    const pending = await readPending(req, ctx)
    if (!pending) return null
    if (pending.enrol) return { accepts: ["enrol"] }
    return { accepts: (await passkeyToFinish(ctx, pending)) ? ["code", "passkey"] : ["code"] }
  })
}
