/**
 * The error of session management, declared in one place: its class, its codes (in the catalogue,
 * `ERROR_CODES`, where the kernel listed them) and its row of the error policy.
 */
import { CataloguedError } from "../../kernel/errors/errors.js"
import type { ErrorDeclaration } from "../../kernel/types/capability.js"

/** The codes of `SessionManagementError`. */
export const SESSION_MANAGEMENT_ERROR_CODES = ["SESSION_ACTION_INVALID", "SESSION_ID_MISSING", "SESSION_UNKNOWN", "DATABASE_SESSIONS_ONLY", "REVOCATION_UNAVAILABLE", "USER_UNKNOWN"] as const

declare module "../../kernel/errors/codes.js" {
  interface CapabilityErrorCodes {
    SessionManagementError: typeof SESSION_MANAGEMENT_ERROR_CODES
  }
}

declare module "../../kernel/errors/errors.js" {
  interface CapabilityErrors {
    SessionManagementError: SessionManagementError
  }
}

/**
 * Managing a user's sessions was refused: `SESSION_ID_MISSING`, `SESSION_UNKNOWN` (also for
 * another user's session: the same answer as an unknown id), `DATABASE_SESSIONS_ONLY` (JWT
 * sessions are not stored, so they cannot be listed or ended one by one), `REVOCATION_UNAVAILABLE`
 * (JWT sessions of a user the adapter does not keep a session epoch for: they end when they expire),
 * `USER_UNKNOWN` (`revokeUserSessions` for a user the adapter does not store), `SESSION_ACTION_INVALID`.
 */
export class SessionManagementError extends CataloguedError<"SessionManagementError"> {
  static override type = "SessionManagementError"
  declare type: "SessionManagementError"
  static override clientSafe = true
  /** The HTTP status of a JSON answer, from `code`. */
  get status(): number {
    return this.code === "SESSION_UNKNOWN" || this.code === "USER_UNKNOWN" ? 404 : this.code === "DATABASE_SESSIONS_ONLY" || this.code === "REVOCATION_UNAVAILABLE" ? 409 : 400
  }
}

/** The capability's entry of the catalogue (before `SessionRequired`, where the kernel listed it) and its policy. */
export const sessionManagementErrors: readonly ErrorDeclaration[] = [
  { type: "SessionManagementError", codes: SESSION_MANAGEMENT_ERROR_CODES, before: "SessionRequired", policy: { codeInJson: true } },
]
