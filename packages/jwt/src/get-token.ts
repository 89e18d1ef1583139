import { joinCookieChunks } from "./cookie-chunks.js"
import { bearerToken, headerValue, parseCookieHeader } from "./cookie-header.js"
import type { HeaderSource } from "./cookie-header.js"
import { AuthError } from "./errors.js"
import { secretsOf } from "./params.js"
import type { GetTokenParams, JWT, JWTOptions, LoggerInstance } from "./types.js"

/** Default session cookie name; `__Secure-` is prepended when the cookie is secure. */
export const SESSION_COOKIE_NAME = "authlib.session-token"

/** What `getToken` resolves: the raw string with `raw: true`, else the payload; `null` without a valid token. */
export type GetTokenResult<R extends boolean> = (R extends true ? string : JWT) | null

/** A variable of the environment, where the runtime has one; the only env read of the package. */
function fromEnv(name: string): string | undefined {
  try {
    const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env
    return env?.[name] || undefined
  } catch {
    return undefined // runtimes that guard env access (Deno without --allow-env) throw
  }
}

/** `WEBAUTH_URL` from the environment, for the `secureCookie` default (spec 2.4). */
function appUrlFromEnv(): string | undefined {
  return fromEnv("WEBAUTH_URL")
}

/**
 * The default of `secureCookie`: true when the request URL is https (the cookie was set over TLS,
 * so it carries the `__Secure-` name), or when `WEBAUTH_URL` is set and not `http://` (spec 2.4).
 */
export function isSecureByDefault(req: GetTokenParams["req"]): boolean {
  const url = (req as { url?: unknown }).url
  if (typeof url === "string" && /^https:/i.test(url)) return true
  const appUrl = appUrlFromEnv()
  return appUrl !== undefined && !/^http:\/\//i.test(appUrl)
}

/** The session cookie (joined from chunks), else the Bearer token; `null` for a malformed Bearer. */
function findToken(headers: HeaderSource, cookieName: string): string | null | undefined {
  const cookieHeader = headerValue(headers, "cookie")
  const fromCookie = cookieHeader ? joinCookieChunks(cookieName, parseCookieHeader(cookieHeader, cookieName)) : undefined
  return fromCookie ?? bearerToken(headerValue(headers, "authorization"))
}

/** Reports a failed decode: expiry is routine (debug), anything else may be an attack (warn). */
function logFailure(logger: GetTokenParams["logger"], error: unknown): void {
  if (!logger) return
  const authError = error instanceof AuthError ? error : undefined
  const level: keyof LoggerInstance = authError?.code === "TOKEN_EXPIRED" ? "debug" : "warn"
  try {
    logger[level]?.(authError?.type ?? "UnknownError", error)
  } catch {
    // A broken logger must not turn a rejected token into a crash.
  }
}

/**
 * `AUTH_SECRET`, then `AUTH_SECRET_1` to `_3`, from the environment (spec 5.4: a `getToken` call
 * without `secret` uses the environment's, as Auth.js users write it). Read on each call: an edge
 * runtime without an environment simply has none.
 */
function envSecret(): string | string[] | undefined {
  const all = ["AUTH_SECRET", "AUTH_SECRET_1", "AUTH_SECRET_2", "AUTH_SECRET_3"].map(fromEnv).filter((s): s is string => !!s)
  return all.length === 0 ? undefined : all.length === 1 ? all[0] : all
}

/**
 * Reads and decodes the session token of a request. See the public `getToken` for the rules.
 * `decodeDefault` is the runtime's built-in decoder.
 */
export async function getTokenWith<R extends boolean = false>(
  decodeDefault: JWTOptions["decode"],
  params: GetTokenParams<R>,
): Promise<GetTokenResult<R>> {
  const { req } = params ?? {}
  if (!req || typeof req !== "object" || !req.headers) throw new TypeError('"req" of getToken must have headers')
  const secure = params.secureCookie ?? isSecureByDefault(req)
  const cookieName = params.cookieName ?? (secure ? `__Secure-${SESSION_COOKIE_NAME}` : SESSION_COOKIE_NAME)
  const token = findToken(req.headers, cookieName)
  if (!token) return null
  if (params.raw) return token as GetTokenResult<R>
  const secret = params.secret ?? envSecret()
  secretsOf(secret, "getToken") // a missing secret is a configuration error: throw, never null
  const decode = params.decode ?? decodeDefault
  const decodeParams = { token, secret: secret!, salt: params.salt ?? cookieName }
  try {
    return ((await decode(decodeParams)) ?? null) as GetTokenResult<R>
  } catch (error) {
    logFailure(params.logger, error)
    return null
  }
}
