/**
 * Reading the session: the hot path of GET /session, and POST /session (update). A JWT session is
 * decoded, the `jwt` callback runs only when the user configured one (the default is the identity),
 * and the token is re-encrypted only when that callback changed it, when `updateAge` has passed, or
 * on an update. No CSRF token is minted here. A token that does not decode reads as no session and
 * its cookies are cleared.
 */
import type { JWT } from "@authlib/jwt"
import { AuthError, CallbackError } from "../errors.js"
import { emitEvent } from "../events.js"
import type { AuthRequest, AuthResponse, Context } from "../http/types.js"
import type { Session, User } from "../types.js"
import { clearJwtSession, decodeJwtSession, readJwtCookie, refreshJwtSession } from "./jwt-strategy.js"
import { readDatabaseCookie, readDatabaseSession } from "./database-strategy.js"

/** Data of a session update (POST /session), or undefined for a read. */
export interface SessionUpdate {
  data: unknown
}

/** Runs a user callback, turning a throw into a logged `CallbackError`. */
async function callUser<T>(name: string, fn: () => T | PromiseLike<T>): Promise<T> {
  try {
    return await fn()
  } catch (err) {
    if (err instanceof AuthError) throw err
    throw new CallbackError(`callbacks.${name} threw`, { code: "CALLBACK_THREW", cause: { callback: name, ...(err instanceof Error ? { err } : { thrown: String(err) }) } })
  }
}

function publicUser(source: { name?: unknown; email?: unknown; image?: unknown }): User {
  const user: User = {}
  if (source.name !== undefined) user.name = source.name as string | null
  if (source.email !== undefined) user.email = source.email as string | null
  if (source.image !== undefined) user.image = source.image as string | null
  return user
}

async function readJwt(req: AuthRequest, ctx: Context, update?: SessionUpdate): Promise<AuthResponse<Session | null>> {
  const raw = readJwtCookie(req, ctx)
  if (!raw) return { json: null }
  let token: JWT | null
  try {
    token = await decodeJwtSession(raw, ctx)
  } catch (err) {
    ctx.config.logger.debug("session-token-invalid", err)
    return { json: null, cookies: clearJwtSession(req, ctx) }
  }
  if (!token) return { json: null, cookies: clearJwtSession(req, ctx) }
  const { config } = ctx
  const before = config.hasJwtCallback || update ? JSON.stringify(token) : undefined
  const params = update ? { token, trigger: "update" as const, session: update.data } : { token }
  const next = before === undefined ? token : await callUser("jwt", () => config.callbacks.jwt(params))
  if (!next) return { json: null, cookies: clearJwtSession(req, ctx) }
  const changed = before !== undefined && JSON.stringify(next) !== before
  const issuedAt = typeof token.iat === "number" ? token.iat * 1000 : 0
  const due = Date.now() - issuedAt >= config.session.updateAge * 1000
  // A custom `jwt.decode` may return a token without `exp`: then it lives `maxAge` from now.
  let expires = new Date(typeof token.exp === "number" ? token.exp * 1000 : Date.now() + config.session.maxAge * 1000)
  let cookies: AuthResponse["cookies"] = []
  if (changed || due || update) ({ cookies, expires } = await refreshJwtSession(next, req, ctx))
  const base: Session = { user: publicUser({ name: next.name, email: next.email, image: next.picture }), expires: expires.toISOString() }
  const session = await callUser("session", () =>
    config.callbacks.session(update ? { session: base, token: next, newSession: update.data, trigger: "update" } : { session: base, token: next }))
  await emitEvent(ctx, "session", { session: session as Session, token: next })
  return { json: session as Session, cookies }
}

async function readDatabase(req: AuthRequest, ctx: Context, update?: SessionUpdate): Promise<AuthResponse<Session | null>> {
  const raw = readDatabaseCookie(req, ctx)
  if (!raw) return { json: null }
  const read = await readDatabaseSession(raw, req, ctx)
  if (!read.session) return { json: null, cookies: read.cookies }
  const base: Session = { user: publicUser(read.user), expires: new Date(read.session.expires).toISOString() }
  const { user } = read
  const session = await callUser("session", () =>
    ctx.config.callbacks.session(update ? { session: base, user, newSession: update.data, trigger: "update" } : { session: base, user }))
  await emitEvent(ctx, "session", { session: session as Session, token: read.session as unknown as JWT })
  return { json: session as Session, cookies: read.cookies }
}

/** The session of the request as the `session` callback shapes it, or `null`. */
export function readSession(req: AuthRequest, ctx: Context, update?: SessionUpdate): Promise<AuthResponse<Session | null>> {
  return ctx.config.session.strategy === "jwt" ? readJwt(req, ctx, update) : readDatabase(req, ctx, update)
}
