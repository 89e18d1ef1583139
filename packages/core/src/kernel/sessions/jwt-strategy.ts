/**
 * JWT sessions: the session is an encrypted token (JWE) in the session cookie, chunked when large.
 * The key salt is the cookie name (Auth.js v5 construction), so tokens move between the two; a
 * NextAuth.js v4 token is read once, with v4's key, and re-issued in this format (`nextauth-v4.ts`).
 *
 * A read decodes the token; the `jwt` callback runs only when the user configured one (the default
 * is the identity), and the token is re-encrypted only when that callback changed it, when
 * `updateAge` has passed, or on an update. A token that does not decode reads as no session and
 * its cookies are cleared. Signing in again needs no clean-up: the new cookie replaces the old
 * token, of which no server copy exists.
 */
import { encode, type JWT, type JWTDecodeParams } from "@authlib/jwt"
import { writeChunked } from "../cookies/chunks.js"
import { withExpires, type Cookie } from "../cookies/serialize.js"
import { isoText } from "../objects/date-text.js"
import { AccessDenied, SessionTokenError } from "../errors/errors.js"
import { emitEvent } from "../user-code/events.js"
import { MAX_HEADER_BYTES } from "../http/limits.js"
import type { AuthRequest, AuthResponse, Context } from "../types/http.js"
import type { CallbacksOptions, Session } from "../types/config.js"
import { runUserCode } from "../user-code/run.js"
import { publicUser } from "./public-user.js"
import { keepsEpochs } from "./revocation.js"
import { checkEpoch, EPOCH_CLAIM, logRefusal, withEpoch } from "./jwt-epoch.js"
import { foreignSessionCookies, refusedSessionCookies, readAuthJsSessionCookie, readSessionCookie } from "./session-cookie.js"
import { decodeNextAuthV4Cookie } from "./nextauth-v4.js"
import { SESSION_START_CLAIM, tokenAuthentication, withAuthenticationClaims } from "./authentication.js"
import { cappedLife, isSessionStart, nowSeconds, sessionEnd } from "./lifetime.js"
import { linkCheck, unlinkedMeanwhile } from "./account-link.js"
import { sessionTokensOf } from "./account-tokens.js"
import type { Issuance, Issued, NewSession, Principal, SessionChange, SessionStrategy, SessionTraits, StoredProviderTokens, SessionUpdate, SignOutMessage } from "./types.js"

/**
 * The longest session token written. Its cookies come back in every request, and a request whose
 * headers pass `MAX_HEADER_BYTES` (Node's own default limit too) is refused with 431: a bigger
 * token would lock the browser out of every route, sign-out included. 4 KiB stay for the rest.
 */
export const MAX_SESSION_TOKEN_LENGTH = MAX_HEADER_BYTES - 4096

/**
 * When the session of `token` started (seconds): its `sessionStart` claim; a token from before the
 * claim counts from its `auth_time`, else from `now` (see `lifetime.ts`). `null` for a claim of
 * another shape or ahead of the clock: no authlib instance wrote it.
 */
function sessionStartOf(token: JWT, now: number): number | null {
  const recorded = token[SESSION_START_CLAIM]
  if (recorded !== undefined) return isSessionStart(recorded, now) ? recorded : null
  const { authTime } = tokenAuthentication(token)
  return authTime === null ? now : Math.min(authTime, now)
}

/**
 * The second the session of `token` ends under `session.absoluteMaxAge` (undefined without it), or
 * `null` when it has ended or its start is malformed: then it reads as no session and cannot act.
 */
function endOf(token: JWT, ctx: Context, now: number): number | null | undefined {
  if (ctx.config.session.absoluteMaxAge === undefined) return undefined
  const start = sessionStartOf(token, now)
  const end = start === null ? undefined : sessionEnd(ctx.config, start)
  return end !== undefined && end > now ? end : null
}

/** Logs why a token past its absolute lifetime (or with a malformed sign-in time) was refused. */
function logEnded(ctx: Context, sub: unknown): void {
  ctx.config.logger.debug("session-ended", { reason: "a JWT session was refused: past session.absoluteMaxAge, or its sign-in time is malformed", sub })
}

