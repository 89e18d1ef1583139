/**
 * The error of two-factor sign-in. Its own file (not `errors.ts`), since it belongs to this
 * capability; `index.ts` exports it with the others and `ERROR_CODES.TwoFactorError` lists its codes.
 */
import { CataloguedError } from "../../errors.js"

/**
 * A two-factor request that cannot be done. `SECRET_INVALID`: a TOTP secret to import is not
 * base32 of at least 16 bytes (the message names the position of a bad character, never the
 * secret). Client-safe: `code` says why, and nothing in it depends on the user's stored factors.
 */
export class TwoFactorError extends CataloguedError<"TwoFactorError"> {
  static override type = "TwoFactorError"
  declare type: "TwoFactorError"
  static override clientSafe = true
}
