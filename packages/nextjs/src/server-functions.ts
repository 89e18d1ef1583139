/**
 * Core's server functions for server actions and route handlers, every one through one generic
 * wrapper over core's typed map (`serverFunctions`), bound to a `NextAuth` instance: `forNext`.
 * The wrapper runs core's function on the request as core sees it now (the scope's jar: a session
 * refreshed or re-issued a moment ago counts), sets the cookies core answers through Next's cookie
 * store (also when core throws: a refused refresh token marks the session), ends a completed
 * two-factor sign-in with Next's `redirect`, and resolves core's value. Errors are core's
 * `AuthError`s as thrown (`SessionRequired`, `TwoFactorError` with its `code`, `RateLimited`...).
 *
 * Like core's, they check no CSRF token: call them from server actions, which Next only runs for a
 * POST whose `Origin` matches the `Host` (or `serverActions.allowedOrigins`), or from a route
 * handler behind your own check.
 */
import type { ServerFunction } from "@authlib/core"
import { callServerFunction, serverFunctions, type AnyServerFunction, type ServerFunctions } from "@authlib/core/internal"
import { redirect } from "./navigation.js"
import type { NextAuthConfigInput } from "./config.js"
import { headersScope } from "./headers-scope.js"
import { internalRequest } from "./internal-request.js"
import { applyCookies } from "./scope.js"

/** Core's server function `F` for Next: `(request, config)` supplied by the binding, resolving core's value. */
export type NextServerFunction<F> = F extends ServerFunction<infer A, infer T, unknown> ? (...args: A) => Promise<T> : never

/** Every server function of core, bound to one `NextAuth` instance. */
export type NextServerFunctions = { readonly [K in keyof ServerFunctions]: NextServerFunction<ServerFunctions[K]> }

/** Core's server function `name` for the `NextAuth` instance of `input`. */
export function forNext<K extends keyof ServerFunctions>(input: NextAuthConfigInput, name: K): NextServerFunction<ServerFunctions[K]> {
  const call = async (...args: never[]): Promise<unknown> => {
    const scope = await headersScope(input)
    const fn: AnyServerFunction = serverFunctions[name]
    return callServerFunction(fn, internalRequest(scope, "session"), scope.config, args, {
      setCookies: (cookies) => applyCookies(scope, cookies),
      redirect: (url) => redirect(url),
    })
  }
  return Object.defineProperty(call, "name", { value: name }) as unknown as NextServerFunction<ServerFunctions[K]>
}

/** All of core's server functions for one instance, one `forNext` each (a test compares the keys with core's map). */
export function serverFunctionsFor(input: NextAuthConfigInput): NextServerFunctions {
  const bound: Record<string, unknown> = {}
  for (const name of Object.keys(serverFunctions) as (keyof ServerFunctions)[]) bound[name] = forNext(input, name)
  return Object.freeze(bound) as unknown as NextServerFunctions
}