/**
 * The session cookie(s) holding `token`, expiring `session.maxAge` from now, and never after the
 * session's absolute end (`session.absoluteMaxAge`): the token's `exp` and the cookie's expiry are
 * both cut there. The token goes out with its `sessionStart` (a token from before it gets it now).
 */
async function writeToken(token: JWT, req: AuthRequest, ctx: Context): Promise<{ cookies: Cookie[]; expires: Date }> {
  const { config, cookies } = ctx
  const option = cookies.sessionToken
  // Whole seconds, as `encode` computes `exp`: the session's `expires` then equals the token's.
  const now = nowSeconds()
  // Callers hand in verified tokens: a malformed start was refused before (with the option on), or is replaced now (off).
  const start = sessionStartOf(token, now) ?? now
  const stamped = token[SESSION_START_CLAIM] === start ? token : { ...token, [SESSION_START_CLAIM]: start }
  const end = sessionEnd(config, start)
  const tokenLife = cappedLife(config.jwt.maxAge, now, end)
  const value = await config.jwt.encode({ token: stamped, secret: [...config.secret], salt: option.name, maxAge: tokenLife })
  if (value.length > MAX_SESSION_TOKEN_LENGTH) {
    throw new SessionTokenError(`The session token is ${value.length} characters, over the ${MAX_SESSION_TOKEN_LENGTH} a request can carry back: keep less in the token the jwt callback returns`, {
      code: "SESSION_TOKEN_TOO_LARGE",
      cause: { length: value.length, max: MAX_SESSION_TOKEN_LENGTH },
    })
  }
  const withExpiry = { name: option.name, options: withExpires(option.options, new Date((now + cappedLife(config.session.maxAge, now, end)) * 1000)) }
  // `@authlib/jwt`'s own encoder writes base64url and dots only; a custom one's token is checked when sent.
  return { cookies: writeChunked(withExpiry, value, req.cookies, config.jwt.encode === encode), expires: new Date((now + tokenLife) * 1000) }
}

/**
 * Decodes the session token (salt: the cookie's name). Rejects (JWTSessionError) on a token that does not decode.
 * `maxAge` goes along, as to `encode`: Auth.js calls `decode({ ...jwt, token, salt })`, so a custom
 * decoder ported from it (one that checks the token's age, say) finds `maxAge` there. It is not part
 * of `JWTDecodeParams` (spec 2.4), hence the widened type; the default decoder ignores it.
 */
async function decodeToken(raw: string, ctx: Context, salt = ctx.cookies.sessionToken.name): Promise<JWT | null> {
  const { config } = ctx
  const params: JWTDecodeParams & { maxAge: number } = { token: raw, secret: [...config.secret], salt, maxAge: config.jwt.maxAge }
  return config.jwt.decode(params)
}

/** A session token in wire form, the salt of its cookie (an Auth.js one's name) and whether it is carried over. */
type Found = { raw: string; salt?: string; carried: boolean }

/**
 * The request's session token in wire form: ours, else (when accepted) an Auth.js one (v5's, or
 * NextAuth.js v4's), which is re-issued under our name on this read (`carried`).
 */
function sessionTokenOf(req: AuthRequest, ctx: Context): Found | undefined {
  const raw = readSessionCookie(req, ctx)
  if (raw) return { raw, carried: false }
  if (!ctx.config.session.acceptAuthJsSessions) return undefined
  const theirs = readAuthJsSessionCookie(req, ctx)
  return theirs ? { raw: theirs.value, salt: theirs.name, carried: true } : undefined
}

/** A carried cookie's token: NextAuth.js v4's read with v4's key (`nextauth-v4.ts`), else as {@link decodeToken} reads it. */
async function decodeCarried(found: Found, ctx: Context): Promise<JWT | null> {
  const v4 = await decodeNextAuthV4Cookie(found.salt!, found.raw, ctx)
  return v4 !== undefined ? v4 : decodeToken(found.raw, ctx, found.salt)
}

/**
 * Decodes what {@link sessionTokenOf} found. Not `async`: our own cookie's token goes straight to
 * {@link decodeToken}, with no extra promise on the hot path.
 */
