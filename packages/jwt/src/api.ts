import type { JweCrypto } from "./crypto/interface.js"
import { decodeWith } from "./decode.js"
import { createKeyCache } from "./derive-key.js"
import { encodeWith } from "./encode.js"
import { getTokenWith } from "./get-token.js"
import { createV4KeyCache, decodeNextAuthV4With } from "./next-auth-v4.js"
import type { GetTokenResult } from "./get-token.js"
import type { GetTokenParams, JWT, JWTDecodeParams, JWTEncodeParams, NextAuthV4DecodeParams } from "./types.js"

/** The token functions, bound to one crypto implementation and its derived-key cache. */
export interface JwtFunctions {
  /**
   * Issues a session token: JWE compact, `alg: "dir"`, `enc: "A256CBC-HS512"`, under the key
   * HKDF-SHA-256(secret, salt, `Auth.js Generated Encryption Key (<salt>)`), with `kid` (the key's
   * JWK thumbprint), `iat`, `exp = iat + maxAge` (default 30 days) and a random `jti`. With several
   * secrets the first one encrypts. The format is Auth.js v5's, so `@auth/core/jwt` reads it.
   *
   * @throws `MissingSecret` / `MissingSalt` when `secret` / `salt` is missing or empty;
   * `TypeError` when `token` is not an object or `maxAge` not a finite number.
   * @example
   * ```ts
   * const token = await encode({ token: { sub: "user-1" }, secret, salt: "authlib.session-token" })
   * ```
   */
  encode(params: JWTEncodeParams): Promise<string>
  /**
   * Decrypts and validates a session token made by `encode` or by `@auth/core/jwt`.
   * Resolves `null` when `token` is `undefined`, `null` or `""` (no token is not an error).
   * Rejects with a `JWTSessionError` for any other token that is not valid, with a stable `code`
   * (`TOKEN_EXPIRED`, `DECRYPTION_FAILED`, `KID_UNKNOWN`, ...: see `JWTSessionErrorCode`); it never
   * returns part of a payload. Secrets rotate: the one whose key matches the token's `kid` is used,
   * a token without `kid` is tried with each secret in order. Legacy `A256GCM` tokens are read,
   * every other `alg`/`enc`, `zip` and `crit` are rejected. Clock tolerance: 15 s.
   *
   * @throws `MissingSecret` / `MissingSalt` (configuration errors, even without a token).
   */
  decode(params: JWTDecodeParams): Promise<JWT | null>
  /**
   * Reads the session token of a request: the cookie `cookieName` (joined from `<name>.0..N`
   * chunks), else `Authorization: Bearer <token>`. Resolves the payload, the raw string with
   * `raw: true`, or `null` when there is no token or it does not decode (the failure goes to
   * `logger`: `debug` for an expired token, `warn` otherwise).
   *
   * Defaults: `cookieName` is `authlib.session-token`, `__Secure-authlib.session-token` when
   * `secureCookie`; `secureCookie` is true when the request URL is https or `WEBAUTH_URL` is set
   * and not `http://`; `salt` is the cookie name; `decode` is the built-in one.
   *
   * @throws `MissingSecret` when a token is found, `raw` is not set and `secret` is missing.
   */
  getToken<R extends boolean = false>(params: GetTokenParams<R>): Promise<GetTokenResult<R>>
  /**
   * Decrypts and validates a session token NextAuth.js v4 (`next-auth` 4.x) issued: JWE `dir` +
   * `A256GCM` under HKDF-SHA-256(secret, salt "", info "NextAuth.js Generated Encryption Key"),
   * 32 bytes, as v4's `next-auth/jwt` writes it for its session cookie (`next-auth.session-token`,
   * `__Secure-next-auth.session-token`, chunked `.0`, `.1`: join them first). For carrying v4
   * sessions over: authlib never writes this format. Resolves `null` for no token; rejects with a
   * `JWTSessionError` as `decode` does (`ENC_UNSUPPORTED` for any other `enc`, `DECRYPTION_FAILED`
   * when no secret opens it, `TOKEN_EXPIRED`, ...). Clock tolerance: 15 s, as in v4.
   *
   * @throws `MissingSecret` when `secret` is missing or empty.
   * @example
   * ```ts
   * const token = await decodeNextAuthV4({ token: cookies["next-auth.session-token"], secret })
   * ```
   */
  decodeNextAuthV4(params: NextAuthV4DecodeParams): Promise<JWT | null>
}

/** Binds the token functions to a crypto implementation, with a fresh cache of 64 derived keys (and one of v4 keys). */
export function createJwtFunctions<K>(crypto: JweCrypto<K>): JwtFunctions {
  const ctx = { crypto, keys: createKeyCache(crypto, 64), v4Keys: createV4KeyCache(crypto) }
  const decode = (params: JWTDecodeParams) => decodeWith(ctx, params)
  return {
    encode: (params) => encodeWith(ctx, params),
    decode,
    getToken: (params) => getTokenWith(decode, params),
    decodeNextAuthV4: (params) => decodeNextAuthV4With(ctx, params),
  }
}
