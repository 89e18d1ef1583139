/**
 * `NextAuth(config)`: what an Auth.js v5 app destructures, from one configuration (or a function of
 * the request answering it), plus every server function of core bound to it.
 */
import type { Session } from "@authlib/core"
import type { NextRequest } from "next/server.js"
import { completeConfig, type NextAuthConfigInput } from "./config.js"
import { handlersFor, type AuthHandlers } from "./handlers.js"
import { headersScope } from "./headers-scope.js"
import { runWithAuth, type AuthHandler } from "./proxy.js"
import { serverFunctionsFor, type NextServerFunctions } from "./server-functions.js"
import { sessionOf } from "./session.js"
import { finish, optionsRecord, signInUrl, type SignInAuthorizationParams, type SignInOptions } from "./sign-in.js"
import { signOutUrl, type SignOutOptions } from "./sign-out.js"
import { updateSession } from "./update.js"

/** A proxy/middleware as Next calls it: the request, then a second argument (the fetch event, or nothing). */
export type ProxyFunction = (request: NextRequest, ctx?: unknown) => Promise<Response>

/**
 * `auth`:
 * - `await auth()` in a server component, route handler or server action: the session, or `null`
 *   (one read per request, memoised; the principal checks of core apply);
 * - `auth(handler)`: `handler` with `req.auth`, for a route handler or your own proxy;
 * - `auth` itself as the proxy/middleware (`export { auth as proxy }`), applying `callbacks.authorized`.
 */
export interface AuthFunction {
  (): Promise<Session | null>
  (request: NextRequest, ctx?: unknown): Promise<Response>
  <Ctx>(handler: AuthHandler<Ctx>): (request: NextRequest, ctx: Ctx) => Promise<Response>
}

/** What `NextAuth` answers: Auth.js v5's names, and core's server functions for this configuration. */
export type NextAuthResult = NextServerFunctions & {
  /** `export const { GET, POST } = handlers` in `app/api/auth/[...nextauth]/route.ts`. */
  handlers: AuthHandlers
  auth: AuthFunction
  /**
   * Signs in from a server action or route handler: `provider` (none: the sign-in page), its fields
   * (an object or the action's `FormData`, with `redirectTo`, and `redirect: false` to answer the
   * URL instead of redirecting), and extra authorization parameters for OAuth/OIDC. A refused
   * credentials sign-in throws `CredentialsSignin`.
   */
  signIn(provider?: string, options?: SignInOptions | FormData, authorizationParams?: SignInAuthorizationParams): Promise<string>
  /** Signs out from a server action or route handler, then redirects to `redirectTo` (`redirect: false`: answers the URL). */
  signOut(options?: SignOutOptions): Promise<string>
  /** Updates the session (`data` reaches the `jwt` / `session` callback with `trigger: "update"`); resolves the new session. */
  unstable_update(data: Partial<Session> | Record<string, unknown>): Promise<Session | null>
}

function isRequest(value: unknown): value is NextRequest {
  return value instanceof Request
}

function authFor(input: NextAuthConfigInput): AuthFunction {
  function auth(...args: unknown[]): unknown {
    if (args.length === 0) return headersScope(input).then(sessionOf)
    if (typeof args[0] === "function") {
      const handler = args[0] as AuthHandler
      return (request: NextRequest, ctx: unknown) => runWithAuth(input, request, ctx, handler)
    }
    if (isRequest(args[0])) return runWithAuth(input, args[0], args[1])
    throw new TypeError("auth() takes no argument, a handler, or a NextRequest (as the proxy). For the Pages Router use getServerSession from @authlib/nextjs/pages.")
  }
  return auth as AuthFunction
}

/**
 * Sets authlib up for a Next.js app (App Router; Pages Router through `@authlib/nextjs/pages`).
 * `config` is an authlib `AuthConfig`, completed from the environment (`AUTH_SECRET`,
 * `WEBAUTH_URL`, `AUTH_<PROVIDER>_ID/_SECRET/_ISSUER`), `basePath` `/api/auth` unless set; or a
 * function of the request answering it (`undefined` where there is no request: server components,
 * server actions).
 *
 * @example
 * ```ts
 * // auth.ts
 * import NextAuth from "@authlib/nextjs"
 * import GitHub from "@authlib/providers/github"
 * export const { handlers, auth, signIn, signOut, unstable_update } = NextAuth({ providers: [GitHub] })
 * // app/api/auth/[...nextauth]/route.ts
 * export const { GET, POST } = handlers
 * // proxy.ts (Next 16) or middleware.ts
 * export { auth as proxy } from "./auth"
 * ```
 */
export function NextAuth(config: NextAuthConfigInput): NextAuthResult {
  // A configuration object is checked now, at start-up (a database strategy on the edge runtime).
  if (typeof config !== "function") completeConfig(config)
  const redirected = async <T>(work: Promise<string>, redirect: boolean | undefined): Promise<T> => finish(await work, redirect) as T
  return {
    ...serverFunctionsFor(config),
    handlers: handlersFor(config),
    auth: authFor(config),
    signIn: async (provider, options, authorizationParams) => {
      const record = optionsRecord(options)
      return redirected(signInUrl(await headersScope(config), provider, record, authorizationParams), record.redirect)
    },
    signOut: async (options = {}) => redirected(signOutUrl(await headersScope(config), options), options.redirect),
    unstable_update: async (data) => updateSession(await headersScope(config), data),
  }
}