function decodeFound(found: Found, ctx: Context): Promise<JWT | null> {
  return found.carried ? decodeCarried(found, ctx) : decodeToken(found.raw, ctx, found.salt)
}

/** The request's token, or `null` when it has none or it does not decode. For sign-out and carrying provider tokens over only: acting paths use {@link verifiedToken}. */
async function currentToken(req: AuthRequest, ctx: Context): Promise<JWT | null> {
  const found = sessionTokenOf(req, ctx)
  return found ? await decodeFound(found, ctx).catch(() => null) : null
}

type JwtParams = Parameters<CallbacksOptions["jwt"]>[0]

/** The provider tokens a token carries (claim `providerTokens`), or none. */
function providerTokensOf(token: JWT | null | undefined): Record<string, StoredProviderTokens> {
  const value = token?.providerTokens
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, StoredProviderTokens>) : {}
}

/**
 * With `session.providerTokens`, the token of an OAuth/OIDC sign-in carries its provider tokens,
 * beside those of other providers the same user's current token already holds.
 */
async function withProviderTokens(req: AuthRequest, ctx: Context, signIn: NewSession, token: JWT): Promise<JWT> {
  const { account } = signIn
  const kept = ctx.config.session.providerTokens ? sessionTokensOf(ctx.config.registry, account) : undefined
  if (!kept) return token
  // Only from a token that may still act: a revoked one's tokens stay with it.
  const current = (await verifiedToken(req, ctx))?.token
  const others = current?.sub === token.sub ? providerTokensOf(current) : {}
  return { ...token, providerTokens: { ...others, [account.provider]: kept } }
}

/**
 * Whether the token's user is still stored, where an adapter can say: a checked epoch says so; an
 * adapter that keeps epochs but has none for the user does not store them; else `getUser` answers.
 * Without an adapter nothing can be asked (credentials users are then never stored).
 */
async function userStored(sub: string, epoch: number | null, ctx: Context): Promise<boolean> {
  if (epoch !== null) return true
  if (keepsEpochs(ctx)) return false
  const getUser = ctx.config.adapter?.getUser
  return getUser ? (await getUser(sub)) != null : true
}

type Verified = { token: JWT & { sub: string }; epoch: number | null }

/** The request's token once decoded with a subject and, with an adapter that keeps epochs, checked against its user's epoch (always looked up). */
async function epochCheckedToken(req: AuthRequest, ctx: Context): Promise<Verified | null> {
  const token = await currentToken(req, ctx)
  if (!token || typeof token.sub !== "string") return null
  if (endOf(token, ctx, nowSeconds()) === null) {
    logEnded(ctx, token.sub)
    return null
  }
  if (!keepsEpochs(ctx)) return { token: token as Verified["token"], epoch: null }
  const checked = await checkEpoch(token, ctx)
  if (!checked.ok) {
    logRefusal(ctx, checked.reason, token.sub)
    return null
  }
  return { token: token as Verified["token"], epoch: checked.epoch }
}

/** {@link epochCheckedToken}, and its user still stored: what a token must pass to act (see `principal.ts`). */
async function verifiedToken(req: AuthRequest, ctx: Context): Promise<Verified | null> {
  const verified = await epochCheckedToken(req, ctx)
  if (!verified) return null
  if (await userStored(verified.token.sub, verified.epoch, ctx)) return verified
  ctx.config.logger.debug("session-user-gone", { reason: "a JWT session was refused: its user is not stored", sub: verified.token.sub })
  return null
}

async function principal(req: AuthRequest, ctx: Context): Promise<Principal | null> {
  const verified = await verifiedToken(req, ctx)
  if (!verified) return null
  // Named fields, not a spread followed by keys it lacks (V8's slow path on Node 20, see jwt's `encode`).
  const facts = tokenAuthentication(verified.token)
  return { userId: verified.token.sub, storedSessionKey: null, authTime: facts.authTime, amr: facts.amr, providerTokens: providerTokensOf(verified.token) }
}

