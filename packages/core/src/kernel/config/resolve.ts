/**
 * User config (+ env already applied by `setEnvDefaults`) -> frozen `ResolvedConfig`, built once per
 * config object and cached in a WeakMap, with the registry the config carries (`registry/carried.ts`:
 * a package entry puts it there). The caller's object is read, never written. Validation
 * runs here, once: a fatal misconfiguration is logged once and kept as `error`, so every request
 * answers `Configuration` without repeating the work.
 */
import { normalizeBasePath } from "./base-path.js"
import { decode, encode } from "@authlib/jwt"
import type { JWT } from "@authlib/jwt"
import { createLogger, logError } from "../errors/logger.js"
import { normalizeProvider } from "../providers/normalize.js"
import { raw } from "../types/raw.js"
import { skipCSRFCheck } from "../types/skip-csrf.js"
import { defaultRedirect } from "../security/redirect.js"
import type { AuthConfig, CallbacksOptions, CookiesOptions, Session, SessionOptions } from "../types/config.js"
import { resolveCookies } from "../cookies/names.js"
import { wrapAdapter } from "../ports/adapter.js"
import { randomToken } from "../security/random.js"
import { validateConfig } from "./validate.js"
import { rateLimitProblems, resolveRateLimit } from "../rate-limit/options.js"
import type { ResolvedCapabilityOptions, ResolvedConfig } from "../types/resolved-config.js"
import { carriedRegistry } from "../registry/carried.js"
import type { Registry } from "../types/registry.js"
import { compileOriginPattern, type OriginPattern } from "../security/origin-patterns.js"

const cache = new WeakMap<AuthConfig, ResolvedConfig>()

/**
 * Returns the resolved form of `config`, building it on first use. Throws when `config` carries no
 * registry: only a caller that bypassed the package entries can get here without one.
 */
export function resolveConfig(config: AuthConfig): ResolvedConfig {
  let resolved = cache.get(config)
  if (!resolved) {
    const registry = carriedRegistry(config)
    if (!registry) throw new Error("@authlib/core: the config carries no capability registry: call core through its package entries")
    resolved = buildConfig(config, registry)
    cache.set(config, resolved)
  }
  return resolved
}

const DAY = 24 * 60 * 60

function sessionOptions(config: AuthConfig): SessionOptions {
  const s = config.session ?? {}
  return Object.freeze({
    strategy: s.strategy ?? (config.adapter ? "database" : "jwt"),
    maxAge: s.maxAge ?? 30 * DAY,
    updateAge: s.updateAge ?? DAY,
    // Checked at start-up (validate.ts): anything but a whole number of seconds above 0 stops it.
    absoluteMaxAge: s.absoluteMaxAge,
    generateSessionToken: s.generateSessionToken ?? (() => randomToken(32)),
    acceptAuthJsSessions: s.acceptAuthJsSessions !== false,
    providerTokens: s.providerTokens === true,
    checkRevocation: s.checkRevocation ?? "on-reissue",
  })
}

function callbackOptions(config: AuthConfig): CallbacksOptions {
  const c = config.callbacks ?? {}
  return Object.freeze({
    signIn: c.signIn ?? (() => true),
    redirect: c.redirect ?? defaultRedirect,
    session: c.session ?? ((params: { session: Session }) => params.session),
    jwt: c.jwt ?? ((params: { token: JWT }) => params.token),
  })
}

function appUrlOf(url: string | undefined): URL | undefined {
  if (!url) return undefined
  try {
    return new URL(url)
  } catch {
    return undefined
  }
}

/** The valid patterns of the allow list (invalid ones are reported by `validateConfig`). */
function compiledPatterns(sources: readonly string[] | undefined): OriginPattern[] {
  const out: OriginPattern[] = []
  for (const source of sources ?? []) {
    const pattern = typeof source === "string" ? compileOriginPattern(source) : undefined
    if (pattern && typeof pattern !== "string") out.push(pattern)
  }
  return out
}

/** Each capability's own option, resolved by its declaration (its problems are `validateConfig`'s). */
function capabilityOptions(config: AuthConfig, registry: Registry): ResolvedCapabilityOptions {
  const raw = config as unknown as Readonly<Record<string, unknown>>
  const resolved: Record<string, unknown> = {}
  // `never`: each declaration takes its own key's type; the key is the one it declared.
  for (const option of registry.options) resolved[option.key] = option.resolve(raw[option.key] as never, config)
  return resolved as unknown as ResolvedCapabilityOptions
}

function buildConfig(config: AuthConfig, registry: Registry): ResolvedConfig {
  const logger = createLogger(config.logger, config.debug)
  const session = sessionOptions(config)
  const secrets = config.secret === undefined ? [] : [config.secret].flat().filter((s) => typeof s === "string" && s !== "")
  const providers = Object.freeze(config.providers.map(normalizeProvider))
  const providerById = new Map(providers.map((p) => [p.id, p]))
  const cookieSets = new Map<boolean, CookiesOptions>()
  const rateLimits = registry.rateLimits
  const resolved: ResolvedConfig = {
    ...capabilityOptions(config, registry),
    basePath: normalizeBasePath(config.basePath),
    appUrl: appUrlOf(config.url),
    secret: Object.freeze(secrets),
    session,
    jwt: Object.freeze({ maxAge: config.jwt?.maxAge ?? session.maxAge, encode: config.jwt?.encode ?? encode, decode: config.jwt?.decode ?? decode }),
    callbacks: callbackOptions(config),
    hasJwtCallback: typeof config.callbacks?.jwt === "function",
    hasSessionCallback: typeof config.callbacks?.session === "function",
    hasSignInCallback: typeof config.callbacks?.signIn === "function",
    events: Object.freeze({ ...(config.events ?? {}) }),
    logger,
    pages: Object.freeze({ ...(config.pages ?? {}) }),
    theme: Object.freeze({ colorScheme: "auto", ...(config.theme ?? {}) }),
    providers,
    providerById,
    adapter: config.adapter ? wrapAdapter(config.adapter, logger, registry.portMethods) : undefined,
    skipCSRFCheck: config.skipCSRFCheck === skipCSRFCheck,
    raw: config.raw === raw,
    trustHost: config.trustHost === true,
    useSecureCookies: config.useSecureCookies,
    redirectProxyUrl: config.redirectProxyUrl,
    redirectProxyAllowedOrigins: Object.freeze(compiledPatterns(config.redirectProxyAllowedOrigins)),
    experimental: Object.freeze({ enableWebAuthn: config.experimental?.enableWebAuthn === true }),
    // Checked by `validateConfig`: a broken option leaves the limits on their defaults meanwhile.
    rateLimit: resolveRateLimit(rateLimitProblems(config.rateLimit, rateLimits).length ? undefined : config.rateLimit, rateLimits, config.rateLimit),
    cookies(secure) {
      let set = cookieSets.get(secure)
      if (!set) cookieSets.set(secure, (set = resolveCookies(secure, config.cookies)))
      return set
    },
    registry,
    error: undefined,
  }
  const error = validateConfig(config, resolved)
  if (error) logError(logger, error)
  return Object.freeze({ ...resolved, cookies: resolved.cookies, error })
}
