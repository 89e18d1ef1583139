/**
 * The base of core's error classes and the one test of whether an error may reach the user by its
 * own type (`clientSafe`). The catalogue of codes is `codes.ts`; the classes are grouped by where
 * they arise (`sign-in.ts`, `request.ts`, `configuration.ts`, `management.ts`); `errors.ts` lists them all.
 */
import { AuthError } from "@authlib/jwt"
import type { AuthErrorOptions } from "@authlib/jwt"
import type { CataloguedType, ErrorCode } from "./codes.js"

/** Options of a catalogued error: `code` is one of its type's codes (see `ERROR_CODES`). */
export interface CataloguedErrorOptions<T extends CataloguedType> extends AuthErrorOptions {
  code?: ErrorCode<T>
}

/**
 * Base of core's error classes: an `AuthError` whose `code` is typed from the catalogue, so a
 * code that is not in `ERROR_CODES` does not compile.
 */
export class CataloguedError<T extends CataloguedType> extends AuthError {
  static override type = "CataloguedError"
  declare code?: ErrorCode<T>
  constructor(message?: string, options: CataloguedErrorOptions<T> = {}) {
    super(message, options)
  }
}

/** Whether an error may be shown to the end user by its own type. */
export function isClientSafe(err: unknown): err is AuthError {
  return err instanceof AuthError && (err.constructor as typeof AuthError).clientSafe === true
}