async function issueForSignIn(req: AuthRequest, ctx: Context, signIn: NewSession): Promise<Cookie[]> {
  const { user, isNewUser } = signIn
  const { config } = ctx
  // A sign-in starts a session: its lifetime counts from now, whatever token the browser held.
  const start = nowSeconds()
  const claimed = withAuthenticationClaims({ name: user.name, email: user.email, picture: user.image, sub: user.id }, signIn.authentication, start)
  const initial = config.session.providerTokens ? await withProviderTokens(req, ctx, signIn, claimed) : claimed
  // The default `jwt` callback returns its token as it is: answered here, without the runner (as `read` does).
  let token = initial
  if (config.hasJwtCallback) {
    const params: JwtParams = { token: initial, user, account: signIn.account, trigger: isNewUser ? "signUp" : "signIn", isNewUser }
    if (signIn.profile) params.profile = signIn.profile
    const next = await runUserCode("callback", "jwt", () => config.callbacks.jwt(params))
    if (!next) throw new AccessDenied("The jwt callback returned no token", { code: "JWT_CALLBACK_NULL" })
    // How the user authenticated goes on as the sign-in recorded it, whatever the callback returned.
    token = withAuthenticationClaims(next, signIn.authentication, start)
  }
  if (keepsEpochs(ctx)) token = await withEpoch(token, ctx)
  // The link is asked after the epoch was read: a clean-up that unlinks later revokes this token (`account-link.ts`).
  const link = linkCheck(ctx, signIn)
  if (link && !(await link.stillLinked())) throw unlinkedMeanwhile(signIn)
  const { cookies } = await writeToken(token, req, ctx)
  const foreign = foreignSessionCookies(req, ctx)
  return foreign.length ? [...cookies, ...foreign] : cookies
}


async function read(req: AuthRequest, ctx: Context, update?: SessionUpdate): Promise<AuthResponse<Session | null>> {
  const found = sessionTokenOf(req, ctx)
  if (!found) return { json: null }
  let token: JWT | null
  try {
    token = await decodeFound(found, ctx)
  } catch (err) {
    ctx.config.logger.debug("session-token-invalid", err)
    return { json: null, cookies: refusedSessionCookies(req, ctx) }
  }
  if (!token) return { json: null, cookies: refusedSessionCookies(req, ctx) }
  const { config } = ctx
  // Past `session.absoluteMaxAge` (or a malformed sign-in time): no session, before any callback runs.
  const end = config.session.absoluteMaxAge === undefined ? undefined : endOf(token, ctx, nowSeconds())
  if (end === null) {
    logEnded(ctx, token.sub)
    return { json: null, cookies: refusedSessionCookies(req, ctx) }
  }
  const before = config.hasJwtCallback || update ? JSON.stringify(token) : undefined
  const params = update ? { token, trigger: "update" as const, session: update.data } : { token }
  const next = before === undefined ? token : await runUserCode("callback", "jwt", () => config.callbacks.jwt(params))
  if (!next) return { json: null, cookies: refusedSessionCookies(req, ctx) }
  const changed = before !== undefined && JSON.stringify(next) !== before
  const issuedAt = typeof token.iat === "number" ? token.iat * 1000 : 0
  const due = Date.now() - issuedAt >= config.session.updateAge * 1000
  // A token from before `sessionStart` is re-issued with the start it counts from, so that start holds from now on.
  const reissue = changed || due || update !== undefined || found.carried || (end !== undefined && token[SESSION_START_CLAIM] === undefined)
  let epoch: number | null = null
  if (keepsEpochs(ctx) && (reissue || config.session.checkRevocation === "every-request")) {
    const checked = await checkEpoch(token, ctx)
    if (!checked.ok) {
      logRefusal(ctx, checked.reason, token.sub)
      return { json: null, cookies: refusedSessionCookies(req, ctx) }
    }
    epoch = checked.epoch
  }
  // An Auth.js token carries no epoch: before it becomes a fresh sliding session of ours, its user must still be stored.
  if (found.carried && (typeof token.sub !== "string" || !(await userStored(token.sub, epoch, ctx)))) {
    config.logger.debug("session-user-gone", { reason: "an Auth.js session was not carried over: its user is not stored", sub: token.sub })
    return { json: null, cookies: refusedSessionCookies(req, ctx) }
  }
  // A custom `jwt.decode` may return a token without `exp`: then it lives `maxAge` from now.
  let expires = new Date(typeof token.exp === "number" ? token.exp * 1000 : Date.now() + config.session.maxAge * 1000)
  // A token written before the option was on may say more than its absolute end.
  if (end !== undefined && expires.getTime() > end * 1000) expires = new Date(end * 1000)
  let cookies: AuthResponse["cookies"] = []
  if (reissue) {
    // The epoch and authentication claims go on with the re-issued token whatever the jwt callback returned.
    const kept = withAuthenticationClaims(next, tokenAuthentication(token), sessionStartOf(token, nowSeconds()) ?? nowSeconds())
    ;({ cookies, expires } = await writeToken(epoch === null ? kept : { ...kept, [EPOCH_CLAIM]: epoch }, req, ctx))
  }
  // Carried over from Auth.js: from now on the session lives in our cookie only.
  if (found.carried) cookies = [...cookies, ...foreignSessionCookies(req, ctx)]
  const base: Session = { user: publicUser({ name: next.name, email: next.email, image: next.picture }), expires: isoText(expires.getTime()) }
  // A provider refused a refresh token kept in this session: say so, as Auth.js's refresh guide does.
  if (next.error === "RefreshTokenError" || Object.values(providerTokensOf(next)).some((t) => t?.error === "RefreshTokenError")) base.error = "RefreshTokenError"
  // The default `session` callback returns its session as it is: answered here, without the runner.
  const session = !config.hasSessionCallback ? base : await runUserCode("callback", "session", () =>
    config.callbacks.session(update ? { session: base, token: next, newSession: update.data, trigger: "update" } : { session: base, token: next }))
  const emitted = emitEvent(ctx, "session", { session: session as Session, token: next })
  if (emitted) await emitted
  return { json: session as Session, cookies }
}

