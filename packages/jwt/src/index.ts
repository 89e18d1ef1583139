/**
 * `@authlib/jwt`: encrypted session tokens in the Auth.js v5 format, on Web platform APIs.
 * This entry runs everywhere (WebCrypto); Node loads `index.node.ts` through the `node` export
 * condition, which binds the same functions to the node:crypto fast path.
 */
import { createJwtFunctions } from "./api.js"
import type { JwtFunctions } from "./api.js"
import { webCrypto } from "./crypto/web.js"

export { AuthError, JWTSessionError, MissingSalt, MissingSecret } from "./errors.js"
export type { AuthErrorOptions, ErrorCause, JWTSessionErrorCode } from "./errors.js"
export type * from "./types.js"
export type { JwtFunctions } from "./api.js"
export type { GetTokenResult } from "./get-token.js"
export { SESSION_COOKIE_NAME } from "./get-token.js"
export { DEFAULT_MAX_AGE } from "./encode.js"
export { isNextAuthV4Token } from "./next-auth-v4.js"
export { randomBytes } from "./random.js"
export { verifySignature } from "./signature/web.js"
export type { SignatureAlgorithm, VerifySignature, VerifySignatureParams } from "./signature/types.js"
/** A synchronous SHA-256 (base64url) where the runtime has one built in: `undefined` in this entry (see `FastSha256`). */
export { fastSha256 } from "./crypto/web.js"
export type { FastSha256 } from "./crypto/interface.js"
export {
  COOKIE_ATTRIBUTES_SIZE,
  COOKIE_MAX_SIZE,
  joinCookieChunks,
  splitCookieValue,
  staleCookieNames,
} from "./cookie-chunks.js"
export type { CookieChunk, CookieRecord, SplitCookieOptions } from "./cookie-chunks.js"

const web = createJwtFunctions(webCrypto)

/** {@inheritDoc JwtFunctions.encode} */
export const encode: JwtFunctions["encode"] = web.encode
/** {@inheritDoc JwtFunctions.decode} */
export const decode: JwtFunctions["decode"] = web.decode
/** {@inheritDoc JwtFunctions.getToken} */
export const getToken: JwtFunctions["getToken"] = web.getToken
/** {@inheritDoc JwtFunctions.decodeNextAuthV4} */
export const decodeNextAuthV4: JwtFunctions["decodeNextAuthV4"] = web.decodeNextAuthV4
