/**
 * The cap on wrong TOTP codes in a row (NIST SP 800-63B-4: at most 100 consecutive failed
 * attempts), kept in the adapter's two-factor record so every instance shares it and it outlives
 * restarts and rate-limit windows. `check-code.ts` counts each TOTP attempt before checking it
 * (`countTwoFactorAttempt`, an increment conditional on a ceiling): the count stops at the cap, so
 * concurrent guesses get no more checks than the cap, and an attempt the adapter did not count is
 * refused unchecked (`TOTP_LOCKED`). A right TOTP code or a used backup code sets the count back to
 * 0 in the same write that accepts it.
 *
 * A sign-in whose first factor was an e-mail link proved the address, which counts as a reset: its
 * pending cookie carries the count at that moment (read anyway to hold it: nothing is written while
 * a sign-in is held), and its attempts may raise the count up to the cap past that, so its right
 * code unlocks, while whoever holds the inbox gets no more than the cap of guesses per link.
 * Refused attempts of other sign-ins are not counted, so a guesser with the password cannot use up
 * that allowance. The app unlocks with `unlockTwoFactor` (`unlock.ts`).
 */
import type { Context } from "../../kernel/types/http.js"
import { emitEvent } from "../../kernel/user-code/events.js"
import { TwoFactorError } from "./errors.js"
import { DEFAULT_LOCK_AFTER_FAILURES } from "./options.js"

type HasConfig = Pick<Context, "config">

const limitOf = (ctx: HasConfig) => ctx.config.twoFactor?.lockAfterFailures ?? DEFAULT_LOCK_AFTER_FAILURES

/**
 * The count a TOTP attempt may raise the user's to (`countTwoFactorAttempt`'s ceiling): the cap,
 * or for a sign-in by e-mail link the cap past the count it carried (`emailProvenAt`).
 */
export function attemptCeiling(ctx: HasConfig, emailProvenAt: number | undefined): number {
  const proven = typeof emailProvenAt === "number" && Number.isSafeInteger(emailProvenAt) && emailProvenAt >= 0
  return (proven ? emailProvenAt : 0) + limitOf(ctx)
}

/** The refusal of a TOTP code while the lock holds (the code is not checked). */
export const totpLocked = () =>
  new TwoFactorError("Too many wrong TOTP codes in a row: use a backup code or a sign-in by e-mail link, or ask the app to unlock", { code: "TOTP_LOCKED" })

/** A counted TOTP attempt failed: the one that reached the cap fires `twoFactorLocked`, once. */
export async function totpAttemptFailed(ctx: HasConfig, userId: string, failedAttempts: number): Promise<void> {
  if (failedAttempts === limitOf(ctx)) await emitEvent(ctx, "twoFactorLocked", { user: { id: userId }, failedAttempts })
}
