/**
 * How an error becomes a response. Malformed requests: 4xx JSON. Otherwise client-safe errors keep
 * their type and every other error is logged in full and shown as `Configuration`. JSON actions
 * (routes declared `answers: "json"`) answer `{ error, code? }` with a status; page actions redirect: `CredentialsSignin` and `MissingCSRF` back to the sign-in page, everything
 * else to the error page.
 */
import { AuthError, Configuration, InvalidRequest, MethodNotAllowed, RateLimited, RefreshTokenError, UnknownAction, isClientSafe } from "../errors/errors.js"
import { logError } from "../errors/logger.js"
import type { LoggerInstance } from "@authlib/jwt"
import type { AuthAction, AuthResponse, Context } from "../types/http.js"
import { routeUrl } from "./urls.js"
import { wantsRedirectAsJson } from "./to-response.js"
import type { ResolvedConfig } from "../types/resolved-config.js"
import { pageHeaders, renderErrorPage } from "../pages/index.js"
import type { Registry } from "../types/registry.js"

/** Whether `action` answers errors as JSON (its route declares `answers: "json"`). */
const answersJson = (registry: Registry, action: AuthAction) => registry.route(action)?.answers === "json"
/** The status of a JSON answer: the type's policy, else the error's own (from its code), else 400. */
const statusOf = (err: unknown, type: string, registry: Registry) => registry.policyOf(type).status ?? (type !== "Configuration" && typeof (err as { status?: unknown }).status === "number" ? (err as { status: number }).status : 400)

/** The 4xx answer to a request that could not be parsed or routed. */
export function requestErrorResponse(err: AuthError): AuthResponse {
  const status = err instanceof InvalidRequest ? err.status : err instanceof MethodNotAllowed ? 405 : err instanceof UnknownAction ? 404 : 400
  const allow = err instanceof MethodNotAllowed ? (err.cause?.allow as string | undefined) : undefined
  return {
    status,
    ...(allow !== undefined ? { headers: { allow } } : {}),
    json: { error: err.type, ...(err.code ? { code: err.code } : {}), message: err.message },
  }
}

/**
 * Logs `err` as its kind deserves (spec 5.3 and 7: the full error reaches the server log) and
 * returns the type the user may see. A client-safe error that wraps something the app's code threw
 * (a `signIn` callback that threw, `cause.err`) is logged with `logger.error`; an expected refusal
 * (a wrong password, a used link, a missing CSRF token) with `logger.warn`; anything else is a
 * fault, logged in full with `logger.error` and shown as `Configuration`.
 */
export function publicType(err: unknown, logger: LoggerInstance, logged = false): { type: string; code: string | undefined } {
  if (logged) return { type: "Configuration", code: undefined }
  if (isClientSafe(err)) {
    if ((err.cause as { err?: unknown } | undefined)?.err !== undefined) logError(logger, err)
    else logger.warn(err.type, err)
    return { type: err.type, code: err.code }
  }
  logError(logger, err)
  return { type: "Configuration", code: undefined }
}

/**
 * The answer of every request while the configuration is broken (the error was logged once at
 * start-up). Built from the configuration alone, never from the request's Host or
 * `X-Forwarded-*` headers: JSON for JSON actions, else the built-in error page itself (500), or a
 * redirect to `pages.error` on the configured `url`, or path-only without one (the browser stays
 * on the host it asked).
 */
export function configErrorResponse(action: AuthAction, config: ResolvedConfig): AuthResponse {
  if (answersJson(config.registry, action)) return { status: 500, json: { error: "Configuration" } }
  const origin = config.appUrl?.origin
  const custom = config.pages.error
  if (custom) {
    const url = new URL(custom, origin ?? RELATIVE_BASE)
    url.searchParams.set("error", "Configuration")
    return { redirect: url.origin === RELATIVE_BASE ? `${url.pathname}${url.search}` : url.href }
  }
  const signinUrl = `${origin ?? ""}${config.basePath}/signin`
  const { html } = renderErrorPage({ error: "Configuration", signinUrl, theme: config.theme })
  return { status: 500, html, headers: pageHeaders(html) }
}

/** A stand-in origin for resolving a path that must stay relative. */
const RELATIVE_BASE = "http://relative.invalid"

/**
 * Who sent a request, as far as the answer to a refusal goes: a script that asked for redirects as
 * JSON (`X-Auth-Return-Redirect: 1`), a person who submitted a form of a page (a POST the browser
 * sends as a top-level navigation, `Sec-Fetch-Mode: navigate`), or anyone else.
 */
