/**
 * Errors thrown by the providers package. Each is an `AuthError` (the one base class of authlib)
 * with a stable `type` (its class name), a `code` naming the exact cause and a `cause` of facts.
 * Core's e-mail flow recognises `InvalidEmailAddress` by `type` and `code` and wraps whatever a
 * sender throws in its own `EmailSignInError`, keeping the `code`; core does not export its copies
 * yet, so these are defined here with the same names and codes.
 */
import { AuthError } from "@authlib/core"
import type { AuthErrorOptions } from "@authlib/core"

/**
 * Sending the sign-in e-mail failed: nodemailer is not installed, the SMTP server could not be
 * reached, or it refused the message or the recipient. `cause` holds the SMTP facts
 * (`response`, `responseCode`, `command`, `rejected`) and the underlying `err`. Not client-safe:
 * the user sees `Configuration`, the log shows why.
 *
 * Codes: `NODEMAILER_MISSING`, `SMTP_SEND_FAILED`, `SMTP_REJECTED`.
 */
export class EmailSignInError extends AuthError {
  static override type = "EmailSignInError"
}

/**
 * An e-mail address the normaliser refuses. Client-safe: it is about what the user typed.
 *
 * Codes: `EMAIL_NOT_A_STRING`, `EMAIL_EMPTY`, `EMAIL_TOO_LONG`, `EMAIL_CONTROL_CHARACTER`,
 * `EMAIL_SEVERAL_ADDRESSES`, `EMAIL_FORBIDDEN_CHARACTER`, `EMAIL_LOOKALIKE_AT`, `EMAIL_AT_COUNT`,
 * `EMAIL_LOCAL_PART_INVALID`, `EMAIL_LOCAL_PART_TOO_LONG`, `EMAIL_DOMAIN_INVALID`.
 */
export class InvalidEmailAddress extends AuthError {
  static override type = "InvalidEmailAddress"
  static override clientSafe = true
  declare code: string
  constructor(message: string, options: AuthErrorOptions & { code: string }) {
    super(message, options)
  }
}

/**
 * A provider API called by a preset (GitHub's `/user` and `/user/emails`) failed or did not answer
 * JSON. Codes: `ACCESS_TOKEN_MISSING`, `NETWORK_ERROR`, `HTTP_ERROR`, `INVALID_JSON`, `INVALID_PROFILE`.
 */
export class ProviderRequestError extends AuthError {
  static override type = "ProviderRequestError"
}

/** A preset was called with options it cannot work with. Codes: `INVALID_PROVIDER_OPTIONS`, `MISSING_AUTHORIZE`. */
export class InvalidProviderOptions extends AuthError {
  static override type = "InvalidProviderOptions"
}
