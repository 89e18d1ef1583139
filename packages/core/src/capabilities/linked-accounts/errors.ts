/**
 * The error of linked-account management: `AccountManagementError` and its codes, declared here
 * and registered by the capability (`Capability.errors`), so the kernel's catalogue does not name
 * it. It has no policy row: its status comes from its own `status` getter.
 */
import { CataloguedError } from "../../kernel/errors/errors.js"
import type { ErrorDeclaration } from "../../kernel/types/capability.js"

/** The codes of `AccountManagementError`. */
export const ACCOUNT_MANAGEMENT_ERROR_CODES = ["ACCOUNT_PROVIDER_MISSING", "ACCOUNT_UNKNOWN", "ACCOUNT_NOT_UNLINKABLE", "LAST_SIGN_IN_METHOD"] as const

declare module "../../kernel/errors/codes.js" {
  interface CapabilityErrorCodes {
    AccountManagementError: typeof ACCOUNT_MANAGEMENT_ERROR_CODES
  }
}

declare module "../../kernel/errors/errors.js" {
  interface CapabilityErrors {
    AccountManagementError: AccountManagementError
  }
}

/**
 * Managing the sign-in methods linked to a user was refused: `ACCOUNT_PROVIDER_MISSING`,
 * `ACCOUNT_UNKNOWN` (no such linked account), `ACCOUNT_NOT_UNLINKABLE` (a passkey's or a password's
 * account: removed elsewhere), `LAST_SIGN_IN_METHOD` (unlinking it would leave no way to sign in).
 */
export class AccountManagementError extends CataloguedError<"AccountManagementError"> {
  static override type = "AccountManagementError"
  declare type: "AccountManagementError"
  static override clientSafe = true
  /** The HTTP status of a JSON answer, from `code`. */
  get status(): number {
    return this.code === "ACCOUNT_UNKNOWN" ? 404 : this.code === "LAST_SIGN_IN_METHOD" || this.code === "ACCOUNT_NOT_UNLINKABLE" ? 409 : 400
  }
}

/** The capability's entry of the catalogue: first, where the kernel listed it. */
export const linkedAccountsErrors: readonly ErrorDeclaration[] = [
  { type: "AccountManagementError", codes: ACCOUNT_MANAGEMENT_ERROR_CODES, before: "AccessDenied" },
]
