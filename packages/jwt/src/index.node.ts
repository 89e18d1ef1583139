/**
 * The Node entry of `@authlib/jwt` (the `node` export condition): the same API as `index.ts`,
 * bound to the node:crypto fast path for `dir` + `A256CBC-HS512`.
 */
import { createJwtFunctions } from "./api.js"
import type { JwtFunctions } from "./api.js"
import { nodeCrypto } from "./crypto/node.js"

export * from "./index.js"

const node = createJwtFunctions(nodeCrypto)

/** {@inheritDoc JwtFunctions.encode} */
export const encode: JwtFunctions["encode"] = node.encode
/** {@inheritDoc JwtFunctions.decode} */
export const decode: JwtFunctions["decode"] = node.decode
/** {@inheritDoc JwtFunctions.getToken} */
export const getToken: JwtFunctions["getToken"] = node.getToken
/** Signature verification on node:crypto (see `signature/node.ts`). */
export { verifySignature } from "./signature/node.js"
