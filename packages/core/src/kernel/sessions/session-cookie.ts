/**
 * The session cookie, read and cleared in one place for both strategies: a JWT may be split into
 * chunks (`.0`, `.1`, ...), a database token never is, and the same reader and clearer serve both.
 * Auth.js v5's session cookies (and NextAuth.js v4's, which bear the `next-auth.*` names) are read here too (`session.acceptAuthJsSessions`: an encrypted
 * token under the JWT strategy, a database session token under the database strategy once its
 * sessions were moved with the xata adapter's `migrateFromAuthJs`) and cleared with ours, so a
 * sign-out also ends a session carried over from Auth.js.
 */
import { clearChunked, readChunked } from "../cookies/chunks.js"
import type { Cookie } from "../cookies/serialize.js"
import type { AuthRequest, Context } from "../types/http.js"
import type { CookieOption } from "../types/config.js"

/** The request's session cookie value (joined from chunks), if any. */
export function readSessionCookie(req: AuthRequest, ctx: Context): string | undefined {
  return readChunked(ctx.cookies.sessionToken.name, req.cookies) || undefined
}

/**
 * Auth.js v5's session cookie names (its `authjs` prefix, and the `next-auth` one some apps kept and
 * NextAuth.js v4 used), as Auth.js names them on a secure origin and on a plain one. On a secure origin only the `__Secure-`
 * names count: Auth.js never set plain ones there, and a plain cookie can be planted by any http
 * response or sibling subdomain (a login CSRF into the planter's account).
 */
const AUTHJS_SESSION_COOKIES = {
  secure: ["__Secure-authjs.session-token", "__Secure-next-auth.session-token"],
  plain: ["authjs.session-token", "next-auth.session-token"],
} as const

const authJsNames = (ctx: Context) => (ctx.secure ? AUTHJS_SESSION_COOKIES.secure : AUTHJS_SESSION_COOKIES.plain)

/** One of Auth.js's session cookies, with the attributes Auth.js set it with (to clear it). */
function authJsCookie(name: string): CookieOption {
  return { name, options: { httpOnly: true, sameSite: "lax", path: "/", secure: name.startsWith("__Secure-") } }
}

/** The Auth.js session cookie the request carries (joined from chunks): its name is the token's salt. */
export function readAuthJsSessionCookie(req: AuthRequest, ctx: Context): { name: string; value: string } | undefined {
  for (const name of authJsNames(ctx)) {
    const value = readChunked(name, req.cookies)
    if (value) return { name, value }
  }
  return undefined
}

/** Whether `cookies` holds `name` or a chunk of it (`<name>.0`, ...). */
function present(name: string, cookies: Readonly<Record<string, string>>): boolean {
  const prefix = `${name}.`
  for (const key in cookies) if (key === name || key.startsWith(prefix)) return true
  return false
}

/** Expiries for the Auth.js session cookies (and their chunks) the request carries, when they are accepted. */
function authJsExpiries(req: AuthRequest, ctx: Context): Cookie[] {
  if (!ctx.config.session.acceptAuthJsSessions) return []
  let out: Cookie[] | undefined
  for (const name of authJsNames(ctx)) if (present(name, req.cookies)) (out ??= []).push(...clearChunked(authJsCookie(name), req.cookies))
  return out ?? []
}

/**
 * Expiries for the Auth.js session cookies the request still carries (ours are being written).
 * The usual request carries none: then no expiry of ours is made only to be filtered out.
 */
export function foreignSessionCookies(req: AuthRequest, ctx: Context): Cookie[] {
  const theirs = authJsExpiries(req, ctx)
  if (theirs.length === 0) return theirs
  const ours = ctx.cookies.sessionToken.name
  return theirs.filter((c) => c.name !== ours && !c.name.startsWith(`${ours}.`))
}

/**
 * What a session read answers for a session cookie it cannot use (revoked, expired, gone, not
 * ours): the cookie's expiries, except on a background fetch (a `Sec-Fetch-Mode` other than
 * `navigate`). A fetch that left this browser before it signed in again, or before "sign out
 * everywhere else" re-issued its cookie under the new epoch, carries the superseded cookie; its
 * answer, arriving after the new cookie, would expire that one and sign the browser out. So a fetch
 * reads as no session and leaves the cookie to the next navigation (or to a client without Fetch
 * Metadata), which clears it as before.
 */
export function refusedSessionCookies(req: AuthRequest, ctx: Context): Cookie[] {
  const mode = req.headers.get("sec-fetch-mode")
  return mode !== null && mode !== "navigate" ? [] : clearSessionCookie(req, ctx)
}

/** Expiries for the session cookie and every chunk of it the request carries, Auth.js's included. */
export function clearSessionCookie(req: AuthRequest, ctx: Context): Cookie[] {
  const ours = clearChunked(ctx.cookies.sessionToken, req.cookies)
  const theirs = authJsExpiries(req, ctx)
  return theirs.length ? [...ours, ...theirs] : ours
}
