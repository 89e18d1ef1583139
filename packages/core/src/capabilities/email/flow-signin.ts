/**
 * POST signin/:provider of an e-mail provider (CSRF already checked by the route):
 *
 * 1. normalise the address; a refused one goes back to the sign-in page, nothing stored or sent;
 *    then count the mail against the address's and the client's rate limits;
 * 2. ask the `signIn` callback with `email: { verificationRequest: true }`: false -> `AccessDenied`,
 *    a URL -> redirect there; either way no token is stored and no mail is sent;
 * 3. store the hashed token, then send the link (so it never arrives before its token exists), then
 *    retire the address's oldest links beyond `rateLimit.email.maxLiveTokens`;
 * 4. redirect to verify-request. A failed send removes the token again and ends on the error page
 *    with `EmailSignInError`; the sender's error is logged in full.
 *
 * The link's origin is the context's: the configured application URL (`url` / `WEBAUTH_URL`) when
 * set. Without it the origin comes from the request's (trusted) Host, so a warning is logged once.
 */
import { adapterMethods } from "../../kernel/ports/ports.js"
import type { LoggerInstance } from "@authlib/jwt"
import { Configuration, EmailSignInError, InvalidEmailAddress } from "../../kernel/errors/errors.js"
import { userCodeError } from "../../kernel/user-code/run.js"
import type { AuthRequest, AuthResponse } from "../../kernel/types/http.js"
import { routeUrl } from "../../kernel/http/urls.js"
import { logError } from "../../kernel/errors/logger.js"
import type { EmailConfig, EmailProviderSendVerificationRequestParams } from "../../kernel/types/providers.js"
import { runSignInCallback } from "../../kernel/user-code/callbacks.js"
import type { Account, User } from "../../kernel/types/config.js"
import type { FlowContext } from "../../kernel/types/sign-in.js"
import { identifierOf } from "./normalize-identifier.js"
import { discardToken, emailTokens, newToken, retireOldTokens, storeToken } from "./token.js"
import { emailAttempt } from "./rate-limits.js"

const warned = new WeakSet<LoggerInstance>()

function warnRequestOrigin(ctx: FlowContext<EmailConfig>): void {
  const { logger, appUrl } = ctx.config
  if (appUrl || warned.has(logger)) return
  warned.add(logger)
  logger.warn("email-link-origin", 'e-mail sign-in links take their origin from the request because "url" (WEBAUTH_URL) is not set; set it so a forged Host header can never change where a link points')
}

/** The address refused: back to the sign-in page, with the rule in `code` for client-side callers. */
function refusedAddress(err: InvalidEmailAddress, ctx: FlowContext<EmailConfig>): AuthResponse {
  ctx.config.logger.debug(err.type, err)
  return { redirect: routeUrl(ctx, "signIn", { error: EmailSignInError.type, code: err.code, callbackUrl: ctx.callbackUrl }) }
}

/** The magic link: `<actionBase>/callback/<provider>?callbackUrl&token&email`. */
export function linkUrl(ctx: FlowContext<EmailConfig>, identifier: string, token: string): string {
  const query = new URLSearchParams({ callbackUrl: ctx.callbackUrl, token, email: identifier })
  return `${ctx.actionBase}/callback/${encodeURIComponent(ctx.provider.id)}?${query}`
}

/** The request handed to `sendVerificationRequest`, with a body that can still be read. */
function requestFor(req: AuthRequest): Request {
  return new Request(req.url, { method: req.method, headers: req.headers, ...(req.rawBody !== undefined ? { body: req.rawBody } : {}) })
}

async function ask(ctx: FlowContext<EmailConfig>, identifier: string): Promise<{ redirect?: string }> {
  const existing = await adapterMethods(ctx.config.adapter, ["getUserByEmail"], "E-mail sign-in").getUserByEmail(identifier)
  const user: User = existing ?? { email: identifier }
  const account: Account = { provider: ctx.provider.id, providerAccountId: identifier, type: "email", ...(existing ? { userId: existing.id } : {}) }
  return runSignInCallback({ user, account, email: { verificationRequest: true } }, ctx)
}

async function send(ctx: FlowContext<EmailConfig>, params: EmailProviderSendVerificationRequestParams, stored: { identifier: string; token: string }): Promise<void> {
  try {
    await ctx.provider.sendVerificationRequest(params)
  } catch (err) {
    const { logger } = ctx.config
    logError(logger, err)
    // The mail may have left before the failure was noticed: its link must not work.
    await discardToken(emailTokens(ctx), stored).catch((discardErr: unknown) => logError(logger, discardErr))
    throw userCodeError("sendVerificationRequest", ctx.provider.id, err)
  }
}

/** Starts an e-mail sign-in: see the module comment for the steps. */
export async function emailSignin(req: AuthRequest, ctx: FlowContext<EmailConfig>): Promise<AuthResponse> {
  const { provider } = ctx
  if (typeof provider.sendVerificationRequest !== "function")
    throw new Configuration(`E-mail provider "${provider.id}" has no "sendVerificationRequest"`, { code: "SEND_VERIFICATION_REQUEST_MISSING", cause: { provider: provider.id } })
  let identifier: string
  try {
    identifier = identifierOf(provider, req.body.email)
  } catch (err) {
    if (err instanceof InvalidEmailAddress) return refusedAddress(err, ctx)
    throw err
  }
  // Counted before anything looks the address up: a refusal says nothing about the account.
  await emailAttempt(req, ctx, identifier)
  const decision = await ask(ctx, identifier)
  if (decision.redirect) return { redirect: decision.redirect }
  warnRequestOrigin(ctx)
  const token = await newToken(provider)
  const stored = await storeToken(ctx, identifier, token)
  const url = linkUrl(ctx, identifier, token)
  const request = requestFor(req)
  await send(ctx, { identifier, url, expires: stored.expires, provider, token, theme: ctx.config.theme, request }, stored)
  await retireOldTokens(ctx, identifier)
  return { redirect: routeUrl(ctx, "verifyRequest", { provider: provider.id, type: provider.type }) }
}
