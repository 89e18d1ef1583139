/**
 * `setEnvDefaults(env, config)`: fills the caller's configuration from the environment. This is the
 * one sanctioned write to a user's config object (spec section 4); values already set always win.
 *
 * - `secret`: `AUTH_SECRET`, then `AUTH_SECRET_1`, `AUTH_SECRET_2`, `AUTH_SECRET_3`. The first one
 *   present encrypts new tokens; all of them decrypt. To rotate, move the current `AUTH_SECRET` to
 *   `AUTH_SECRET_1` (shifting older ones down) and set a new `AUTH_SECRET`.
 * - `url`: `WEBAUTH_URL`, the application URL. Its origin is used for every link and callback URL
 *   instead of the request's Host header; a path other than `/` gives the `basePath`.
 * - `trustHost`: `AUTH_TRUST_HOST` ("false" and "0" mean false); otherwise true when `WEBAUTH_URL`
 *   is set, since links then never come from the Host header, or when `NODE_ENV=development`,
 *   `VERCEL` or `CF_PAGES` is set (the platform sets Host itself).
 * - `redirectProxyUrl`: `AUTH_REDIRECT_PROXY_URL`; `redirectProxyAllowedOrigins`:
 *   `AUTH_REDIRECT_PROXY_ALLOWED_ORIGINS` (comma- or space-separated origins, `*` inside host labels).
 * - Per OAuth/OIDC provider: `AUTH_<ID>_ID`, `AUTH_<ID>_SECRET`, `AUTH_<ID>_ISSUER` fill `clientId`,
 *   `clientSecret`, `issuer` when absent (`<ID>` is the provider id upper-cased, every character
 *   other than A-Z and 0-9 replaced by `_`: `azure-ad` reads `AUTH_AZURE_AD_ID`).
 * - Per e-mail provider: `AUTH_<ID>_KEY` fills `apiKey` when absent (HTTP e-mail services).
 */
import type { Registry } from "../types/registry.js"
import type { AuthConfig } from "../types/config.js"
import type { ProviderConfig } from "../types/providers.js"
import { parseOriginList } from "../security/origin-patterns.js"

/** An environment: a plain record (`process.env`) or a getter object (`{ get(name) }`, as Qwik's `ev.env`). */
export type EnvSource = Record<string, string | undefined> | { get(name: string): string | undefined }

function reader(env: EnvSource): (name: string) => string | undefined {
  const get = (env as { get?: unknown }).get
  const raw = typeof get === "function"
    ? (name: string) => (env as { get(name: string): string | undefined }).get(name)
    : (name: string) => (env as Record<string, string | undefined>)[name]
  return (name) => {
    const value = raw(name)
    return value === undefined || value === "" ? undefined : value
  }
}

/** The env-var stem of a provider id: upper-case, non-alphanumerics as `_`. */
export function envStem(providerId: string): string {
  return providerId.toUpperCase().replace(/[^A-Z0-9]/g, "_")
}

function secretsFrom(read: (name: string) => string | undefined): string | string[] | undefined {
  const all = ["AUTH_SECRET", "AUTH_SECRET_1", "AUTH_SECRET_2", "AUTH_SECRET_3"].map(read).filter((s): s is string => !!s)
  if (all.length === 0) return undefined
  return all.length === 1 ? all[0] : all
}

function basePathOf(url: string): string | undefined {
  try {
    const path = new URL(url).pathname.replace(/\/+$/, "")
    return path === "" ? undefined : path
  } catch {
    return undefined
  }
}

/** `provider` completed from the environment as its sign-in type reads it (`AUTH_<ID>_...`; see `SignInTypeDeclaration.fromEnv`). */
function fillProvider(registry: Registry, provider: ProviderConfig, read: (name: string) => string | undefined): ProviderConfig {
  return registry.signInType(provider.type)?.fromEnv?.(provider, read, envStem(provider.id)) ?? provider
}

/**
 * What `setEnvDefaults` did to a config, for the start-up checks (`validate.ts`): whether the config
 * was completed from an environment at all (a missing secret is then really missing from it), and
 * whether that environment had a leftover Auth.js `AUTH_URL` and no `WEBAUTH_URL` to go with it.
 */
export interface EnvReading {
  /** `AUTH_URL` was set, and neither `WEBAUTH_URL` nor the config's own `url` was: `AUTH_URL` is not read. */
  authUrlIgnored: boolean
}

/**
 * Kept on the config itself under a symbol (no JSON, no key of the config's type), so the copies
 * bindings make of a completed config (`{ ...config, raw }`) carry it too.
 */
const ENV_READING = Symbol.for("authlib.envReading")

/** How `setEnvDefaults` completed `config` (or the config it was copied from); `undefined` when it never did. */
export function envReadingOf(config: AuthConfig): EnvReading | undefined {
  return (config as { [ENV_READING]?: EnvReading })[ENV_READING]
}

/** Fills `config` from `env`, each provider as its sign-in type in `registry` reads it; returns nothing (spec section 4). */
export function setEnvDefaults(env: EnvSource, config: AuthConfig, registry: Registry): void {
  const read = reader(env)
  const url = read("WEBAUTH_URL")
  const marked = config as { [ENV_READING]?: EnvReading }
  marked[ENV_READING] = { authUrlIgnored: url === undefined && config.url === undefined && read("AUTH_URL") !== undefined }
  if (url !== undefined) {
    config.url ??= url
    config.basePath ??= basePathOf(url)
  }
  config.secret ??= secretsFrom(read)
  const trust = read("AUTH_TRUST_HOST")
  if (config.trustHost === undefined) {
    if (trust !== undefined) config.trustHost = !(trust === "false" || trust === "0")
    else if (config.url !== undefined) config.trustHost = true
    // Where the Host header is known to be the platform's own: local development (an explicit
    // NODE_ENV=development, never an unset one) and hosts that set it themselves (Vercel,
    // Cloudflare Pages), as Auth.js trusts them.
    else if (read("NODE_ENV") === "development" || read("VERCEL") !== undefined || read("CF_PAGES") !== undefined) config.trustHost = true
  }
  config.redirectProxyUrl ??= read("AUTH_REDIRECT_PROXY_URL")
  const allowed = read("AUTH_REDIRECT_PROXY_ALLOWED_ORIGINS")
  if (allowed !== undefined) config.redirectProxyAllowedOrigins ??= parseOriginList(allowed)
  config.providers = config.providers.map((p) => fillProvider(registry, typeof p === "function" ? p() : p, read))
}
