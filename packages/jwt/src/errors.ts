/**
 * The error base shared by every authlib package. It lives in `@authlib/jwt`, the bottom of the
 * dependency graph, so token errors and core errors share one class; `@authlib/core` re-exports it
 * and defines the rest of the catalogue.
 */

/** Plain facts about what went wrong. `err` carries an underlying error when there is one. */
export interface ErrorCause extends Record<string, unknown> {
  err?: Error
}

export interface AuthErrorOptions {
  /** A stable identifier of the exact cause, such as `TOKEN_EXPIRED` or `CHECK_STATE_MISMATCH`. */
  code?: string
  cause?: ErrorCause
}

/**
 * Base class of every authlib error.
 *
 * - `type` is the class name and stable across releases: switch on it, never on `message`.
 * - `code` names the exact cause within a type.
 * - `cause` is a plain record of facts (expected, received, provider...) and an optional `err`.
 * - `clientSafe` (static) says whether the type may be shown to the end user as `?error=<type>`;
 *   every other error is logged and shown as `Configuration`.
 */
export class AuthError extends Error {
  static type = "AuthError"
  static clientSafe = false
  /** Stable name of the error class. */
  type: string
  /** Stable identifier of the exact cause, when one is known. */
  code?: string
  declare cause?: ErrorCause

  constructor(message?: string, options: AuthErrorOptions = {}) {
    super(message ?? "", options.cause ? { cause: options.cause } : undefined)
    const ctor = new.target as typeof AuthError
    this.name = ctor.type
    this.type = ctor.type
    if (options.code !== undefined) this.code = options.code
    if (options.cause !== undefined) this.cause = options.cause
  }
}

/** `secret` (or `AUTH_SECRET`) is missing or empty. Code `SECRET_MISSING`. */
export class MissingSecret extends AuthError {
  static override type = "MissingSecret"
  declare code?: "SECRET_MISSING"
}

/** A required parameter of a token operation is missing (for example `salt`). Code `SALT_MISSING`. */
export class MissingSalt extends AuthError {
  static override type = "MissingSalt"
  declare code?: "SALT_MISSING"
}

/**
 * A token could not be decoded: malformed, tampered, encrypted with an unknown key, using an
 * unsupported algorithm, or expired. `code` says which ({@link JWTSessionErrorCode}).
 */
export class JWTSessionError extends AuthError {
  static override type = "JWTSessionError"
  declare code?: JWTSessionErrorCode
}

/**
 * Every `code` a {@link JWTSessionError} can carry. They are stable: match on them, never on
 * `message`.
 *
 * - `TOKEN_MALFORMED`: not five base64url segments of the right sizes, or not a string.
 * - `HEADER_INVALID`: the protected header is not a JSON object, or `kid` is not a string.
 * - `ALG_UNSUPPORTED` / `ENC_UNSUPPORTED`: anything but `dir` with `A256CBC-HS512` (or `A256GCM`).
 * - `HEADER_PARAMETER_UNSUPPORTED`: `zip` or `crit` is present.
 * - `KID_UNKNOWN`: the token names a key that none of the secrets derives.
 * - `DECRYPTION_FAILED`: the authentication tag does not verify under any candidate key.
 * - `PAYLOAD_INVALID`: the plaintext is not a UTF-8 JSON object.
 * - `CLAIM_INVALID`: `iat`, `nbf` or `exp` is not a number, or a replicated header claim differs.
 * - `TOKEN_EXPIRED` / `TOKEN_NOT_YET_VALID`: `exp` / `nbf` is outside the 15 s clock tolerance.
 */
export type JWTSessionErrorCode =
  | "TOKEN_MALFORMED"
  | "HEADER_INVALID"
  | "ALG_UNSUPPORTED"
  | "ENC_UNSUPPORTED"
  | "HEADER_PARAMETER_UNSUPPORTED"
  | "KID_UNKNOWN"
  | "DECRYPTION_FAILED"
  | "PAYLOAD_INVALID"
  | "CLAIM_INVALID"
  | "TOKEN_EXPIRED"
  | "TOKEN_NOT_YET_VALID"


/** Builds the error `decode` throws; `cause` holds plain facts, never key material or the token. */
export function tokenError(code: JWTSessionErrorCode, message: string, cause?: ErrorCause): JWTSessionError {
  return new JWTSessionError(message, cause ? { code, cause } : { code })
}
