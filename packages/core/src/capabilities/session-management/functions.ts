/**
 * Server functions for a user's own sessions: list them (the current one marked), end one, end all
 * the others, end all of them ("sign out everywhere"); and, for the app, end every session of a
 * user (after a password change or a ban). Like the passkey functions they check no CSRF token:
 * call them from endpoints that are themselves protected (same-origin POST actions).
 *
 * Sessions are named by an opaque id (a keyed hash of the stored token): never the cookie's token
 * nor the stored hash. An id of another user's session is refused exactly like an unknown one.
 * JWT sessions are not stored, so they cannot be listed or ended one by one
 * (`SessionManagementError` / `DATABASE_SESSIONS_ONLY`); with an adapter that keeps session epochs
 * they can all be ended at once (the others, or all), see `revoke.ts`.
 */
import type { AdapterSession } from "../../kernel/types/adapters.js"
import { resolveConfig } from "../../kernel/config/resolve.js"
import { SessionRequired } from "../../kernel/errors/errors.js"
import { SessionManagementError } from "./errors.js"
import { port, type PortMethods } from "../../kernel/ports/ports.js"
import type { AuthRequest, Context } from "../../kernel/types/http.js"
import { sha256 } from "../../kernel/security/random.js"
import { serverFunction, serverFunctionWithCookies, type DirectResult, type ServerResult } from "../../kernel/run/server-function.js"
import { bumpEpoch } from "../../kernel/sessions/revocation.js"
import { sessionStrategy } from "../../kernel/sessions/strategy.js"
import { assertRevocable, assertUserKnown, revokeAll, revokeOthers, sessionDeleter } from "./revoke.js"
import { requirePrincipal } from "../../kernel/sessions/principal.js"
import type { AuthConfig } from "../../kernel/types/config.js"

/** One of the user's sessions as `listSessions` shows it. */
export interface SessionInfo {
  /** Opaque and stable; pass it to `revokeSession`. */
  id: string
  expires: Date
  /** Whether it is the session of the request. */
  current: boolean
  /** When it started; null when the adapter did not record it. */
  createdAt: Date | null
  /**
   * When it was last used, to within `session.updateAge` (its last sliding extension: no write per
   * request): `expires` minus `session.maxAge`, never before `createdAt`.
   */
  lastSeenAt: Date
  /** "Firefox on Linux", "Safari on iOS", ...: from a fixed vocabulary; null when unknown. */
  client: string | null
  /** The network it was started from ("203.0.113.0/24", "2001:db8:1:2::/64"); null when unknown. */
  network: string | null
}

/** What ending sessions did. */
export interface SessionRevocation {
  /** How many stored (database) sessions ended; `null` for JWT sessions, which are not counted. */
  revoked: number | null
  /** `Set-Cookie` values the response must carry: the request's own session re-issued (JWT, others ended) or cleared (all ended). */
  setCookie: string[]
}


/** The opaque id of a stored session: never its token or the stored hash. */
function idOf(sessionToken: string, secret: string): string {
  return sha256(`authlib-session-id\u0000${sessionToken}\u0000${secret}`).slice(0, 24)
}

/** The request's own stored session, through the principal (database strategy), and the session-listing port. */
interface Me {
  userId: string
  sessionToken: string
  sessions: PortMethods<"sessionListing">
}

async function current(req: AuthRequest, ctx: Context): Promise<Me> {
  if (!sessionStrategy(ctx.config).traits.storesSessions) throw new SessionManagementError("JWT sessions are not stored: they cannot be listed or ended one by one", { code: "DATABASE_SESSIONS_ONLY" })
  const sessions = port(ctx.config, "sessionListing", "Managing sessions")
  const { userId, storedSessionKey } = await requirePrincipal(req, ctx, "Sign in to manage your sessions")
  // Set under a strategy that stores sessions; a principal without one is no stored session.
  if (storedSessionKey === null) throw new SessionRequired("Sign in to manage your sessions", { code: "SESSION_MISSING" })
  return { userId, sessionToken: storedSessionKey, sessions }
}

const live = (s: AdapterSession) => new Date(s.expires).getTime() > Date.now()

function infoOf(s: AdapterSession, me: Me, ctx: Context): SessionInfo {
  const expires = new Date(s.expires)
  const createdAt = s.createdAt ? new Date(s.createdAt) : null
  const extended = expires.getTime() - ctx.config.session.maxAge * 1000
  return {
    id: idOf(s.sessionToken, ctx.config.secret[0]!),
    expires,
    current: s.sessionToken === me.sessionToken,
    createdAt,
    lastSeenAt: new Date(createdAt ? Math.max(extended, createdAt.getTime()) : extended),
    client: typeof s.clientDescription === "string" ? s.clientDescription : null,
    network: typeof s.clientNetwork === "string" ? s.clientNetwork : null,
  }
}

