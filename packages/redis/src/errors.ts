import { AuthError } from "@authlib/core"

/** What went wrong, exactly. Stable across releases. */
export type AuthlibRedisErrorCode =
  /** A rate-limit `hit` or `reset` received a key, window or cost out of range. */
  | "INVALID_INPUT"
  /** `RedisRateLimitStore` or `withRedisCache` received an option out of range, or no usable client. */
  | "INVALID_OPTION"
  /** The client is not connected, or Redis did not answer within `timeoutMs`. */
  | "UNAVAILABLE"
  /** Redis answered with an error; `cause.err` holds it. */
  | "COMMAND_FAILED"
  /** Redis answered something the scripts never return (another program wrote the key?). */
  | "UNEXPECTED_REPLY"

/**
 * The one error class of `@authlib/redis`. The rate-limit store throws it (core then applies the
 * limits' fail-closed or fail-open policy); the session cache never throws it to core: a cache that
 * cannot answer is logged and the database answers instead.
 */
export class AuthlibRedisError extends AuthError {
  static override type = "AuthlibRedisError"
  declare code: AuthlibRedisErrorCode

  constructor(message: string, options: { code: AuthlibRedisErrorCode; cause?: Record<string, unknown> & { err?: Error } }) {
    super(message, options)
  }
}
