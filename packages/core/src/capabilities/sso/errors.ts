/**
 * The errors of enterprise SSO, declared in one place: `SsoSignInError` (a refused sign-in, sent to
 * the error page as `?error=SsoSignInError&code=<CODE>`) and `SsoError` (a refused management call).
 */
import { CataloguedError } from "../../kernel/errors/errors.js"
import type { ErrorDeclaration } from "../../kernel/types/capability.js"

/**
 * The codes of `SsoSignInError`: the SAML engine's (`@authlib/saml`) and the capability's own
 * (`ASSERTION_REPLAYED`, `DOMAIN_NOT_VERIFIED`, `CONNECTION_UNKNOWN`, `EMAIL_MISSING`, `OIDC_FAILED`,
 * `MFA_REQUIRED`: the connection requires the IdP's MFA claim and the answer had none,
 * `MEMBERSHIP_LIMIT`: joining would pass the organization's `membershipLimit`).
 */
export const SSO_SIGN_IN_ERROR_CODES = [
  "SIGNATURE_INVALID", "ASSERTION_WRAPPED", "ALGORITHM_REFUSED", "AUDIENCE_MISMATCH", "DESTINATION_MISMATCH", "RECIPIENT_MISMATCH",
  "ISSUER_MISMATCH", "EXPIRED", "NOT_YET_VALID", "IN_RESPONSE_TO_MISSING", "IN_RESPONSE_TO_UNKNOWN", "ASSERTION_REPLAYED",
  "DTD_REFUSED", "RESPONSE_TOO_LARGE", "STATUS_NOT_SUCCESS", "DECRYPTION_FAILED", "MALFORMED", "DOMAIN_NOT_VERIFIED",
  "CONNECTION_UNKNOWN", "EMAIL_MISSING", "OIDC_FAILED", "MFA_REQUIRED", "MEMBERSHIP_LIMIT",
] as const

/** The codes of `SsoError`. */
export const SSO_ERROR_CODES = [
  "CONNECTION_UNKNOWN", "CONNECTION_INVALID", "METADATA_INVALID", "DOMAIN_INVALID", "DOMAIN_UNKNOWN", "DOMAIN_VERIFIED_ELSEWHERE",
] as const

declare module "../../kernel/errors/codes.js" {
  interface CapabilityErrorCodes {
    SsoSignInError: typeof SSO_SIGN_IN_ERROR_CODES
    SsoError: typeof SSO_ERROR_CODES
  }
}

declare module "../../kernel/errors/errors.js" {
  interface CapabilityErrors {
    SsoSignInError: SsoSignInError
    SsoError: SsoError
  }
}

/** An SSO sign-in was refused, with a stable `code`; nothing was stored. */
export class SsoSignInError extends CataloguedError<"SsoSignInError"> {
  static override type = "SsoSignInError"
  declare type: "SsoSignInError"
  static override clientSafe = true
}

/**
 * An SSO management call was refused, with a stable `code`. `CONNECTION_UNKNOWN` also for a
 * connection of an organization the caller is not a member of.
 */
export class SsoError extends CataloguedError<"SsoError"> {
  static override type = "SsoError"
  declare type: "SsoError"
  static override clientSafe = true
  /** The HTTP status of a JSON answer, from `code`. */
  get status(): number {
    switch (this.code) {
      case "CONNECTION_UNKNOWN": case "DOMAIN_UNKNOWN": return 404
      case "DOMAIN_VERIFIED_ELSEWHERE": return 409
      default: return 400
    }
  }
}

/** The capability's entries of the catalogue, their policies and page text. */
export const ssoErrors: readonly ErrorDeclaration[] = [
  {
    type: "SsoSignInError",
    codes: SSO_SIGN_IN_ERROR_CODES,
    policy: { codeInJson: true, codeInRedirect: true },
    text: { status: 403, title: "Single sign-on failed", message: "Your organization's sign-in could not be completed. Try again, or ask your administrator." },
  },
  { type: "SsoError", codes: SSO_ERROR_CODES, policy: { codeInJson: true } },
]
