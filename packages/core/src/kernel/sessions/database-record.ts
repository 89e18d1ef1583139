/**
 * A stored session's record, as the database strategy writes it: a random token for the cookie and
 * its SHA-256 for the adapter (a leaked table cannot be replayed), its expiry cut at the absolute
 * end (`lifetime.ts`), the metadata where the adapter keeps it, and the cookie that carries it. A
 * session of an OAuth/OIDC sign-in is written only while its account is still linked
 * (`account-link.ts`).
 */
import { optionalPort, port } from "../ports/ports.js"
import type { SessionMetadata } from "../types/adapters.js"
import { withExpires, type Cookie } from "../cookies/serialize.js"
import { SessionTokenError } from "../errors/errors.js"
import type { AuthRequest, Context } from "../types/http.js"
import { sha256 } from "../security/random.js"
import { clientNetworkOf, describeClient } from "./client-description.js"
import { unlinkedMeanwhile, type LinkCheck } from "./account-link.js"
import { sessionEnd } from "./lifetime.js"
import type { Authentication, NewSession } from "./types.js"

const MIN_TOKEN_LENGTH = 22 // 128 bits in base64url

/** The session record's methods (checked at start-up for this strategy, see `adapterMethods`). */
export const storedSessions = (ctx: Context) => port(ctx.config, "storedSessions", "Database sessions")

export function sessionCookie(token: string, expires: Date, ctx: Context): Cookie {
  const option = ctx.cookies.sessionToken
  return { name: option.name, value: token, options: withExpires(option.options, expires) }
}

/**
 * Whether the adapter keeps session metadata: the session-listing port's contract (see `PORTS` in
 * `ports/ports.ts`) is that its sessions store `createdAt`, `clientDescription`, `clientNetwork`,
 * `error`, `authTime` and `amr` (adapter-test's session-listing suite holds it to that); an Auth.js adapter, which lacks
 * the port, may refuse keys it does not know.
 */
export function keepsSessionMetadata(ctx: Context): boolean {
  return optionalPort(ctx.config, "sessionListing") !== undefined
}

type NewRecord = { sessionToken: string; expires: Date } & Omit<SessionMetadata, "error">

/**
 * A new session's token (for the cookie) and its record, metadata included where kept. `startedAt`
 * (ms): when the session started, for a session that replaces one of the same sign-in (step-up);
 * a sign-in starts now. `expires` is cut at the absolute end (`session.absoluteMaxAge`).
 */
export function newRecord(req: AuthRequest, ctx: Context, authentication: Authentication | undefined, startedAt?: number): { token: string; record: NewRecord } {
  const { config } = ctx
  const token = config.session.generateSessionToken()
  if (typeof token !== "string" || token.length < MIN_TOKEN_LENGTH)
    throw new SessionTokenError("generateSessionToken must return a string of at least 128 bits", { code: "SESSION_TOKEN_WEAK" })
  const now = Date.now()
  const start = startedAt ?? now
  const end = sessionEnd(config, Math.floor(start / 1000))
  const expires = now + config.session.maxAge * 1000
  const record: NewRecord = { sessionToken: sha256(token), expires: new Date(end === undefined ? expires : Math.min(expires, end * 1000)) }
  if (keepsSessionMetadata(ctx)) {
    record.createdAt = new Date(start)
    record.clientDescription = describeClient(req.headers.get("user-agent"))
    record.clientNetwork = clientNetworkOf(req, ctx)
    if (authentication) {
      record.authTime = authentication.time
      record.amr = [...authentication.amr]
    }
  }
  return { token, record }
}

/** Stores a new session for `userId`, with its metadata when the adapter keeps it; returns its cookie. */
export async function createSession(req: AuthRequest, userId: string, ctx: Context, authentication: Authentication | undefined, startedAt?: number): Promise<Cookie> {
  const { token, record } = newRecord(req, ctx, authentication, startedAt)
  await storedSessions(ctx).createSession({ ...record, userId })
  return sessionCookie(token, record.expires, ctx)
}

/**
 * A session for an OAuth/OIDC sign-in, written only while its account is still linked to its user
 * (see `account-link.ts`): in the statement that checks the link where the adapter has
 * `createSessionForAccount`, else checked after the write and deleted again.
 */
export async function createLinkedSession(req: AuthRequest, ctx: Context, signIn: NewSession, link: LinkCheck): Promise<Cookie> {
  const create = ctx.config.adapter?.createSessionForAccount
  const { token, record } = newRecord(req, ctx, signIn.authentication)
  const { provider, providerAccountId } = signIn.account
  let linked: boolean
  if (create) {
    const stored = await create({ provider, providerAccountId }, record)
    linked = stored?.user.id === link.userId
    // Linked meanwhile to someone else: the session the adapter stored is not this sign-in's.
    if (stored && !linked) await storedSessions(ctx).deleteSession(record.sessionToken)
  } else {
    await storedSessions(ctx).createSession({ ...record, userId: link.userId })
    linked = await link.stillLinked()
    if (!linked) await storedSessions(ctx).deleteSession(record.sessionToken)
  }
  if (!linked) throw unlinkedMeanwhile(signIn)
  return sessionCookie(token, record.expires, ctx)
}