export type Caller = "script" | "form" | "other"

/** The `Caller` of `request`. */
export function callerOf(request: Pick<Request, "method" | "headers">): Caller {
  if (wantsRedirectAsJson(request)) return "script"
  return request.method === "POST" && request.headers.get("sec-fetch-mode") === "navigate" ? "form" : "other"
}

/**
 * Too many attempts: 429 (503 when the store failed) with `Retry-After`, whatever the action.
 * JSON actions and script callers get `{ error, code, retryAfter }` (scripts also the error page's
 * `url`). A person who submitted a sign-in form goes back to the sign-in page, which says so next
 * to the forms (`?error=RateLimited&code=`), as a wrong password does; other browser requests get
 * the built-in error page itself, which can carry the status, or a redirect to `pages.error`.
 */
function rateLimitedResponse(err: RateLimited, action: AuthAction, ctx: Context, caller: Caller): AuthResponse {
  ctx.config.logger.debug(err.type, err)
  const status = err.status
  const headers = { "retry-after": String(err.retryAfter) }
  const body = { error: err.type, code: err.code, retryAfter: err.retryAfter }
  if (answersJson(ctx.config.registry, action)) return { status, headers, json: body }
  const url = routeUrl(ctx, "error", { error: err.type, code: err.code })
  if (caller === "script") return { status, headers, json: { url, ...body } }
  if (caller === "form" && ctx.config.registry.route(action)?.answers === "sign-in") return { redirect: routeUrl(ctx, "signIn", { error: err.type, code: err.code }), headers }
  if (ctx.config.pages.error) return { redirect: url, headers }
  const { html } = renderErrorPage({ error: err.type, code: err.code, signinUrl: routeUrl(ctx, "signIn"), theme: ctx.config.theme, retryAfter: err.retryAfter, texts: ctx.config.registry.errorText })
  return { status, html, headers: { ...pageHeaders(html), ...headers } }
}

/** The response to an error raised while handling `action` for `caller` (see `callerOf`). */
export function errorResponse(err: unknown, action: AuthAction, ctx: Context, logged = false, caller: Caller = "other"): AuthResponse {
  if (err instanceof InvalidRequest || err instanceof MethodNotAllowed || err instanceof UnknownAction) {
    ctx.config.logger.debug(err.type, err)
    return requestErrorResponse(err)
  }
  if (err instanceof RateLimited && !logged) return rateLimitedResponse(err, action, ctx, caller)
  const { type, code } = publicType(err, ctx.config.logger, logged)
  // The error page's own errors answer JSON: a redirect to it could loop.
  const policy = ctx.config.registry.policyOf(type)
  if (answersJson(ctx.config.registry, action) || action === "error") {
    return { status: statusOf(err, type, ctx.config.registry), json: { error: type, ...(code && policy.codeInJson ? { code } : {}) } }
  }
  const keptCode = code && policy.codeInRedirect ? { code } : {}
  return { redirect: routeUrl(ctx, policy.page === "sign-in" ? "signIn" : "error", { error: type, ...keptCode }) }
}

/**
 * What a server-side caller (`raw` mode, server functions) receives for `err`, logged by the same
 * rule as a route's error: a client-safe error itself (a refusal: one `warn` line); any other
 * error is logged in full first, and a non-`AuthError` becomes `Configuration`.
 */
export function rawError(err: unknown, ctx: Context): AuthError {
  // Logged as a route logs them: the request errors and too many attempts (the limiter said so) at
  // `debug`, every other refusal at `warn` by the one rule of `publicType`.
  if (err instanceof InvalidRequest || err instanceof MethodNotAllowed || err instanceof UnknownAction || err instanceof RateLimited) {
    ctx.config.logger.debug(err.type, err)
    return err
  }
  if (isClientSafe(err)) {
    publicType(err, ctx.config.logger)
    return err
  }
  // An outcome the caller asked about (no linked account) is no fault: logged at its own level.
  if (err instanceof RefreshTokenError && err.logLevel !== "error") {
    ctx.config.logger[err.logLevel](err.type, err)
    return err
  }
  publicType(err, ctx.config.logger)
  return err instanceof AuthError ? err : new Configuration("Unexpected error", { code: "UNEXPECTED", cause: { ...(err instanceof Error ? { err } : {}) } })
}
