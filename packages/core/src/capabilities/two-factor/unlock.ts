/**
 * `unlockTwoFactor`, the app's way to lift the TOTP lock (`lockout.ts`): a server function without
 * a request, like `revokeUserSessions`. Not imported by the capability's routes, so the
 * configuration resolver it loads does not load them back.
 */
import { resolveConfig } from "../../kernel/config/resolve.js"
import type { AuthConfig } from "../../kernel/types/config.js"
import { TwoFactorError } from "./errors.js"
import { twoFactorStore } from "./store.js"

/**
 * Unlocks the TOTP codes of `userId`, for the app (after support has checked who is asking):
 * their count of wrong codes in a row goes back to 0. Nothing else changes (secret, backup codes,
 * sessions). Resolves `true` when the user has two factors enabled, `false` otherwise (none,
 * pending, unknown user, or no user named).
 *
 * @throws TwoFactorError `TWO_FACTOR_OFF` when the `twoFactor` option is not set.
 * @throws Configuration when the configuration is invalid.
 */
export async function unlockTwoFactor(config: AuthConfig, userId: string): Promise<boolean> {
  const resolved = resolveConfig(config)
  if (resolved.error) throw resolved.error
  if (!resolved.twoFactor) throw new TwoFactorError('Two-factor sign-in is off: set the "twoFactor" option', { code: "TWO_FACTOR_OFF" })
  if (typeof userId !== "string" || userId === "") return false
  return (await twoFactorStore({ config: resolved }).resetTwoFactorFailures(userId)) === true
}
