/**
 * The one shape of a server function, so a binding (Node, Qwik, Next) wraps every one of them
 * with one generic adapter: `result(request, config, ...args)` resolves a `ServerResult` (the
 * caller's value, the cookies the app's response must carry, where the browser goes next) or
 * throws an `AuthError`. The function itself, called directly, resolves what a caller without a
 * framework needs: the value, with `setCookie` strings where the work sets cookies.
 *
 * An error that asks for cookies (a refused refresh token marks or ends the session) carries
 * them itself (`withErrorCookies`), so they travel with the error and no per-request state is
 * kept beside it.
 */
import { serializeCookie, type Cookie } from "../cookies/serialize.js"
import type { AuthConfig } from "../types/config.js"
import type { AuthAction, AuthRequest, Context } from "../types/http.js"
import { serverCall } from "./server-call.js"

/**
 * What a server function's work answers, as a route's result does: `value` for the caller, the
 * `cookies` the app's response must carry (a session re-issued or ended, a pending sign-in
 * cleared; empty for most functions), and `redirect`, where the browser goes next (only the
 * functions that complete a sign-in set it). A binding sets the cookies and redirects through its
 * framework, then returns `value`.
 */
export interface ServerResult<T> {
  value: T
  cookies: Cookie[]
  redirect?: string
}

/** The one shape: the app's request, the config, the function's own arguments; a `ServerResult`, or a thrown `AuthError`. */
export type ServerWork<A extends unknown[], T> = (request: Request, config: AuthConfig, ...args: A) => Promise<ServerResult<T>>

/**
 * A server function of `@authlib/core`. Called directly, `(request, config, ...args)` resolves `R`:
 * the value, plus `Set-Cookie` strings for the functions whose work sets cookies. `result` is the
 * same work in the one shape bindings wrap (cookies as objects, the redirect apart from the value).
 */
export interface ServerFunction<A extends unknown[], T, R = T> {
  (request: Request, config: AuthConfig, ...args: A): Promise<R>
  /** The work in its one shape: `{ value, cookies, redirect? }`, for bindings that set cookies through their framework. */
  readonly result: ServerWork<A, T>
}

/** Any server function: the constraint of a binding's generic wrapper (whatever its arguments and results). */
export type AnyServerFunction = ServerFunction<never[], unknown, unknown>

/** A finished work as a direct caller's result is built from it: `cookies` serialised as `Set-Cookie` values. */
export type DirectResult<S extends ServerResult<unknown>> = Omit<S, "cookies"> & { setCookie: string[] }

function callable<A extends unknown[], T, R>(result: ServerWork<A, T>, direct: (request: Request, config: AuthConfig, ...args: A) => Promise<R>): ServerFunction<A, T, R> {
  return Object.assign(direct, { result })
}

// Both makers are marked free of side effects: a browser build that loads core (a binding's
// module graph) drops every server function it does not call.

/**
 * A server function whose work answers a value only (no cookie, no redirect): `run` as a route's
 * handler runs for `action` (see `serverCall`); called directly, it resolves the value.
 */
export /*#__NO_SIDE_EFFECTS__*/ function serverFunction<A extends unknown[], T>(action: AuthAction, run: (req: AuthRequest, ctx: Context, ...args: A) => Promise<T>): ServerFunction<A, T> {
  const direct = (request: Request, config: AuthConfig, ...args: A) => serverCall(request, config, action, (req, ctx) => run(req, ctx, ...args))
  return callable(async (request: Request, config: AuthConfig, ...args: A) => ({ value: await direct(request, config, ...args), cookies: [] }), direct)
}

/**
 * A server function whose work also sets cookies (or redirects): `run` answers the whole
 * `ServerResult`; called directly, the function resolves `shape` of it, its cookies serialised.
 */
export /*#__NO_SIDE_EFFECTS__*/ function serverFunctionWithCookies<A extends unknown[], S extends ServerResult<unknown>, R>(
  action: AuthAction,
  run: (req: AuthRequest, ctx: Context, ...args: A) => Promise<S>,
  shape: (done: DirectResult<S>) => R,
): ServerFunction<A, S["value"], R> {
  const result = (request: Request, config: AuthConfig, ...args: A): Promise<S> => serverCall(request, config, action, (req, ctx) => run(req, ctx, ...args))
  return callable(result, async (request: Request, config: AuthConfig, ...args: A) => {
    const { cookies, ...done } = await result(request, config, ...args)
    return shape({ ...done, setCookie: cookies.map(serializeCookie) } as DirectResult<S>)
  })
}

/** A kernel result that carries its cookies beside its fields (`{ ...fields, cookies }`) as a `ServerResult`. */
export function splitCookies<T extends { cookies: Cookie[] }>({ cookies, ...value }: T): ServerResult<Omit<T, "cookies">> {
  return { value, cookies }
}

const ERROR_COOKIES = Symbol("authlib.error-cookies")

/** `err`, carrying the cookies the response must set although the work failed. */
export function withErrorCookies<E extends Error>(err: E, cookies: Cookie[]): E {
  Object.defineProperty(err, ERROR_COOKIES, { value: cookies, configurable: true })
  return err
}

/** The cookies a thrown error asks the response to set (see `withErrorCookies`); none for any other value. */
export function errorCookies(err: unknown): Cookie[] {
  const cookies = err instanceof Error ? (err as Error & { [ERROR_COOKIES]?: Cookie[] })[ERROR_COOKIES] : undefined
  return cookies ?? []
}

/** How a binding answers for its framework what a server function's work asks of the response. */
export interface ResultSink {
  /** Sets cookies on the response (and on whatever later calls in the same request read). */
  setCookies(cookies: Cookie[]): void
  /** Sends the browser to `url`: after the cookies, as a completed sign-in redirects. */
  redirect(url: string): void
}

/**
 * A server function run for a binding: its work in the one shape, the cookies set through `sink`
 * (also when it throws: a refused refresh token still marks the session), then the redirect, then
 * the value. Errors reach the caller as thrown, with their type and code.
 */
export async function callServerFunction<A extends unknown[], T>(fn: ServerFunction<A, T, unknown>, request: Request, config: AuthConfig, args: A, sink: ResultSink): Promise<T> {
  let result: ServerResult<T>
  try {
    result = await fn.result(request, config, ...args)
  } catch (err) {
    const cookies = errorCookies(err)
    if (cookies.length) sink.setCookies(cookies)
    throw err
  }
  if (result.cookies.length) sink.setCookies(result.cookies)
  if (result.redirect !== undefined) sink.redirect(result.redirect)
  return result.value
}
