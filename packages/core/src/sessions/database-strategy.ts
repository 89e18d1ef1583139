/**
 * Database sessions: the cookie holds a random token (256 bits by default); the adapter stores only
 * its SHA-256 hash, so a leaked sessions table cannot be replayed. Expiry slides at most once per
 * `updateAge`; an expired session is deleted and reads as no session.
 */
import type { AdapterSession, AdapterUser } from "../adapters.js"
import type { Cookie } from "../cookies/serialize.js"
import { expireCookie } from "../cookies/serialize.js"
import { SessionTokenError } from "../errors.js"
import type { AuthRequest, Context } from "../http/types.js"
import { sha256 } from "../security/random.js"

const MIN_TOKEN_LENGTH = 22 // 128 bits in base64url

function sessionCookie(token: string, expires: Date, ctx: Context): Cookie {
  const option = ctx.cookies.sessionToken
  return { name: option.name, value: token, options: { ...option.options, expires } }
}

/** Starts a database session for `userId` (only `issueSession` calls this). */
export async function createDatabaseSession(userId: string, ctx: Context): Promise<{ cookies: Cookie[]; session: AdapterSession }> {
  const { config } = ctx
  const token = config.session.generateSessionToken()
  if (typeof token !== "string" || token.length < MIN_TOKEN_LENGTH)
    throw new SessionTokenError("generateSessionToken must return a string of at least 128 bits", { code: "SESSION_TOKEN_WEAK" })
  const expires = new Date(Date.now() + config.session.maxAge * 1000)
  const session = await config.adapter!.createSession!({ sessionToken: sha256(token), userId, expires })
  return { cookies: [sessionCookie(token, expires, ctx)], session }
}

/** The session token in the request's cookie, if any. */
export function readDatabaseCookie(req: AuthRequest, ctx: Context): string | undefined {
  return req.cookies[ctx.cookies.sessionToken.name] || undefined
}

export type DatabaseSessionRead =
  | { session: AdapterSession; user: AdapterUser; cookies: Cookie[] }
  | { session: null; cookies: Cookie[] }

/**
 * Looks the session up by the hash of `token`. Unknown: clears the cookie. Expired: deletes the
 * record and clears the cookie. Due for refresh (`updateAge` passed): slides `expires` and re-sends.
 */
export async function readDatabaseSession(token: string, req: AuthRequest, ctx: Context): Promise<DatabaseSessionRead> {
  const { adapter, session: options } = ctx.config
  const hash = sha256(token)
  const found = await adapter!.getSessionAndUser!(hash)
  const clear = [expireCookie(ctx.cookies.sessionToken.name, ctx.cookies.sessionToken.options)]
  if (!found) return { session: null, cookies: clear }
  const now = Date.now()
  if (new Date(found.session.expires).getTime() <= now) {
    await adapter!.deleteSession!(hash)
    return { session: null, cookies: clear }
  }
  const lastWrite = new Date(found.session.expires).getTime() - options.maxAge * 1000
  if (now - lastWrite < options.updateAge * 1000) return { ...found, cookies: [] }
  const expires = new Date(now + options.maxAge * 1000)
  await adapter!.updateSession!({ sessionToken: hash, expires })
  return { session: { ...found.session, expires }, user: found.user, cookies: [sessionCookie(token, expires, ctx)] }
}

/** Deletes the request's session record; returns what the adapter returned. */
export async function deleteDatabaseSession(token: string, ctx: Context): Promise<AdapterSession | null | undefined | void> {
  return ctx.config.adapter!.deleteSession!(sha256(token))
}
