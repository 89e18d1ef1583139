/**
 * The two errors of e-mail sign-in. Both are client-safe: the user sees `?error=<type>` and the
 * page's fixed text, while the full story (SMTP reply, the sender's own error) goes to the log.
 */
import { AuthError } from "@authlib/jwt"
import type { AuthErrorOptions } from "@authlib/jwt"

/**
 * Sending the sign-in e-mail failed. The flow logs the sender's error in full, removes the token it
 * had stored (so no usable link is left behind) and sends the user to the error page with
 * `?error=EmailSignInError`. An address the normaliser refuses sends the user back to the sign-in
 * page with the same type and the refusal's `code` (see {@link InvalidEmailAddress}).
 *
 * Codes: `SEND_FAILED` (or the code the sender's `AuthError` carried, such as `SMTP_REJECTED`),
 * `TOKEN_GENERATION_FAILED`.
 */
export class EmailSignInError extends AuthError {
  static override type = "EmailSignInError"
  declare type: "EmailSignInError"
  static override clientSafe = true
}

/**
 * An e-mail address the normaliser refuses. Its `message` is written for the person who typed the
 * address; its `code` names the rule:
 *
 * `EMAIL_NOT_A_STRING`, `EMAIL_EMPTY`, `EMAIL_TOO_LONG`, `EMAIL_CONTROL_CHARACTER`,
 * `EMAIL_SEVERAL_ADDRESSES`, `EMAIL_FORBIDDEN_CHARACTER`, `EMAIL_LOOKALIKE_AT`, `EMAIL_AT_COUNT`,
 * `EMAIL_LOCAL_PART_INVALID`, `EMAIL_LOCAL_PART_TOO_LONG`, `EMAIL_DOMAIN_INVALID`, and
 * `EMAIL_REFUSED` when a provider's own `normalizeIdentifier` threw something else.
 */
export class InvalidEmailAddress extends AuthError {
  static override type = "InvalidEmailAddress"
  declare type: "InvalidEmailAddress"
  static override clientSafe = true
  declare code: string
  constructor(message: string, options: AuthErrorOptions & { code: string }) {
    super(message, options)
  }
}
