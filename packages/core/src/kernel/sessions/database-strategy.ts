/**
 * Database sessions: the cookie holds a random token (256 bits by default); the adapter stores only
 * its SHA-256 hash, so a leaked sessions table cannot be replayed. Expiry slides at most once per
 * `updateAge`, never past the session's absolute end (`session.absoluteMaxAge`, counted from its
 * `createdAt`, see `lifetime.ts`); an expired session is deleted and reads as no session. Signing in
 * again ends the session the browser held (OWASP ASVS 5.0 7.2.4).
 */
import { port } from "../ports/ports.js"
import type { JWT } from "@authlib/jwt"
import type { AdapterSession, AdapterUser } from "../types/adapters.js"
import type { Cookie } from "../cookies/serialize.js"
import { SESSION_METHODS } from "../ports/adapter.js"
import { emitEvent } from "../user-code/events.js"
import type { AuthRequest, AuthResponse, Context } from "../types/http.js"
import { logError } from "../errors/logger.js"
import { sha256 } from "../security/random.js"
import type { Session } from "../types/config.js"
import { runUserCode } from "../user-code/run.js"
import { publicUser } from "./public-user.js"
import { foreignSessionCookies, refusedSessionCookies, readAuthJsSessionCookie, readSessionCookie } from "./session-cookie.js"
import { authenticationFacts } from "./authentication.js"
import { linkCheck } from "./account-link.js"
import { createLinkedSession, createSession, keepsSessionMetadata, newRecord, sessionCookie, storedSessions } from "./database-record.js"
import { isSessionStart, sessionEnd } from "./lifetime.js"
import { isoText } from "../objects/date-text.js"
import type { Authentication, Issuance, Issued, LinkUse, NewSession, Principal, SessionChange, SessionStrategy, SessionTraits, SessionUpdate, SignOutMessage } from "./types.js"

/**
 * The account's owner found and the session stored in one adapter call (`createSessionForAccount`),
 * then the previous session ended as a sign-in's issue does; `null` (the usual path) without that method or owner.
 */
async function issueForAccount(req: AuthRequest, ctx: Context, { account, authentication }: Extract<Issuance, { kind: "account" }>): Promise<Issued["account"]> {
  const create = ctx.config.adapter?.createSessionForAccount
  if (!create) return null
  const { token, record } = newRecord(req, ctx, authentication)
  const stored = await create({ provider: account.provider, providerAccountId: account.providerAccountId }, record)
  if (!stored) return null
  return { user: stored.user, cookies: await endPrevious(req, ctx, sessionCookie(token, record.expires, ctx)) }
}

/**
 * An e-mail link used and, for its owner, the session stored in one adapter call
 * (`useVerificationTokenAndCreateSession`), then the previous session ended as `issue` does;
 * `undefined` without that method. A session the adapter stored for a link that is not this
 * address's or has expired (an adapter that broke its contract) is deleted again: it never signs in.
 */
async function issueForLink(req: AuthRequest, ctx: Context, { link, account, authentication }: Extract<Issuance, { kind: "link" }>): Promise<Issued["link"]> {
  const use = ctx.config.adapter?.useVerificationTokenAndCreateSession
  if (!use) return undefined
  const { token, record } = newRecord(req, ctx, authentication)
  const used = await use(link, { provider: account.provider, providerAccountId: account.providerAccountId }, record)
  if (!used) return null
  const answer: LinkUse = { token: used.token, owner: used.owner }
  if (!used.session || !used.owner) return answer
  if (used.token.identifier !== link.identifier || new Date(used.token.expires).getTime() <= Date.now()) {
    try {
      await storedSessions(ctx).deleteSession(record.sessionToken)
    } catch (err) {
      logError(ctx.config.logger, err)
    }
    return answer
  }
  answer.issued = { user: used.owner, cookies: await endPrevious(req, ctx, sessionCookie(token, record.expires, ctx)) }
  return answer
}

/**
 * A passkey's counter set and its owner's session stored in one adapter call
 * (`updateAuthenticatorCounterAndCreateSession`), then the previous session ended as `issue` does;
 * `undefined` without that method, `null` when the authenticator is gone (nothing was written).
 */
async function issueForAuthenticator(req: AuthRequest, ctx: Context, { passkey, authentication }: Extract<Issuance, { kind: "authenticator" }>): Promise<Issued["authenticator"]> {
  const update = ctx.config.adapter?.updateAuthenticatorCounterAndCreateSession
  if (!update) return undefined
  const { token, record } = newRecord(req, ctx, authentication)
  const stored = await update(passkey.credentialID, passkey.counter, record)
  if (!stored) return null
  return { user: stored.user, cookies: await endPrevious(req, ctx, sessionCookie(token, record.expires, ctx)) }
}

