/**
 * The session cookie, read and cleared in one place for both strategies: a JWT may be split into
 * chunks (`.0`, `.1`, ...), a database token never is, and the same reader and clearer serve both.
 */
import { clearChunked, readChunked } from "../cookies/chunks.js"
import type { Cookie } from "../cookies/serialize.js"
import type { AuthRequest, Context } from "../http/types.js"

/** The request's session cookie value (joined from chunks), if any. */
export function readSessionCookie(req: AuthRequest, ctx: Context): string | undefined {
  return readChunked(ctx.cookies.sessionToken.name, req.cookies) || undefined
}

/** Expiries for the session cookie and every chunk of it the request carries. */
export function clearSessionCookie(req: AuthRequest, ctx: Context): Cookie[] {
  return clearChunked(ctx.cookies.sessionToken, req.cookies)
}
