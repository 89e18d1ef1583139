/**
 * The configuration `NextAuth` runs: the app's (or what its function of the request answers),
 * completed from `process.env` as the rest of authlib completes it (`AUTH_SECRET`, `WEBAUTH_URL`,
 * `AUTH_TRUST_HOST`, `AUTH_<PROVIDER>_ID/_SECRET/_ISSUER`; see core's `setEnvDefaults`), with
 * `basePath` defaulting to `/api/auth`, the route file Auth.js apps already have. A copy, made once
 * per config object, so the app's object is never changed and core's per-config cache still holds.
 */
import { Configuration, setEnvDefaults, type AuthConfig, type Awaitable, type Session } from "@authlib/core"
import type { NextRequest } from "next/server.js"

/** What `callbacks.authorized` receives: the session of the request (or `null`) and the `NextRequest`. */
export interface AuthorizedParams {
  auth: Session | null
  request: NextRequest
}

/**
 * `callbacks.authorized`, run by `auth` as the proxy/middleware (and by `auth(handler)`): `false`
 * sends the browser to the sign-in page with the request's URL as `callbackUrl`; a `Response` is
 * answered as it is (a redirect of your own, a 403); `true` or `undefined` lets the request through.
 * Without it every request goes through.
 */
export type AuthorizedCallback = (params: AuthorizedParams) => Awaitable<boolean | Response | undefined | void>

/** The configuration of `NextAuth`: core's `AuthConfig` without `raw` (the binding's), with `callbacks.authorized`. */
export type NextAuthConfig = Omit<AuthConfig, "raw" | "callbacks"> & {
  callbacks?: AuthConfig["callbacks"] & { authorized?: AuthorizedCallback }
}

/**
 * What `NextAuth` takes: the configuration, or a function of the request answering it (lazy
 * initialisation, as in Auth.js v5). The request is the `NextRequest` in route handlers and the
 * proxy/middleware, and `undefined` in server components and server actions, which have none.
 */
export type NextAuthConfigInput = NextAuthConfig | ((request: NextRequest | undefined) => NextAuthConfig | Promise<NextAuthConfig>)

/** The default mount point, `app/api/auth/[...nextauth]/route.ts`. */
export const NEXT_BASE_PATH = "/api/auth"

const completed = new WeakMap<NextAuthConfig, NextAuthConfig>()

/** Whether this code runs on Next's edge runtime (middleware on 15.5 by default, or `runtime = "edge"`). */
export function isEdgeRuntime(): boolean {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env
  return typeof (globalThis as { EdgeRuntime?: unknown }).EdgeRuntime === "string" || env?.NEXT_RUNTIME === "edge"
}

/** Which session strategy `config` runs, as core chooses it: `database` with an adapter unless told otherwise. */
export function strategyOf(config: NextAuthConfig): "jwt" | "database" {
  return config.session?.strategy ?? (config.adapter ? "database" : "jwt")
}

/**
 * Refuses a database session strategy on the edge runtime, where a stored session cannot be
 * looked up (no database driver runs there): a start-up error naming the two fixes, rather than
 * a proxy that lets revoked sessions through.
 */
export function assertRuntimeFits(config: NextAuthConfig): void {
  if (!isEdgeRuntime() || strategyOf(config) !== "database") return
  throw new Configuration(
    'Database sessions cannot be checked on the edge runtime. Run the proxy on Node.js (Next 16: proxy.ts runs on Node.js; Next 15.5: add `export const config = { runtime: "nodejs" }` to middleware.ts), or use `session: { strategy: "jwt" }`.',
    { code: "CONFIG_INVALID", cause: { runtime: "edge", strategy: "database" } },
  )
}

/** `config` completed from `process.env`, with `basePath` `/api/auth` unless the app or `WEBAUTH_URL` says otherwise. */
export function completeConfig(config: NextAuthConfig): NextAuthConfig {
  let found = completed.get(config)
  if (!found) {
    found = { ...config, providers: [...config.providers] }
    const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env ?? {}
    setEnvDefaults(env, found)
    found.basePath ??= NEXT_BASE_PATH
    assertRuntimeFits(found)
    completed.set(config, found)
  }
  return found
}

/** The configuration for one request (the app's function called with it, or the object), completed. */
export async function configFor(input: NextAuthConfigInput, request: NextRequest | undefined): Promise<NextAuthConfig> {
  return completeConfig(typeof input === "function" ? await input(request) : input)
}
