import { AuthError } from "@authlib/core"

/** What went wrong, exactly. Stable across releases. */
export type XataAdapterErrorCode =
  /** `createUser`/`updateUser`: another user already has this e-mail address. */
  | "DUPLICATE_EMAIL"
  /** `linkAccount`: this provider account is already linked. */
  | "DUPLICATE_ACCOUNT"
  /** `createSession`/`createVerificationToken`/`createAuthenticator`: the key already exists. */
  | "DUPLICATE_KEY"
  /** The record refers to a user that does not exist. */
  | "UNKNOWN_USER"
  /** `updateAuthenticatorCounter`: no authenticator has this credential ID. */
  | "UNKNOWN_CREDENTIAL"
  /** A value Postgres cannot store as given (NUL byte, lone surrogate, id of 256+ characters...). */
  | "INVALID_INPUT"
  /** `XataAdapter`/`migrate` received something that is not a XataClient, PGlite or node-postgres client. */
  | "UNSUPPORTED_CLIENT"
  /** The schema is missing or older than this release: run `migrate`. */
  | "SCHEMA_MISSING"
  /** `migrateFromAuthJs`: the Auth.js tables of the named source are not in the database. */
  | "AUTHJS_TABLES_MISSING"
  /** Any other database failure; `cause.err` holds the driver's error. */
  | "QUERY_FAILED"

/**
 * The one error class of `@authlib/xata-adapter`. Nothing is half-written when it is thrown:
 * every multi-record write is one SQL statement.
 */
export class XataAdapterError extends AuthError {
  static override type = "XataAdapterError"
  declare code: XataAdapterErrorCode

  constructor(message: string, options: { code: XataAdapterErrorCode; cause?: Record<string, unknown> & { err?: Error } }) {
    super(message, options)
  }
}
