/**
 * Why a SAML message was refused. Stable: the `sso` capability forwards it as `?code=` to the error page,
 * and operators search logs for it.
 */
export type SamlErrorCode =
  | "SIGNATURE_INVALID"
  | "ASSERTION_WRAPPED"
  | "ALGORITHM_REFUSED"
  | "AUDIENCE_MISMATCH"
  | "DESTINATION_MISMATCH"
  | "RECIPIENT_MISMATCH"
  | "ISSUER_MISMATCH"
  | "EXPIRED"
  | "NOT_YET_VALID"
  | "IN_RESPONSE_TO_MISSING"
  | "IN_RESPONSE_TO_UNKNOWN"
  | "DTD_REFUSED"
  | "RESPONSE_TOO_LARGE"
  | "METADATA_TOO_LARGE"
  | "STATUS_NOT_SUCCESS"
  | "DECRYPTION_FAILED"
  | "MALFORMED"

/** The plain facts behind a refusal (what was expected, what was received); never key material. */
export type SamlErrorCause = Record<string, string | number | boolean | null>

/**
 * A SAML message (a Response or IdP metadata) that this package refused. `code` says exactly which rule
 * refused it; `message` names the element or attribute; `cause` carries plain facts for logs.
 */
export class SamlError extends Error {
  override readonly name = "SamlError"
  /** Which rule refused the message. */
  readonly code: SamlErrorCode
  /** Plain facts: expected and received values, never secrets. */
  declare readonly cause: SamlErrorCause

  constructor(code: SamlErrorCode, message: string, options: { cause?: SamlErrorCause } = {}) {
    super(message, { cause: options.cause ?? {} })
    this.code = code
  }
}

/** Shorthand for `throw new SamlError(...)` inside expressions. */
export function refuse(code: SamlErrorCode, message: string, cause?: SamlErrorCause): never {
  throw new SamlError(code, message, cause ? { cause } : {})
}
