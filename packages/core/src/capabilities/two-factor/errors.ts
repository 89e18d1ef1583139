/**
 * The errors of two-factor sign-in: `TwoFactorError` (its codes and policy row are declared here
 * and registered by the capability, so the kernel's catalogue does not name it) and the
 * `Configuration` code of a TOTP secret no configured secret opens.
 */
import { CataloguedError } from "../../kernel/errors/errors.js"
import type { ErrorDeclaration } from "../../kernel/types/capability.js"

/** The codes of `TwoFactorError`. */
export const TWO_FACTOR_ERROR_CODES = ["SECRET_INVALID", "TWO_FACTOR_OFF", "ACTION_INVALID", "CODE_MISSING", "CODE_INVALID", "SIGN_IN_MISSING", "ALREADY_ENABLED", "NOT_ENROLLED", "NOT_ENABLED", "SAME_FACTOR", "TOTP_LOCKED", "CODE_USED"] as const

/** The capability's own `Configuration` code: a stored TOTP secret that no configured secret opens (rotated away, or the row was altered). */
const CONFIGURATION_CODES = ["TWO_FACTOR_SECRET_UNREADABLE"] as const

declare module "../../kernel/errors/codes.js" {
  interface CapabilityErrorCodes {
    TwoFactorError: typeof TWO_FACTOR_ERROR_CODES
    Configuration: typeof CONFIGURATION_CODES
  }
}

declare module "../../kernel/errors/errors.js" {
  interface CapabilityErrors {
    TwoFactorError: TwoFactorError
  }
}

/**
 * A two-factor request that cannot be done: `CODE_INVALID` (a wrong or expired code, one answer for
 * both), `CODE_USED` (a right TOTP code whose time step was already used: wait for the next one), `TOTP_LOCKED` (too many wrong TOTP codes in a row: TOTP codes, even a
 * right one, are refused until a backup code, a sign-in by e-mail link or the app unlocks them),
 * `CODE_MISSING`, `SIGN_IN_MISSING` (no pending sign-in: none started, or
 * its 5 minutes are over), `ALREADY_ENABLED`, `NOT_ENROLLED` (confirming without an enrolment),
 * `NOT_ENABLED`, `SAME_FACTOR` (a passkey offered to finish a sign-in a passkey began: one
 * credential never counts as two factors), `ACTION_INVALID`, `TWO_FACTOR_OFF` (the `twoFactor` option is not set), and
 * `SECRET_INVALID` (a TOTP secret to import is not base32 of at least 16 bytes; the message names
 * the position of a bad character, never the secret). Client-safe: `code` says why, and nothing in
 * it depends on whether the first factor of a sign-in was right (`TOTP_LOCKED` is answered only
 * after a right first factor, or to the signed-in user; a code sent with the password is answered
 * as a wrong password whatever the reason).
 */
export class TwoFactorError extends CataloguedError<"TwoFactorError"> {
  static override type = "TwoFactorError"
  declare type: "TwoFactorError"
  static override clientSafe = true
  /** The HTTP status of a JSON answer, from `code`. */
  get status(): number {
    const code = this.code
    if (code === "TWO_FACTOR_OFF") return 404
    if (code === "CODE_INVALID" || code === "CODE_USED" || code === "SIGN_IN_MISSING") return 401
    if (code === "TOTP_LOCKED") return 403
    if (code === "ALREADY_ENABLED" || code === "NOT_ENROLLED" || code === "NOT_ENABLED" || code === "SAME_FACTOR") return 409
    return 400
  }
}

/** The capability's entries of the catalogue and the error policy. */
export const twoFactorErrors: readonly ErrorDeclaration[] = [
  { type: "TwoFactorError", codes: TWO_FACTOR_ERROR_CODES, policy: { codeInJson: true, codeInRedirect: true } },
  { type: "Configuration", codes: CONFIGURATION_CODES },
]
