/**
 * The event of two-factor sign-in, added to `EventCallbacks` by declaration merging (the kernel's
 * event table does not name it): `twoFactorLocked`, fired by `lockout.ts` as the TOTP lock engages.
 */
import type { Awaitable } from "@authlib/jwt"

/** What `events.twoFactorLocked` receives. */
export interface TwoFactorLockedMessage {
  /** The user whose TOTP codes are now refused. */
  user: { id: string }
  /** The wrong TOTP codes in a row that engaged the lock (`twoFactor.lockAfterFailures`). */
  failedAttempts: number
}

declare module "../../kernel/types/config.js" {
  interface EventCallbacks {
    /**
     * authlib extension (two-factor sign-in): a user's TOTP codes have just been locked after
     * `twoFactor.lockAfterFailures` wrong codes in a row (fired once, by the attempt that reached
     * it). Someone may hold their password: tell the user, or their support. It stays locked until a
     * backup code, a right code on a sign-in by e-mail link, or `unlockTwoFactor`.
     */
    twoFactorLocked: (message: TwoFactorLockedMessage) => Awaitable<void>
  }
}
