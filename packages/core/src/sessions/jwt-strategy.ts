/**
 * JWT sessions: the session is an encrypted token (JWE) in the session cookie, chunked when large.
 * The key salt is the cookie name (Auth.js v5 construction), so tokens move between the two.
 */
import type { JWT } from "@authlib/jwt"
import { clearChunked, readChunked, writeChunked } from "../cookies/chunks.js"
import type { Cookie } from "../cookies/serialize.js"
import { SessionTokenError } from "../errors.js"
import { MAX_HEADER_BYTES } from "../http/limits.js"
import type { AuthRequest, Context } from "../http/types.js"

/**
 * The longest session token written. Its cookies come back in every request, and a request whose
 * headers pass `MAX_HEADER_BYTES` (Node's own default limit too) is refused with 431: a bigger
 * token would lock the browser out of every route, sign-out included. 4 KiB stay for the rest.
 */
export const MAX_SESSION_TOKEN_LENGTH = MAX_HEADER_BYTES - 4096

/** The session cookie(s) holding `token`, expiring `session.maxAge` from now. */
async function writeToken(token: JWT, req: AuthRequest, ctx: Context): Promise<{ cookies: Cookie[]; expires: Date }> {
  const { config, cookies } = ctx
  const option = cookies.sessionToken
  const value = await config.jwt.encode({ token, secret: [...config.secret], salt: option.name, maxAge: config.jwt.maxAge })
  if (value.length > MAX_SESSION_TOKEN_LENGTH) {
    throw new SessionTokenError(`The session token is ${value.length} characters, over the ${MAX_SESSION_TOKEN_LENGTH} a request can carry back: keep less in the token the jwt callback returns`, {
      code: "SESSION_TOKEN_TOO_LARGE",
      cause: { length: value.length, max: MAX_SESSION_TOKEN_LENGTH },
    })
  }
  // Whole seconds, as `encode` computes `exp`: the session's `expires` then equals the token's.
  const now = Math.floor(Date.now() / 1000)
  const withExpiry = { name: option.name, options: { ...option.options, expires: new Date((now + config.session.maxAge) * 1000) } }
  return { cookies: writeChunked(withExpiry, value, req.cookies), expires: new Date((now + config.jwt.maxAge) * 1000) }
}

/** Starts a JWT session (only `issueSession` calls this). */
export function createJwtSession(token: JWT, req: AuthRequest, ctx: Context): Promise<{ cookies: Cookie[]; expires: Date }> {
  return writeToken(token, req, ctx)
}

/** Re-issues an existing JWT session after a change or once `updateAge` has passed. */
export function refreshJwtSession(token: JWT, req: AuthRequest, ctx: Context): Promise<{ cookies: Cookie[]; expires: Date }> {
  return writeToken(token, req, ctx)
}

/** The raw session token of the request (joined from chunks), if any. */
export function readJwtCookie(req: AuthRequest, ctx: Context): string | undefined {
  return readChunked(ctx.cookies.sessionToken.name, req.cookies)
}

/** Decodes the session token. Rejects (JWTSessionError) on a token that does not decode. */
export async function decodeJwtSession(raw: string, ctx: Context): Promise<JWT | null> {
  const { config, cookies } = ctx
  return config.jwt.decode({ token: raw, secret: [...config.secret], salt: cookies.sessionToken.name })
}

/** Expiries for the session cookie and all its chunks. */
export function clearJwtSession(req: AuthRequest, ctx: Context): Cookie[] {
  return clearChunked(ctx.cookies.sessionToken, req.cookies)
}
