/** A value or a promise of it. */
export type Awaitable<T> = T | PromiseLike<T>

/** The claims authlib puts in a session token by default. */
export interface DefaultJWT extends Record<string, unknown> {
  name?: string | null
  email?: string | null
  picture?: string | null
  sub?: string
  iat?: number
  exp?: number
  jti?: string
}

/** The payload of a session token, as returned by the `jwt` callback. Extend it by module augmentation. */
export interface JWT extends Record<string, unknown>, DefaultJWT {}

export interface JWTEncodeParams<Payload = JWT> {
  /** Lifetime of the token in seconds. Default 30 days. */
  maxAge?: number
  /** Salt of the key derivation; authlib uses the cookie name. Required. */
  salt: string
  /** The secret, or several for rotation: the first one encrypts. Required. */
  secret: string | string[]
  /** The payload to encrypt. */
  token?: Payload
}

export interface JWTDecodeParams {
  /** Salt of the key derivation; authlib uses the cookie name. Required. */
  salt: string
  /** The secret, or several for rotation: the first one that decrypts is used. Required. */
  secret: string | string[]
  /** The token to decode. */
  token?: string
}

/** What `decodeNextAuthV4` takes: no salt, v4 derives its session-token key from the secret alone. */
export interface NextAuthV4DecodeParams {
  /** `NEXTAUTH_SECRET` of the v4 app, or several (each is tried in order). Required. */
  secret: string | string[]
  /** The token to decode (a v4 session cookie's value, joined from its chunks). */
  token?: string
}

export interface JWTOptions {
  /** Lifetime of issued tokens in seconds. Default 30 days. */
  maxAge: number
  /** Replaces the built-in encoder. */
  encode: (params: JWTEncodeParams) => Awaitable<string>
  /** Replaces the built-in decoder. */
  decode: (params: JWTDecodeParams) => Awaitable<JWT | null>
}

/** The logger shape shared by authlib packages: each level takes a code then any message parts. */
export interface LoggerInstance {
  error: (code: string, ...message: unknown[]) => void
  warn: (code: string, ...message: unknown[]) => void
  debug: (code: string, ...message: unknown[]) => void
}

export interface GetTokenParams<R extends boolean = false> {
  /** A `Request`, or any object with `headers` as `Headers` or a plain record. */
  req: Request | { headers: Headers | Record<string, string | string[] | undefined> }
  /** Name of the session cookie. Default `authlib.session-token` (`__Secure-` prefixed when secure). */
  cookieName?: string
  /** Replaces the built-in decoder. */
  decode?: JWTOptions["decode"]
  /** Receives decode failures. */
  logger?: Partial<LoggerInstance> | Console
  /** Return the raw token string instead of decoding it. */
  raw?: R
  /** Salt of the key derivation. Default: the cookie name. */
  salt?: string
  /**
   * The secret(s). Default: the environment's `AUTH_SECRET` (then `AUTH_SECRET_1` to `_3`, older
   * secrets that still decrypt), from the runtime's environment where it has one, as Auth.js reads it.
   */
  secret?: string | string[]
  /** Use the `__Secure-` cookie name. Default: see `getToken`. */
  secureCookie?: boolean
}
