/**
 * THE place a session is issued. Every flow ends in `issueSession(result)`: the `signIn` callback
 * decides, the user and account are stored (adapter), the `jwt` callback shapes the token, the
 * strategy writes the session cookie, the `signIn` event fires, and the user is redirected.
 */
import type { AdapterUser } from "../adapters.js"
import { AccessDenied, AuthError } from "../errors.js"
import { emitEvent } from "../events.js"
import type { SignInResult } from "../flows/types.js"
import type { AuthRequest, AuthResponse, Context } from "../http/types.js"
import { pageUrl } from "../http/urls.js"
import type { CallbacksOptions, User } from "../types.js"
import { createDatabaseSession, deleteDatabaseSession, readDatabaseCookie } from "./database-strategy.js"
import { logError } from "../logger.js"
import { createJwtSession, decodeJwtSession, readJwtCookie } from "./jwt-strategy.js"
import { persistUser } from "./link-user.js"
import type { PersistedUser } from "./link-user.js"
import { sha256 } from "../security/random.js"

/**
 * Runs the `signIn` callback (spec 2.6, 3): true continues; false -> `AccessDenied`; a string ->
 * redirect there (resolved against the origin); a throw -> `AccessDenied` with the original message
 * (an `AuthError` thrown on purpose passes through). Exported for flows that ask before acting
 * (e-mail asks with `email: { verificationRequest: true }` before sending mail).
 */
export async function runSignInCallback(params: Parameters<CallbacksOptions["signIn"]>[0], ctx: Context): Promise<{ redirect?: string }> {
  let outcome: boolean | string
  try {
    outcome = await ctx.config.callbacks.signIn(params)
  } catch (err) {
    if (err instanceof AuthError) throw err
    const message = err instanceof Error ? err.message : String(err)
    throw new AccessDenied(message, { code: "SIGNIN_CALLBACK_THREW", cause: { ...(err instanceof Error ? { err } : {}), provider: params.account?.provider } })
  }
  if (outcome === true) return {}
  if (typeof outcome === "string" && outcome !== "") return { redirect: new URL(outcome, ctx.origin).href }
  throw new AccessDenied("The signIn callback refused the sign-in", { code: "SIGNIN_CALLBACK_FALSE", cause: { provider: params.account?.provider } })
}

/** The user already signed in, for linking a second account to them (never for credentials). */
async function currentUserId(req: AuthRequest, ctx: Context): Promise<string | undefined> {
  if (ctx.config.session.strategy === "jwt") {
    const raw = readJwtCookie(req, ctx)
    const token = raw ? await decodeJwtSession(raw, ctx).catch(() => null) : null
    return typeof token?.sub === "string" ? token.sub : undefined
  }
  const raw = readDatabaseCookie(req, ctx)
  const found = raw ? await ctx.config.adapter!.getSessionAndUser!(sha256(raw)) : null
  return found && new Date(found.session.expires).getTime() > Date.now() ? found.user.id : undefined
}

/** Credentials are stored only with database sessions; other types whenever there is an adapter. */
async function persistIfNeeded(req: AuthRequest, ctx: Context, result: SignInResult): Promise<PersistedUser | undefined> {
  const { adapter, session } = ctx.config
  if (!adapter) return undefined
  const type = result.account.type
  if (type === "credentials" && session.strategy !== "database") return undefined
  const linkTo = type === "credentials" || type === "email" ? undefined : await currentUserId(req, ctx)
  return persistUser(ctx, result, linkTo)
}

type SignInParams = Parameters<CallbacksOptions["signIn"]>[0]
type JwtParams = Parameters<CallbacksOptions["jwt"]>[0]

/** The `signIn` callback's input: the flow's fields, absent ones left out (built without spreads). */
function signInParams(result: SignInResult): SignInParams {
  const params: SignInParams = { user: result.user, account: result.account }
  if (result.profile) params.profile = result.profile
  if (result.credentials) params.credentials = result.credentials
  if (result.email) params.email = result.email
  return params
}

async function startJwt(req: AuthRequest, ctx: Context, result: SignInResult, stored: PersistedUser | undefined) {
  const user: User | AdapterUser = stored?.user ?? result.user
  const isNewUser = stored?.isNewUser ?? false
  const params: JwtParams = {
    token: { name: user.name, email: user.email, picture: user.image, sub: user.id },
    user,
    account: stored?.account ?? result.account,
    trigger: isNewUser ? "signUp" : "signIn",
    isNewUser,
  }
  if (result.profile) params.profile = result.profile
  const next = await ctx.config.callbacks.jwt(params)
  if (!next) throw new AccessDenied("The jwt callback returned no token", { code: "JWT_CALLBACK_NULL" })
  return (await createJwtSession(next, req, ctx)).cookies
}

/**
 * A new database session, and the end of the one the browser held before (ASVS 5.0 7.2.4: signing
 * in issues a fresh session and ends the old one). A JWT session needs nothing of the kind: the new
 * cookie replaces the old token, which nothing else holds.
 */
async function startDatabase(req: AuthRequest, ctx: Context, userId: string) {
  const { cookies } = await createDatabaseSession(userId, ctx)
  const previous = readDatabaseCookie(req, ctx)
  if (previous) {
    // The new session already works: a failure to delete the old one is logged, not shown.
    await deleteDatabaseSession(previous, ctx).catch((err: unknown) => logError(ctx.config.logger, err))
  }
  return cookies
}

async function signInEvent(ctx: Context, result: SignInResult, stored: PersistedUser | undefined): Promise<void> {
  await emitEvent(ctx, "signIn", {
    user: result.account.type === "credentials" ? result.user : (stored?.user ?? result.user),
    account: stored?.account ?? result.account,
    ...(result.profile ? { profile: result.profile } : {}),
    isNewUser: stored?.isNewUser ?? false,
  })
}

/** Turns a successful flow into session cookies and the redirect that follows sign-in. */
export async function issueSession(req: AuthRequest, ctx: Context, result: SignInResult, callbackUrl: string): Promise<AuthResponse> {
  const flowCookies = result.cookies ?? []
  const decision = await runSignInCallback(signInParams(result), ctx)
  if (decision.redirect) return { redirect: decision.redirect, cookies: flowCookies }
  // Without an adapter nothing is stored: skip the call and its microtask (credentials + jwt).
  const stored = ctx.config.adapter ? await persistIfNeeded(req, ctx, result) : undefined
  const cookies = ctx.config.session.strategy === "jwt"
    ? await startJwt(req, ctx, result, stored)
    : await startDatabase(req, ctx, (stored?.user ?? result.user).id!)
  if (ctx.config.events.signIn) await signInEvent(ctx, result, stored)
  const { newUser } = ctx.config.pages
  const redirect = stored?.isNewUser && newUser ? pageUrl(ctx, newUser, { callbackUrl }) : callbackUrl
  return { redirect, cookies: flowCookies.length ? [...flowCookies, ...cookies] : cookies }
}
