/**
 * The error of organizations, declared in one place: its class, its codes (in the catalogue,
 * `ERROR_CODES`) and its row of the error policy.
 */
import { CataloguedError } from "../../kernel/errors/errors.js"
import type { ErrorDeclaration } from "../../kernel/types/capability.js"

/** The codes of `OrganizationError`. */
export const ORGANIZATION_ERROR_CODES = [
  "ORGANIZATION_UNKNOWN", "NOT_A_MEMBER", "FORBIDDEN", "LAST_OWNER", "ROLE_ESCALATION", "ROLE_UNKNOWN", "SLUG_TAKEN",
  "SLUG_INVALID", "NAME_INVALID", "EMAIL_INVALID", "INVITATION_INVALID", "INVITATION_EMAIL_MISMATCH", "MEMBERSHIP_LIMIT",
  "ALREADY_A_MEMBER", "CREATE_NOT_ALLOWED", "ID_INVALID", "ORGANIZATION_ACTION_INVALID",
] as const

declare module "../../kernel/errors/codes.js" {
  interface CapabilityErrorCodes {
    OrganizationError: typeof ORGANIZATION_ERROR_CODES
  }
}

declare module "../../kernel/errors/errors.js" {
  interface CapabilityErrors {
    OrganizationError: OrganizationError
  }
}

/**
 * An organization action was refused, with a stable `code`. A caller who is not a member of an
 * organization gets `ORGANIZATION_UNKNOWN`, as for one that does not exist; `NOT_A_MEMBER` is about
 * a target user. No message or `cause` names another organization. Adapters throw it too:
 * `deleteUser` of a user who is the last owner of an organization with other members throws
 * `LAST_OWNER` and deletes nothing.
 */
export class OrganizationError extends CataloguedError<"OrganizationError"> {
  static override type = "OrganizationError"
  declare type: "OrganizationError"
  static override clientSafe = true
  /** The HTTP status of a JSON answer, from `code`. */
  get status(): number {
    switch (this.code) {
      case "ORGANIZATION_UNKNOWN": case "NOT_A_MEMBER": return 404
      case "FORBIDDEN": case "ROLE_ESCALATION": case "CREATE_NOT_ALLOWED": case "INVITATION_EMAIL_MISMATCH": return 403
      case "LAST_OWNER": case "SLUG_TAKEN": case "ALREADY_A_MEMBER": case "MEMBERSHIP_LIMIT": return 409
      case "INVITATION_INVALID": return 410
      default: return 400
    }
  }
}

/** The capability's entry of the catalogue and its policy. */
export const organizationErrors: readonly ErrorDeclaration[] = [
  {
    type: "OrganizationError",
    codes: ORGANIZATION_ERROR_CODES,
    policy: { codeInJson: true, codeInRedirect: true },
    // The page an invitation link lands on when it cannot be used (the link's only browser path).
    text: {
      status: 400,
      title: "This invitation cannot be used",
      message: "The invitation was already used, withdrawn or has expired, or it was sent to another address than the one you signed in with. Ask for a new invitation.",
    },
  },
]
