/**
 * The error of passkey sign-in, declared in one place: its class, its codes (in the catalogue,
 * `ERROR_CODES`), its row of the error policy and its page text (registered by the capability, so
 * the kernel names none of them).
 */
import { CataloguedError } from "../../kernel/errors/errors.js"
import type { ErrorDeclaration } from "../../kernel/types/capability.js"

/** The codes of `WebAuthnVerificationError`. */
export const WEBAUTHN_ERROR_CODES = [
  "ACTION_INVALID",
  "ACTION_REQUIRED",
  "REGISTRATION_REQUIRES_SESSION",
  "USER_NOT_STORED",
  "RESPONSE_INVALID",
  "CHALLENGE_MISSING",
  "CHALLENGE_INVALID",
  "CHALLENGE_EXPIRED",
  "CHALLENGE_PROVIDER_MISMATCH",
  "CHALLENGE_ACTION_MISMATCH",
  "CHALLENGE_USED",
  "CREDENTIAL_UNKNOWN",
  "CREDENTIAL_ALREADY_REGISTERED",
  "ORIGIN_MISMATCH",
  "RP_ID_MISMATCH",
  "USER_VERIFICATION_MISSING",
  "SIGNATURE_INVALID",
  "COUNTER_REGRESSION",
  "VERIFICATION_FAILED",
] as const

declare module "../../kernel/errors/codes.js" {
  interface CapabilityErrorCodes {
    WebAuthnVerificationError: typeof WEBAUTHN_ERROR_CODES
  }
}

declare module "../../kernel/errors/errors.js" {
  interface CapabilityErrors {
    WebAuthnVerificationError: WebAuthnVerificationError
  }
}

/**
 * A passkey request or response that cannot be accepted: a missing, expired, replayed or foreign
 * challenge, an unknown credential, a response for another origin or RP ID, a bad signature, no
 * user verification where it is required, a counter that went backwards (a cloned authenticator).
 * Client-safe: the user sees that the passkey could not be used; `code` says why.
 */
export class WebAuthnVerificationError extends CataloguedError<"WebAuthnVerificationError"> {
  static override type = "WebAuthnVerificationError"
  declare type: "WebAuthnVerificationError"
  static override clientSafe = true
}

/** The capability's entry of the catalogue (listed where the kernel listed it: before `Verification`), its policy and its page text. */
export const webauthnErrors: readonly ErrorDeclaration[] = [
  {
    type: "WebAuthnVerificationError",
    codes: WEBAUTHN_ERROR_CODES,
    before: "Verification",
    policy: { codeInJson: true, codeInRedirect: true },
    text: {
      status: 400,
      title: "Passkey not accepted",
      message: "The passkey could not be used to sign in. Try again, or sign in another way.",
      link: "Try again",
    },
  },
]
