import { JWTSessionError } from "./errors.js"
import type { ErrorCause, JWTSessionErrorCode } from "./errors.js"

/** Builds the error `decode` throws; `cause` holds plain facts, never key material or the token. */
export function tokenError(
  code: JWTSessionErrorCode,
  message: string,
  cause?: ErrorCause,
): JWTSessionError {
  return new JWTSessionError(message, cause ? { code, cause } : { code })
}