/**
 * What an Auth.js session token becomes on our side. `migrateFromAuthJs` stores the hash of
 * `AUTHJS_TOKEN_PREFIX + token`, so only sessions that were really moved are found through an
 * Auth.js cookie: a live authlib token planted under an Auth.js name hashes to nothing. The prefixed
 * token is what our own cookie carries from then on (same stored session, no second look-up);
 * `.` never occurs in the tokens `generateSessionToken` makes by default.
 */
export const AUTHJS_TOKEN_PREFIX = "authjs."

/**
 * The request's session token: our cookie's, else (with `acceptAuthJsSessions`) the one in an
 * Auth.js session cookie (`carried`), prefixed (see {@link AUTHJS_TOKEN_PREFIX}); a successful
 * read re-issues it under our name.
 */
function tokenOf(req: AuthRequest, ctx: Context): { token: string; carried: boolean } | undefined {
  const ours = readSessionCookie(req, ctx)
  if (ours) return { token: ours, carried: false }
  if (!ctx.config.session.acceptAuthJsSessions) return undefined
  const theirs = readAuthJsSessionCookie(req, ctx)
  return theirs ? { token: AUTHJS_TOKEN_PREFIX + theirs.value, carried: true } : undefined
}

type Found = { session: AdapterSession; user: AdapterUser }

/** The stored session of `token` and its user, unless unknown, expired (deleted) or past its absolute end. */
async function lookUp(token: string, ctx: Context): Promise<Found | null> {
  const hash = sha256(token)
  const sessions = storedSessions(ctx)
  const found = await sessions.getSessionAndUser(hash)
  if (!found) return null
  const now = Date.now()
  if (new Date(found.session.expires).getTime() > now) return ctx.config.session.absoluteMaxAge === undefined ? found : withinLifetime(hash, found, ctx, now)
  await sessions.deleteSession(hash)
  return null
}

/**
 * `found` while before its absolute end (`session.absoluteMaxAge`), its `expires` cut there (a session
 * stored before the option was on may say more); past it the session is deleted. A session that
 * records no start (stored before `createdAt` was, or moved from Auth.js) gets one now: its
 * `authTime` when known, else now (see `lifetime.ts`). A `createdAt` that is no time, or ahead of
 * the clock, was not written by authlib: the session is refused (not deleted: it may be the
 * adapter's reading that is wrong).
 */
async function withinLifetime(hash: string, found: Found, ctx: Context, now: number): Promise<Found | null> {
  const sessions = storedSessions(ctx)
  const { createdAt, authTime } = found.session
  let session = found.session
  if (createdAt == null) {
    const known = authenticationFacts(authTime, undefined).authTime
    const start = new Date(Math.min(known === null ? now : known * 1000, now))
    await sessions.updateSession({ sessionToken: hash, createdAt: start })
    session = { ...session, createdAt: start }
  }
  const startMs = new Date(session.createdAt!).getTime()
  const nowSeconds = Math.floor(now / 1000)
  if (!Number.isFinite(startMs) || !isSessionStart(Math.floor(startMs / 1000), nowSeconds)) {
    ctx.config.logger.warn("session-ended", { reason: "a database session was refused: its createdAt is not a time authlib wrote" })
    return null
  }
  const end = sessionEnd(ctx.config, Math.floor(startMs / 1000))! * 1000
  if (end <= now) {
    ctx.config.logger.debug("session-ended", { reason: "a database session ended: past session.absoluteMaxAge" })
    await sessions.deleteSession(hash)
    return null
  }
  return new Date(session.expires).getTime() > end ? { ...found, session: { ...session, expires: new Date(end) } } : session === found.session ? found : { ...found, session }
}

type Slid = { session: AdapterSession; cookies: Cookie[] }

/**
 * Slides `expires` once `updateAge` has passed since the last write; returns the cookie to re-send.
 * With the adapter's `extendSession` only the first of concurrent reads writes (a conditional
 * update on "still due"); the others answer the expiry they read and send no cookie. Without it,
 * every concurrent read of a due session writes (`updateSession`), as in Auth.js.
 */
