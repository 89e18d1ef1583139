import { nowSeconds } from "./claims.js"
import type { JweCrypto } from "./crypto/interface.js"
import type { KeyLookup } from "./derive-key.js"
import { saltOf, secretsOf } from "./params.js"
import type { JWT, JWTEncodeParams } from "./types.js"

/** Default token lifetime: 30 days, in seconds. */
export const DEFAULT_MAX_AGE = 30 * 24 * 60 * 60

/** What `encode` needs from its runtime: the crypto and the derived-key cache built on it. */
export interface EncodeContext<K> {
  crypto: JweCrypto<K>
  keys: KeyLookup<K>
}

function claimsOf(token: unknown, maxAge: number): JWT {
  if (typeof token !== "object" || token === null || Array.isArray(token)) {
    throw new TypeError('"token" of encode must be a plain object')
  }
  if (typeof maxAge !== "number" || !Number.isFinite(maxAge)) {
    throw new TypeError('"maxAge" of encode must be a finite number of seconds')
  }
  const iat = nowSeconds()
  // Same claim order and override rule as Auth.js: the payload's keys, then iat, exp and jti.
  const claims = ownCopy(token as JWT)
  claims.iat = iat
  claims.exp = iat + maxAge
  claims.jti = crypto.randomUUID()
  return claims
}

/**
 * The own enumerable string-keyed properties of `token`, as `{ ...token }` copies what JSON keeps
 * (a `__proto__` key defined, never assigned). A loop because `{ ...token, iat, exp, jti }` takes
 * V8's slow path when the spread is followed by new keys: about 2.5 us per encode on Node 20.
 */
function ownCopy(token: JWT): JWT {
  const out: JWT = {}
  const keys = Object.keys(token)
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!
    if (key === "__proto__") Object.defineProperty(out, key, { value: token[key], enumerable: true, writable: true, configurable: true })
    else out[key] = token[key]
  }
  return out
}

/**
 * Issues a token: JWE compact, `dir` + `A256CBC-HS512`, under the key derived from the first
 * secret, with `kid`, `iat`, `exp = iat + maxAge` and a random `jti`.
 */
export async function encodeWith<K>(ctx: EncodeContext<K>, params: JWTEncodeParams): Promise<string> {
  const secrets = secretsOf(params.secret, "encode")
  const salt = saltOf(params.salt, "encode")
  const claims = claimsOf(params.token ?? {}, params.maxAge ?? DEFAULT_MAX_AGE)
  // The key is cached after its first use: no await (a microtask) for a value at hand.
  const found = ctx.keys(secrets[0]!, salt, "A256CBC-HS512")
  const entry = found instanceof Promise ? await found : found
  return ctx.crypto.seal(entry.key, entry.header, JSON.stringify(claims))
}
