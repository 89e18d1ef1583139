/**
 * The error of passkey management: `PasskeyManagementError`, its codes and its policy row, declared
 * here and registered by the capability (`Capability.errors`), so the kernel's catalogue does not
 * name it.
 */
import { CataloguedError } from "../../kernel/errors/errors.js"
import type { ErrorDeclaration } from "../../kernel/types/capability.js"

/** The codes of `PasskeyManagementError`. */
export const PASSKEY_MANAGEMENT_ERROR_CODES = ["PASSKEY_ACTION_INVALID", "PASSKEY_ID_MISSING", "PASSKEY_UNKNOWN", "PASSKEY_NAME_INVALID", "LAST_SIGN_IN_METHOD"] as const

declare module "../../kernel/errors/codes.js" {
  interface CapabilityErrorCodes {
    PasskeyManagementError: typeof PASSKEY_MANAGEMENT_ERROR_CODES
  }
}

declare module "../../kernel/errors/errors.js" {
  interface CapabilityErrors {
    PasskeyManagementError: PasskeyManagementError
  }
}

/**
 * A passkey-management request that cannot be done: no such passkey among the signed-in user's
 * (`PASSKEY_UNKNOWN`, 404: another user's passkey answers exactly the same), a name that is empty
 * once cleaned (`PASSKEY_NAME_INVALID`), a missing id or unknown action (400), or the deletion of
 * the user's last way to sign in (`LAST_SIGN_IN_METHOD`, 409). Client-safe: `code` says why.
 */
export class PasskeyManagementError extends CataloguedError<"PasskeyManagementError"> {
  static override type = "PasskeyManagementError"
  declare type: "PasskeyManagementError"
  static override clientSafe = true
  /** The HTTP status of the JSON answer, from `code`. */
  get status(): number {
    return this.code === "PASSKEY_UNKNOWN" ? 404 : this.code === "LAST_SIGN_IN_METHOD" ? 409 : 400
  }
}

/** The capability's entry of the catalogue and the error policy (listed where the kernel listed it). */
export const passkeyManagementErrors: readonly ErrorDeclaration[] = [
  { type: "PasskeyManagementError", codes: PASSKEY_MANAGEMENT_ERROR_CODES, policy: { codeInJson: true }, before: "RateLimited" },
]