/** The request user's live sessions, most recently used first (the route and the server function share it). */
export async function listOwnSessions(req: AuthRequest, ctx: Context): Promise<SessionInfo[]> {
  const me = await current(req, ctx)
  const sessions = (await me.sessions.listSessionsByUserId(me.userId)).filter(live)
  return sessions.map((s) => infoOf(s, me, ctx)).sort((a, b) => b.lastSeenAt.getTime() - a.lastSeenAt.getTime())
}

/** Ends one of the request user's sessions, by opaque id. */
export async function revokeOwnSession(req: AuthRequest, ctx: Context, input: { id: unknown }): Promise<void> {
  if (typeof input?.id !== "string" || input.id === "") throw new SessionManagementError("Name the session to end", { code: "SESSION_ID_MISSING" })
  const me = await current(req, ctx)
  const secret = ctx.config.secret[0]!
  const target = (await me.sessions.listSessionsByUserId(me.userId)).find((s) => idOf(s.sessionToken, secret) === input.id)
  if (!target) throw new SessionManagementError("No such session", { code: "SESSION_UNKNOWN" })
  await me.sessions.deleteSession(target.sessionToken)
}

/** Revokes the request user's other sessions, or all of them; the answer as server functions give it. */
async function revocation(req: AuthRequest, ctx: Context, which: "others" | "all"): Promise<ServerResult<number | null>> {
  const { revoked, cookies } = which === "others" ? await revokeOthers(req, ctx) : await revokeAll(req, ctx)
  return { value: revoked, cookies }
}

const withSetCookie = ({ value, setCookie }: DirectResult<ServerResult<number | null>>): SessionRevocation => ({ revoked: value, setCookie })

/** The signed-in user's live sessions, most recently used first, the request's own marked `current`. Database strategy. */
export const listSessions = serverFunction("sessions", (req, ctx): Promise<SessionInfo[]> => listOwnSessions(req, ctx))

/** Ends one of the signed-in user's sessions (its own included: that signs this browser out at its next request). Database strategy. */
export const revokeSession = serverFunction("sessions", (req, ctx, input: { id: string }): Promise<void> => revokeOwnSession(req, ctx, input))

/**
 * Ends every session of the signed-in user but the request's own. Database sessions are deleted;
 * JWT sessions (with an adapter that keeps session epochs) end at their next check (see
 * `session.checkRevocation`) and the request's own is re-issued: put `setCookie` on the response.
 * Through a binding it resolves how many stored sessions ended (`null` for JWT sessions), the
 * cookie set by the binding.
 *
 * @throws SessionManagementError `REVOCATION_UNAVAILABLE` for JWT sessions without such an adapter.
 */
export const revokeOtherSessions = serverFunctionWithCookies("sessions", (req, ctx) => revocation(req, ctx, "others"), withSetCookie)

/**
 * "Sign out everywhere": ends every session of the signed-in user, the request's own included
 * (`setCookie` clears its cookie). Either strategy, as `revokeOtherSessions`.
 */
export const signOutEverywhere = serverFunctionWithCookies("sessions", (req, ctx) => revocation(req, ctx, "all"), withSetCookie)

/**
 * Ends every session of `userId`, for the app (after a password change, an account disable or a
 * ban): deletes their stored sessions and moves their session epoch on, so that their JWT sessions
 * end too at their next check. Resolves how many stored sessions ended (`null` with JWT sessions).
 *
 * @throws SessionManagementError `REVOCATION_UNAVAILABLE` for JWT sessions without an adapter that
 * keeps session epochs: such sessions last until they expire.
 */
export async function revokeUserSessions(config: AuthConfig, userId: string): Promise<number | null> {
  const resolved = resolveConfig(config)
  if (resolved.error) throw resolved.error
  const ctx = { config: resolved }
  if (typeof userId !== "string" || userId === "") throw new SessionManagementError("Name the user whose sessions end", { code: "USER_UNKNOWN" })
  const remove = sessionStrategy(resolved).traits.storesSessions ? sessionDeleter(ctx) : undefined
  if (!remove) assertRevocable(ctx)
  await assertUserKnown(ctx, userId)
  const revoked = remove ? await remove(userId) : null
  await bumpEpoch(ctx, userId)
  return revoked
}
