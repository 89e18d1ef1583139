/**
 * Errors thrown by the providers package. Each is an `AuthError` (the one base class of authlib)
 * with a stable `type` (its class name), a `code` naming the exact cause and a `cause` of facts.
 *
 * The e-mail errors are core's own classes, re-exported: the Nodemailer provider throws
 * `EmailSignInError` from `@authlib/core`, and its normaliser (core's `normalizeEmailAddress`)
 * throws core's `InvalidEmailAddress`, so `instanceof` holds whichever package an app imports
 * them from.
 */
import { AuthError } from "@authlib/core"

export { EmailSignInError, InvalidEmailAddress } from "@authlib/core"

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