async function slide(token: string, found: Found, ctx: Context): Promise<Slid> {
  const { adapter, session: options } = ctx.config
  const now = Date.now()
  // Due once `updateAge` has passed since the last write, i.e. `expires - maxAge` lies that far back.
  const dueBefore = now + (options.maxAge - options.updateAge) * 1000
  const unchanged = { session: found.session, cookies: [] }
  const current = new Date(found.session.expires).getTime()
  if (current > dueBefore) return unchanged
  const sessionToken = sha256(token)
  let expires = new Date(now + options.maxAge * 1000)
  if (options.absoluteMaxAge !== undefined) {
    // Never past the absolute end (`lookUp` checked `createdAt`); at it, there is nothing left to extend.
    const end = sessionEnd(ctx.config, Math.floor(new Date(found.session.createdAt!).getTime() / 1000))! * 1000
    if (end <= current) return unchanged
    if (expires.getTime() > end) expires = new Date(end)
  }
  if (adapter?.extendSession) {
    if (!(await adapter.extendSession({ sessionToken, expires }, new Date(dueBefore)))) return unchanged
  } else {
    await storedSessions(ctx).updateSession({ sessionToken, expires })
  }
  return { session: { ...found.session, expires }, cookies: [sessionCookie(token, expires, ctx)] }
}

/**
 * A new session, then the end of the one the browser held before. The new one already works, so a
 * failure to delete the old one is logged, not shown.
 */
async function issueForSignIn(req: AuthRequest, ctx: Context, signIn: NewSession): Promise<Cookie[]> {
  const link = linkCheck(ctx, signIn)
  if (link) return endPrevious(req, ctx, await createLinkedSession(req, ctx, signIn, link))
  return replaceSession(req, ctx, signIn.user.id!, signIn.authentication)
}

/** A new session for `userId` (started at `startedAt`, ms, when it replaces one of the same sign-in), then the end of the one the browser held (see `issue`). */
async function replaceSession(req: AuthRequest, ctx: Context, userId: string, authentication: Authentication | undefined, startedAt?: number): Promise<Cookie[]> {
  return endPrevious(req, ctx, await createSession(req, userId, ctx, authentication, startedAt))
}

/** Ends the session the browser held before `cookie`'s (see `issue`); the cookies to send. */
async function endPrevious(req: AuthRequest, ctx: Context, cookie: Cookie): Promise<Cookie[]> {
  const previous = tokenOf(req, ctx)
  if (previous) {
    try {
      await storedSessions(ctx).deleteSession(sha256(previous.token))
    } catch (err) {
      logError(ctx.config.logger, err)
    }
  }
  return previous?.carried ? [cookie, ...foreignSessionCookies(req, ctx)] : [cookie]
}

/** Unknown or expired: `null`, cookie cleared. Due for refresh: slides `expires` and re-sends the cookie. */
async function read(req: AuthRequest, ctx: Context, update?: SessionUpdate): Promise<AuthResponse<Session | null>> {
  const current = tokenOf(req, ctx)
  if (!current) return { json: null }
  const { token, carried } = current
  const found = await lookUp(token, ctx)
  // `lookUp` made every check the principal makes (see `principal`), so a capability asking for the
  // principal in this request (the active organization on `GET /session`) gets it without a second look-up.
  ctx.memo.liveStoredSession = found
  if (!found) return { json: null, cookies: refusedSessionCookies(req, ctx) }
  const slid = await slide(token, found, ctx)
  const stored = slid.session
  // A session carried over from Auth.js moves to our cookie now (same token), theirs is cleared.
  const cookies = carried ? [slid.cookies[0] ?? sessionCookie(token, new Date(stored.expires), ctx), ...foreignSessionCookies(req, ctx)] : slid.cookies
  const base: Session = { user: publicUser(found.user), expires: isoText(new Date(stored.expires).getTime()) }
  // A provider refused this user's refresh token (getAccessToken marked the session): say so, as in JWT mode.
  if (stored.error === "RefreshTokenError") base.error = "RefreshTokenError"
  const { user } = found
  // The default `session` callback returns its session as it is: answered here, without the runner.
  const session = !ctx.config.hasSessionCallback ? base : await runUserCode("callback", "session", () =>
    ctx.config.callbacks.session(update ? { session: base, user, newSession: update.data, trigger: "update" } : { session: base, user }))
  // The `session` event of spec 6 types `token` as a JWT; under `database` it is the stored record.
  const emitted = emitEvent(ctx, "session", { session: session as Session, token: stored as unknown as JWT })
  if (emitted) await emitted
  return { json: session as Session, cookies }
}

