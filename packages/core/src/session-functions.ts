/**
 * Server functions for a user's own sessions (database strategy): list them (the current one
 * marked), end one, end all the others; and, for the app, end every session of a user (after a
 * password change or a ban). Like the passkey functions they check no CSRF token: call them from
 * endpoints that are themselves protected (same-origin POST actions).
 *
 * Sessions are named by an opaque id (a keyed hash of the stored token): never the cookie's token
 * nor the stored hash. An id of another user's session is refused exactly like an unknown one.
 * JWT sessions are not stored, so they cannot be listed or ended one by one
 * (`SessionManagementError` / `DATABASE_SESSIONS_ONLY`).
 */
import type { AdapterSession } from "./adapters.js"
import { resolveConfig } from "./config/resolve.js"
import { MissingAdapterMethods, SessionManagementError, SessionRequired } from "./errors.js"
import type { AuthRequest, Context } from "./http/types.js"
import { sha256 } from "./security/random.js"
import { serverCall } from "./server-call.js"
import { sessionStrategy } from "./sessions/strategy.js"
import type { CurrentStoredSession } from "./sessions/types.js"
import type { AuthConfig } from "./types.js"

/** One of the user's sessions as `listSessions` shows it. */
export interface SessionInfo {
  /** Opaque and stable; pass it to `revokeSession`. */
  id: string
  expires: Date
  /** Whether it is the session of the request. */
  current: boolean
}

const NEEDED = ["listSessionsByUserId", "deleteSessionsByUserId", "deleteSession"] as const

/** The opaque id of a stored session: never its token or the stored hash. */
function idOf(sessionToken: string, secret: string): string {
  return sha256(`authlib-session-id\u0000${sessionToken}\u0000${secret}`).slice(0, 24)
}

async function current(req: AuthRequest, ctx: Context): Promise<CurrentStoredSession> {
  const strategy = sessionStrategy(ctx.config)
  if (!strategy.storedSession) throw new SessionManagementError("JWT sessions are not stored: they cannot be listed or ended one by one", { code: "DATABASE_SESSIONS_ONLY" })
  const missing = NEEDED.filter((m) => typeof ctx.config.adapter?.[m] !== "function")
  if (missing.length) throw new MissingAdapterMethods(`Managing sessions needs an adapter with ${missing.join(", ")}`, { code: "ADAPTER_METHODS_MISSING", cause: { missing } })
  const session = await strategy.storedSession(req, ctx)
  if (!session) throw new SessionRequired("Sign in to manage your sessions", { code: "SESSION_MISSING" })
  return session
}

const live = (s: AdapterSession) => new Date(s.expires).getTime() > Date.now()

/** The request user's live sessions (the route and the server function share it). */
export async function listOwnSessions(req: AuthRequest, ctx: Context): Promise<SessionInfo[]> {
  const me = await current(req, ctx)
  const secret = ctx.config.secret[0]!
  const sessions = (await ctx.config.adapter!.listSessionsByUserId!(me.userId)).filter(live)
  return sessions
    .sort((a, b) => new Date(a.expires).getTime() - new Date(b.expires).getTime())
    .map((s) => ({ id: idOf(s.sessionToken, secret), expires: new Date(s.expires), current: s.sessionToken === me.sessionToken }))
}

/** Ends one of the request user's sessions, by opaque id. */
export async function revokeOwnSession(req: AuthRequest, ctx: Context, input: { id: unknown }): Promise<void> {
  if (typeof input?.id !== "string" || input.id === "") throw new SessionManagementError("Name the session to end", { code: "SESSION_ID_MISSING" })
  const me = await current(req, ctx)
  const secret = ctx.config.secret[0]!
  const target = (await ctx.config.adapter!.listSessionsByUserId!(me.userId)).find((s) => idOf(s.sessionToken, secret) === input.id)
  if (!target) throw new SessionManagementError("No such session", { code: "SESSION_UNKNOWN" })
  await ctx.config.adapter!.deleteSession!(target.sessionToken)
}

/** Ends every session of the request user but its own; how many ended. */
export async function revokeOwnOtherSessions(req: AuthRequest, ctx: Context): Promise<number> {
  const me = await current(req, ctx)
  return ctx.config.adapter!.deleteSessionsByUserId!(me.userId, me.sessionToken)
}

/** The signed-in user's live sessions, soonest expiring first, the request's own marked `current`. */
export function listSessions(request: Request, config: AuthConfig): Promise<SessionInfo[]> {
  return serverCall(request, config, "sessions", listOwnSessions)
}

/** Ends one of the signed-in user's sessions (its own included: that signs this browser out at its next request). */
export function revokeSession(request: Request, config: AuthConfig, input: { id: string }): Promise<void> {
  return serverCall(request, config, "sessions", (req, ctx) => revokeOwnSession(req, ctx, input))
}

/** Ends every session of the signed-in user but the request's own; resolves how many ended. */
export function revokeOtherSessions(request: Request, config: AuthConfig): Promise<number> {
  return serverCall(request, config, "sessions", revokeOwnOtherSessions)
}

/**
 * Ends every stored session of `userId` (for the app: after a password change, an account disable
 * or a ban); resolves how many ended. Database strategy only: JWT sessions last until they expire.
 */
export async function revokeUserSessions(config: AuthConfig, userId: string): Promise<number> {
  const resolved = resolveConfig(config)
  if (resolved.error) throw resolved.error
  if (!sessionStrategy(resolved).storedSession) throw new SessionManagementError("JWT sessions are not stored: they end when they expire", { code: "DATABASE_SESSIONS_ONLY" })
  const adapter = resolved.adapter
  if (typeof adapter?.deleteSessionsByUserId !== "function")
    throw new MissingAdapterMethods("revokeUserSessions needs an adapter with deleteSessionsByUserId", { code: "ADAPTER_METHODS_MISSING", cause: { missing: ["deleteSessionsByUserId"] } })
  return adapter.deleteSessionsByUserId(userId)
}
