/**
 * The Node entry of `@authlib/jwt` (the `node` export condition): the same API as `index.ts`,
 * bound to the node:crypto fast path for `dir` + `A256CBC-HS512`.
 */
import { createJwtFunctions } from "./api.js"
import type { JwtFunctions } from "./api.js"
import { nodeCrypto } from "./crypto/node.js"

// The shared API, named (encode, decode, getToken, decodeNextAuthV4, verifySignature and fastSha256 are this entry's own, below).
export {
  AuthError, COOKIE_ATTRIBUTES_SIZE, COOKIE_MAX_SIZE, DEFAULT_MAX_AGE, JWTSessionError, MissingSalt, MissingSecret,
  SESSION_COOKIE_NAME, isNextAuthV4Token, joinCookieChunks, randomBytes, splitCookieValue, staleCookieNames,
} from "./index.js"
export type {
  AuthErrorOptions, Awaitable, CookieChunk, CookieRecord, DefaultJWT, ErrorCause, GetTokenParams, GetTokenResult, JWT,
  JWTDecodeParams, JWTEncodeParams, JWTOptions, JWTSessionErrorCode, JwtFunctions, LoggerInstance, NextAuthV4DecodeParams, SignatureAlgorithm,
  SplitCookieOptions, VerifySignature, VerifySignatureParams, FastSha256,
} from "./index.js"

const node = createJwtFunctions(nodeCrypto)

/** {@inheritDoc JwtFunctions.encode} */
export const encode: JwtFunctions["encode"] = node.encode
/** {@inheritDoc JwtFunctions.decode} */
export const decode: JwtFunctions["decode"] = node.decode
/** {@inheritDoc JwtFunctions.getToken} */
export const getToken: JwtFunctions["getToken"] = node.getToken
/** {@inheritDoc JwtFunctions.decodeNextAuthV4} */
export const decodeNextAuthV4: JwtFunctions["decodeNextAuthV4"] = node.decodeNextAuthV4
/** Signature verification on node:crypto (see `signature/node.ts`). */
export { verifySignature } from "./signature/node.js"
/** SHA-256 on node:crypto, synchronous (see `crypto/node.ts`). */
export { fastSha256 } from "./crypto/node.js"
