/**
 * The cap on wrong TOTP codes in a row (NIST SP 800-63B-4: at most 100 consecutive failed
 * attempts), kept in the adapter's two-factor record so every instance shares it and it outlives
 * restarts and rate-limit windows. `check-code.ts` counts each TOTP attempt before checking it
 * (`countTwoFactorAttempt`, an atomic increment), so concurrent guesses get no more checks than the
 * cap; a right TOTP code or a used backup code sets the count back to 0 in the same write that
 * accepts it. Past `twoFactor.lockAfterFailures` every TOTP code is refused (`TOTP_LOCKED`) except
 * on a sign-in whose first factor was an e-mail link (the pending sign-in says so): proof of the
 * address, so its right code unlocks. The app unlocks with `unlockTwoFactor` (`unlock.ts`).
 */
import type { Context } from "../../kernel/types/http.js"
import { emitEvent } from "../../kernel/user-code/events.js"
import type { AdapterTwoFactor } from "./adapter.js"
import { TwoFactorError } from "./errors.js"
import { DEFAULT_LOCK_AFTER_FAILURES } from "./options.js"

type HasConfig = Pick<Context, "config">

const limitOf = (ctx: HasConfig) => ctx.config.twoFactor?.lockAfterFailures ?? DEFAULT_LOCK_AFTER_FAILURES

/**
 * Throws `TOTP_LOCKED` when `record` (as `countTwoFactorAttempt` answered it, this attempt counted)
 * is past the cap, unless the sign-in's first factor was an e-mail link.
 */
export function assertTotpUnlocked(ctx: HasConfig, record: AdapterTwoFactor, emailProven: boolean): void {
  if (record.failedAttempts <= limitOf(ctx) || emailProven) return
  throw new TwoFactorError("Too many wrong TOTP codes in a row: use a backup code or a sign-in by e-mail link, or ask the app to unlock", { code: "TOTP_LOCKED" })
}

/** A counted TOTP attempt failed: the one that reached the cap fires `twoFactorLocked`, once. */
export async function totpAttemptFailed(ctx: HasConfig, userId: string, failedAttempts: number): Promise<void> {
  if (failedAttempts === limitOf(ctx)) await emitEvent(ctx, "twoFactorLocked", { user: { id: userId }, failedAttempts })
}
