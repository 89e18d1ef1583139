/**
 * `auth` with a request: as the proxy (`export { auth as proxy }`, Next 16) or middleware
 * (`export { auth as middleware }`), and `auth(handler)` around a route handler or a proxy of your
 * own. The session is core's answer for the request (principal checks: expiry, revocation, user
 * present; one read), then `callbacks.authorized({ auth, request })` decides:
 *
 * - `false`: a redirect to the sign-in page with the request's URL as `callbackUrl`;
 * - a `Response`: answered as it is;
 * - `true`, `undefined`, or no callback: the request goes on (to `handler` with `req.auth` set).
 *
 * Requests under `basePath` and the sign-in page itself are never refused (no redirect loop).
 * Cookies core set while reading (a sliding refresh) go on whatever response leaves, and on the
 * request the page renders with, so `auth()` there reads the refreshed cookie.
 */
import type { Cookie, Session } from "@authlib/core"
import { isAuthPath, serializeCookie } from "@authlib/core/internal"
import { NextResponse, type NextRequest } from "next/server.js"
import { configFor, type NextAuthConfig, type NextAuthConfigInput } from "./config.js"
import { fromNextRequest, type RequestScope } from "./scope.js"
import { sessionOf } from "./session.js"

/** The request a handler wrapped by `auth(handler)` receives: `req.auth` is the session or `null`. */
export type NextAuthRequest = NextRequest & { auth: Session | null }

/** A route handler or proxy wrapped by `auth(handler)`; a proxy may answer nothing to let the request go on. */
export type AuthHandler<Ctx = unknown> = (request: NextAuthRequest, ctx: Ctx) => Response | void | undefined | Promise<Response | void | undefined>

/** `response` with core's cookies appended (a copy when its headers are immutable, as `Response.redirect`'s are). */
export function withCookies(response: Response, cookies: readonly Cookie[]): Response {
  if (!cookies.length) return response
  let target = response
  try {
    target.headers.append("Set-Cookie", serializeCookie(cookies[0]!))
  } catch {
    target = new Response(response.body, { status: response.status, statusText: response.statusText, headers: new Headers(response.headers) })
    target.headers.append("Set-Cookie", serializeCookie(cookies[0]!))
  }
  for (const cookie of cookies.slice(1)) target.headers.append("Set-Cookie", serializeCookie(cookie))
  return target
}

function signInPath(config: NextAuthConfig, basePath: string): string {
  return config.pages?.signIn ?? `${basePath}/signin`
}

/** Whether the request is authlib's own or the sign-in page: never refused by `authorized`. */
function isAuthOwn(scope: RequestScope, request: NextRequest): boolean {
  const path = request.nextUrl.pathname
  return isAuthPath(path, scope.basePath) || path === new URL(signInPath(scope.config, scope.basePath), scope.origin).pathname
}

function toSignIn(scope: RequestScope, request: NextRequest): Response {
  const target = new URL(signInPath(scope.config, scope.basePath), scope.origin)
  // The page on the origin the browser used (Next's `nextUrl` carries its listening address).
  target.searchParams.set("callbackUrl", `${scope.origin}${request.nextUrl.pathname}${request.nextUrl.search}`)
  return NextResponse.redirect(target)
}

/** Lets the request go on, with the jar's cookies on the request the page renders with when core changed them. */
function passThrough(scope: RequestScope, request: NextRequest, changed: boolean): Response {
  if (!changed) return NextResponse.next()
  const headers = new Headers(request.headers)
  headers.set("cookie", [...scope.jar].map(([name, value]) => `${name}=${value}`).join("; "))
  return NextResponse.next({ request: { headers } })
}

async function decide(scope: RequestScope, request: NextRequest, session: Session | null, ctx: unknown, handler: AuthHandler | undefined, changed: boolean): Promise<Response> {
  const authorized = scope.config.callbacks?.authorized
  if (authorized && !isAuthOwn(scope, request)) {
    const verdict = await authorized({ auth: session, request })
    if (verdict instanceof Response) return verdict
    if (verdict === false) return toSignIn(scope, request)
  }
  if (!handler) return passThrough(scope, request, changed)
  ;(request as NextAuthRequest).auth = session
  return (await handler(request as NextAuthRequest, ctx)) ?? passThrough(scope, request, changed)
}

/** Runs the proxy/middleware (or `handler`) for `request` under the instance's configuration. */
export async function runWithAuth(input: NextAuthConfigInput, request: NextRequest, ctx: unknown, handler?: AuthHandler): Promise<Response> {
  const config = await configFor(input, request)
  const cookies: Cookie[] = []
  const scope = fromNextRequest(request, config, (set) => cookies.push(...set))
  const session = await sessionOf(scope)
  return withCookies(await decide(scope, request, session, ctx, handler, cookies.length > 0), cookies)
}