async function end(req: AuthRequest, ctx: Context): Promise<SignOutMessage> {
  return { token: await currentToken(req, ctx) }
}

/**
 * The request's token re-issued with `change`. Its start goes on unchanged, so no replacement
 * extends the absolute lifetime. A change of epoch asks only the epoch check (the user's epoch is
 * about to move; `change.epoch` says what a user without one gets), every other change the full
 * check of a principal. The replaced token still decodes until it expires, as any replaced token does.
 */
async function replace(req: AuthRequest, ctx: Context, change: SessionChange): Promise<Cookie[] | null> {
  const verified = change.epoch ? await epochCheckedToken(req, ctx) : await verifiedToken(req, ctx)
  if (!verified) return null
  let token: JWT & { sub: string } = verified.token
  if (change.epoch) token = { ...token, [EPOCH_CLAIM]: await change.epoch(token.sub, verified.epoch) }
  if (change.authentication) token = withAuthenticationClaims(token, change.authentication, sessionStartOf(token, nowSeconds()) ?? nowSeconds()) as typeof token
  if (change.providerTokens) token = { ...token, providerTokens: { ...providerTokensOf(token), [change.providerTokens.providerId]: change.providerTokens.tokens } }
  // The mark goes into the token (claim `error`, as in Auth.js's refresh guide).
  if (change.error) token = { ...token, error: change.error }
  const { cookies } = await writeToken(token, req, ctx)
  return [...cookies, ...foreignSessionCookies(req, ctx)]
}

/** JWT sessions store nothing, so there is no fast path that stores one with its user's look-up: `account`, `link` and `authenticator` answer "cannot" (the usual path follows). */
function issue<I extends Issuance>(req: AuthRequest, ctx: Context, issuance: I): Promise<Issued[I["kind"]]> {
  const answer = issuance.kind === "sign-in" ? issueForSignIn(req, ctx, issuance.session) : Promise.resolve(issuance.kind === "account" ? null : undefined)
  return answer as Promise<Issued[I["kind"]]>
}

const traits: SessionTraits = Object.freeze({ storesSessions: false, needsStoredUser: false, adapterMethods: [], keepsProviderTokens: true })

/** The JWT session strategy. */
export const jwtStrategy: SessionStrategy = { traits, issue, read, end, principal, replace }
