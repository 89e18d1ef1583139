/**
 * The `twoFactor` option: its public type (added to `AuthConfig` by declaration merging), its
 * resolved form (`ctx.config.twoFactor`), its page (`pages.twoFactor`), and how it resolves and
 * what makes it invalid (the capability's `options` declaration). Nothing of it is in the kernel.
 */
import type { Awaitable } from "@authlib/jwt"
import { Configuration } from "../../kernel/errors/errors.js"
import type { AdapterUser } from "../../kernel/types/adapters.js"
import type { OptionsDeclaration } from "../../kernel/types/capability.js"
import type { AuthConfig, User } from "../../kernel/types/config.js"

// Re-exported so that the emitted types of every module naming `TwoFactorOptions` load the
// rate-limit section (`rateLimit.twoFactor`) and the event (`events.twoFactorLocked`) too, both
// added by declaration merging in those files.
export type { TwoFactorRateLimitOptions } from "./rate-limits.js"
export type { TwoFactorLockedMessage } from "./events.js"

/** The `twoFactor` option. */
export interface TwoFactorOptions {
  /** The issuer shown in authenticator apps (`otpauth://totp/<issuer>:<account>`). Default: the app URL's host name (no port), else `"authlib"`. */
  issuer?: string
  /**
   * Whether a passkey sign-in with user verification (a PIN or biometric on the authenticator)
   * counts as both factors, so no code is asked after it. Default true.
   */
  passkeyCountsAsTwoFactors?: boolean
  /**
   * Two factors required: `true` for every user, or a function of the signed-in user (run like a
   * callback: a throw is `CallbackError`). A required user without them is held after the first
   * factor until they enrol an authenticator on the two-factor page. Default false.
   */
  required?: boolean | ((user: User | AdapterUser) => Awaitable<boolean>)
  /**
   * Seconds a verified second factor stays fresh (step-up): for a user with two factors enabled,
   * adding or deleting a passkey and unlinking an account need one verified this recently (at
   * sign-in, or with `POST {basePath}/two-factor` `action=step-up`). Default 600 (10 minutes).
   */
  freshAge?: number
  /**
   * Seconds a session's second factor counts (periodic reauthentication, NIST SP 800-63B-4 and
   * OWASP ASVS 5.0 V7; AAL2 asks at most 24 hours): once this long has passed since it was verified (at sign-in, or by a step-up),
   * `requireRecentAuthentication(..., { secondFactor: true })`, the changes to the ways in and the
   * sign-in hold ask for one again, whatever `maxAge` or `freshAge` allow. The session itself stays:
   * the user verifies a code (step-up) and goes on. A whole number of seconds above 0; default: none
   * (a second factor counts for as long as its session lasts). See the README's "Step-up".
   */
  reauthenticateAfter?: number
  /**
   * Wrong TOTP codes in a row after which the user's TOTP codes, even a right one, are refused
   * (`TwoFactorError` `TOTP_LOCKED`), counted whether or not rate limits are on (NIST SP 800-63B-4
   * allows at most 100). A backup code, a right code on a sign-in by e-mail link, or the app
   * (`unlockTwoFactor`) clears the count; the `twoFactorLocked` event fires as the lock engages.
   * A whole number from 1 to 100 (more would break NIST's ceiling). Default 100.
   */
  lockAfterFailures?: number
}

/** `twoFactor` as core uses it, every default applied. */
export type ResolvedTwoFactorOptions = Readonly<{
  issuer: string
  passkeyCountsAsTwoFactors: boolean
  required: NonNullable<TwoFactorOptions["required"]>
  freshAge: number
  reauthenticateAfter: number | undefined
  lockAfterFailures: number
}>

declare module "../../kernel/types/config.js" {
  interface CapabilityOptions {
    /**
     * Two-factor sign-in (authlib extension): TOTP codes, backup codes, and passkeys as a second
     * factor, asked after every first factor of a user who enabled it. Off unless set; needs an
     * adapter with the `twoFactor` port. See the README's "Two-factor sign-in".
     */
    twoFactor?: TwoFactorOptions
  }
  interface CapabilityPages {
    /** The second step of a sign-in of a user with two factors enabled (`twoFactor`); it posts to `{basePath}/two-factor`. */
    twoFactor: string
  }
}

declare module "../../kernel/types/resolved-config.js" {
  interface ResolvedCapabilityOptions {
    /** Two-factor sign-in, or undefined when the `twoFactor` option is not set. */
    readonly twoFactor: ResolvedTwoFactorOptions | undefined
  }
}

/** Seconds a second factor stays fresh unless `twoFactor.freshAge` says otherwise. */
export const DEFAULT_FRESH_AGE = 600

/** NIST SP 800-63B-4's ceiling on failed attempts in a row: the most `twoFactor.lockAfterFailures` may be. */
const MAX_LOCK_AFTER_FAILURES = 100

/** Wrong TOTP codes in a row before the lock, unless `twoFactor.lockAfterFailures` says otherwise: NIST's ceiling. */
export const DEFAULT_LOCK_AFTER_FAILURES = MAX_LOCK_AFTER_FAILURES

/** A whole number from 1 (up to `max`), or undefined (the default). */
const wholeFromOne = (value: unknown, max = Number.MAX_SAFE_INTEGER) => value === undefined || (Number.isSafeInteger(value) && (value as number) >= 1 && (value as number) <= max)

/** The app URL's host name without its port (an issuer must hold no ":": apps split the label there); none for an IPv6 literal. */
function appHost(url: string | undefined): string | undefined {
  const hostname = url !== undefined && URL.canParse(url) ? new URL(url).hostname : ""
  return hostname !== "" && !hostname.startsWith("[") ? hostname : undefined
}

/** The `twoFactor` option's resolution and start-up checks. */
export const twoFactorOption: OptionsDeclaration = {
  key: "twoFactor",
  resolve: (options: TwoFactorOptions | undefined, config: AuthConfig) =>
    options
      ? Object.freeze({
          issuer: options.issuer ?? appHost(config.url) ?? "authlib",
          passkeyCountsAsTwoFactors: options.passkeyCountsAsTwoFactors !== false,
          // Anything but a function or `true` is checked by the capability at start-up.
          required: options.required ?? false,
          freshAge: options.freshAge ?? DEFAULT_FRESH_AGE,
          reauthenticateAfter: options.reauthenticateAfter,
          lockAfterFailures: options.lockAfterFailures ?? DEFAULT_LOCK_AFTER_FAILURES,
        })
      : undefined,
  problems(options: TwoFactorOptions | undefined) {
    const problems = (["freshAge", "reauthenticateAfter"] as const).flatMap((key) => {
      const value: unknown = options?.[key]
      if (value === undefined || (Number.isSafeInteger(value) && (value as number) > 0)) return []
      const shown = typeof value === "number" ? String(value) : JSON.stringify(value)
      return [new Configuration(`"twoFactor.${key}" must be a whole number of seconds above 0, not ${shown}`, { code: "SESSION_OPTION_INVALID" })]
    })
    const lockAfterFailures = options?.lockAfterFailures
    if (!wholeFromOne(lockAfterFailures, MAX_LOCK_AFTER_FAILURES)) {
      problems.push(new Configuration(`"twoFactor.lockAfterFailures" must be a whole number from 1 to ${MAX_LOCK_AFTER_FAILURES}, not ${typeof lockAfterFailures === "string" ? JSON.stringify(lockAfterFailures) : String(lockAfterFailures)}`, { code: "CONFIG_INVALID" }))
    }
    return problems
  },
}