/**
 * Deletes the request's session record. Some adapters throw for a record that is already gone
 * (Prisma's deleteSession): an error page here would leave the cookie in a browser whose user
 * asked to sign out, so the failure is logged and sign-out goes on.
 */
async function end(req: AuthRequest, ctx: Context): Promise<SignOutMessage> {
  const current = tokenOf(req, ctx)
  if (!current) return { session: null }
  try {
    return { session: await storedSessions(ctx).deleteSession(sha256(current.token)) }
  } catch (err) {
    logError(ctx.config.logger, err)
    return { session: null }
  }
}

/** The stored session the request carries, live (every check of `lookUp`), with its user. */
async function liveSession(req: AuthRequest, ctx: Context): Promise<Found | null> {
  const token = tokenOf(req, ctx)?.token
  return token ? lookUp(token, ctx) : null
}

/** The stored session the request carries, live, with its user: the principal (see `principal.ts`). Its provider tokens are the accounts' (`getAccessToken` reads them there). */
async function principal(req: AuthRequest, ctx: Context): Promise<Principal | null> {
  const known = ctx.memo.liveStoredSession
  const found = known !== undefined ? known : await liveSession(req, ctx)
  return found && principalFrom(found)
}

/** The principal of a live stored session and its user. */
function principalFrom(found: Found): Principal {
  // Named fields, not a spread of the facts followed by keys they lack (V8's slow path on Node 20, see jwt's `encode`).
  const facts = authenticationFacts(found.session.authTime, found.session.amr)
  return { userId: found.user.id, storedSessionKey: found.session.sessionToken, authTime: facts.authTime, amr: facts.amr, providerTokens: NO_PROVIDER_TOKENS }
}

const NO_PROVIDER_TOKENS = Object.freeze({})

/**
 * Step-up: a new stored session (new token) recording `authentication`, the current one deleted.
 * It is the same sign-in, so it keeps the current session's `createdAt`: a step-up never extends the
 * absolute lifetime. Needs an adapter that keeps session metadata: without it the record could not be kept.
 */
async function reauthenticate(req: AuthRequest, ctx: Context, authentication: Authentication): Promise<Cookie[] | null> {
  port(ctx.config, "sessionListing", "Step-up with database sessions")
  const current = await liveSession(req, ctx)
  if (!current) return null
  const startedAt = current.session.createdAt == null ? NaN : new Date(current.session.createdAt).getTime()
  return replaceSession(req, ctx, current.user.id, authentication, Number.isFinite(startedAt) ? startedAt : undefined)
}

/** The mark goes on the stored session, for adapters that keep session metadata (see `AdapterSession`); a failure is logged, never shown. */
async function markRefreshError(req: AuthRequest, ctx: Context): Promise<void> {
  if (!keepsSessionMetadata(ctx)) return
  try {
    const current = await principal(req, ctx)
    if (current?.storedSessionKey) await storedSessions(ctx).updateSession({ sessionToken: current.storedSessionKey, error: "RefreshTokenError" })
  } catch (err) {
    logError(ctx.config.logger, err)
  }
}

/**
 * A new authentication rotates the stored session (`reauthenticate`); a refresh error marks it in
 * place. Provider tokens live in the accounts, and stored sessions end by deletion rather than by
 * epoch: those changes leave the session as it is.
 */
async function replace(req: AuthRequest, ctx: Context, change: SessionChange): Promise<Cookie[] | null> {
  if (change.authentication) return reauthenticate(req, ctx, change.authentication)
  if (change.error) await markRefreshError(req, ctx)
  return []
}

/** A sign-in's session, or one of the fast paths that store it in the adapter call finding its user (see `Issuance`). */
function issue<I extends Issuance>(req: AuthRequest, ctx: Context, issuance: I): Promise<Issued[I["kind"]]> {
  const answer =
    issuance.kind === "sign-in" ? issueForSignIn(req, ctx, issuance.session)
    : issuance.kind === "account" ? issueForAccount(req, ctx, issuance)
    : issuance.kind === "link" ? issueForLink(req, ctx, issuance)
    : issueForAuthenticator(req, ctx, issuance)
  return answer as Promise<Issued[I["kind"]]>
}

const traits: SessionTraits = Object.freeze({ storesSessions: true, needsStoredUser: true, adapterMethods: SESSION_METHODS, keepsProviderTokens: false })

/** The database session strategy. */
export const databaseStrategy: SessionStrategy = { traits, issue, read, end, principal, replace }
