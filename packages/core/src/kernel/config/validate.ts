/**
 * Start-up checks of a configuration. Collects every fatal problem, each with the option or env
 * variable that fixes it, so one start shows them all (every request then answers
 * `Configuration`); prints warnings through the logger. Each message is printed once per process,
 * even when a binding builds a fresh config object per request.
 */
import { warnOnce } from "../errors/logger.js"
import { envReadingOf } from "./env.js"
import { rateLimitProblems } from "../rate-limit/options.js"
import {
  AuthError,
  Configuration,
  DuplicateProviderId,
  MissingAdapter,
  MissingSecret,
  UntrustedHost,
} from "../errors/errors.js"
import type { AuthConfig } from "../types/config.js"
import { missingError, missingMethods, PORTS } from "../ports/ports.js"
import { sessionStrategy } from "../sessions/strategy.js"
import type { ResolvedConfig } from "../types/resolved-config.js"
import { compileOriginPattern } from "../security/origin-patterns.js"

type Provider = ResolvedConfig["providers"][number]

/** A provider's own start-up check, declared by the capability that signs in with its type. */
function checkProvider(resolved: ResolvedConfig, p: Provider): AuthError | undefined {
  return resolved.registry.signInType(p.type)?.check?.(p, resolved)
}

function checkProviders(resolved: ResolvedConfig): AuthError[] {
  const seen = new Set<string>()
  const problems: AuthError[] = []
  for (const p of resolved.providers) {
    if (seen.has(p.id)) problems.push(new DuplicateProviderId(`Two providers share the id "${p.id}": give one of them another "id"`, { code: "PROVIDER_ID_DUPLICATE", cause: { provider: p.id } }))
    seen.add(p.id)
    const problem = checkProvider(resolved, p)
    if (problem) problems.push(problem)
  }
  return problems
}

function checkSessions(resolved: ResolvedConfig): AuthError | undefined {
  const needed = sessionStrategy(resolved).adapterMethods
  if (needed.length === 0) return undefined
  const name = resolved.session.strategy
  if (!resolved.adapter) return new MissingAdapter(`session strategy "${name}" needs an "adapter" (or set session.strategy to "jwt")`, { code: "ADAPTER_MISSING" })
  const missing = missingMethods(resolved.adapter, needed)
  if (missing.length === 0) return undefined
  return missingError(missing, `session strategy "${name}"`)
}

/** RFC 6265 cookie-name (an HTTP token). */
const COOKIE_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/

function checkCookieNames(resolved: ResolvedConfig): AuthError | undefined {
  for (const option of Object.values(resolved.cookies(false)))
    if (!COOKIE_NAME.test(option.name)) return new Configuration(`cookie name ${JSON.stringify(option.name)} is not a valid cookie name: fix it in "cookies"`, { code: "COOKIE_NAME_INVALID" })
  return undefined
}

/**
 * `session.absoluteMaxAge`: a whole number of seconds above 0. Database sessions count it from the
 * stored session's `createdAt`, which only an adapter that keeps session metadata stores: without
 * one the cap could not be kept, and an app must not believe it has it.
 */
function absoluteMaxAgeProblems(resolved: ResolvedConfig): AuthError[] {
  const { absoluteMaxAge } = resolved.session
  if (absoluteMaxAge === undefined) return []
  if (!Number.isSafeInteger(absoluteMaxAge) || absoluteMaxAge <= 0)
    return [new Configuration(`"session.absoluteMaxAge" must be a whole number of seconds above 0, not ${typeof absoluteMaxAge === "number" ? String(absoluteMaxAge) : JSON.stringify(absoluteMaxAge)}`, { code: "SESSION_OPTION_INVALID" })]
  const noMetadata = missingMethods(resolved.adapter, PORTS.sessionListing)
  if (sessionStrategy(resolved).storesSessions && resolved.adapter && noMetadata.length > 0)
    return [
      new Configuration(
        `"session.absoluteMaxAge" counts database sessions from their sign-in, which the adapter does not store (it keeps no session metadata: ${noMetadata.join(", ")} missing): use an adapter that keeps it, or JWT sessions`,
        { code: "SESSION_OPTION_INVALID", cause: { missing: noMetadata } },
      ),
    ]
  return []
}

/** Why an environment variable did not reach a config that `setEnvDefaults` never completed. */
const NOT_FROM_ENV =
  "and was not completed from the environment: core reads AUTH_SECRET, AUTH_TRUST_HOST, WEBAUTH_URL and the other variables only through setEnvDefaults(env, config). " +
  "Pass the value in the config, call setEnvDefaults on it, or on a Node server use the functions of @authlib/core/node (toNodeHandler, getSession and every server function), which complete it from the environment"

function checkBasics(config: AuthConfig, resolved: ResolvedConfig): AuthError[] {
  const problems: AuthError[] = []
  // Core reads no environment itself: a variable reaches the config only through `setEnvDefaults`.
  // Telling an app whose config never went through it to "set AUTH_SECRET" would claim a variable
  // it may well have set is unset; it is told what was not read, and how to have it read.
  const fromEnv = envReadingOf(config) !== undefined
  if (resolved.secret.length === 0)
    problems.push(new MissingSecret(fromEnv ? '"secret" is missing: set AUTH_SECRET (32 random bytes or more, e.g. `openssl rand -base64 33`) or "secret" in the config' : `"secret" is missing: the config has no "secret" ${NOT_FROM_ENV}`, { code: "SECRET_MISSING" }))
  if (!resolved.trustHost)
    problems.push(new UntrustedHost(fromEnv ? '"trustHost" must be true (set AUTH_TRUST_HOST=true or WEBAUTH_URL) where the platform sets the Host header safely' : `"trustHost" must be true where the platform sets the Host header safely: the config has neither "trustHost" nor "url" ${NOT_FROM_ENV}`, { code: "TRUST_HOST_FALSE" }))
  const { checkRevocation } = resolved.session
  if (checkRevocation !== "on-reissue" && checkRevocation !== "every-request")
    problems.push(new Configuration(`"session.checkRevocation" must be "on-reissue" or "every-request", not ${JSON.stringify(checkRevocation)}`, { code: "SESSION_OPTION_INVALID" }))
  const noEpochs = missingMethods(resolved.adapter, PORTS.sessionEpochs)
  // Said at start-up: otherwise every read would skip a check the app believes it has.
  if (checkRevocation === "every-request" && !sessionStrategy(resolved).storesSessions && noEpochs.length > 0)
    problems.push(
      new Configuration(
        `"session.checkRevocation": "every-request" checks each JWT session against its user's session epoch, but the adapter keeps no epochs (${noEpochs.join(", ")} missing): use an adapter that keeps them, or leave "on-reissue"`,
        { code: "SESSION_OPTION_INVALID", cause: { missing: noEpochs } },
      ),
    )
  problems.push(...absoluteMaxAgeProblems(resolved))
  for (const problem of rateLimitProblems(config.rateLimit, resolved.registry.rateLimits)) problems.push(new Configuration(problem, { code: "RATE_LIMIT_INVALID" }))
  if (config.url !== undefined && !resolved.appUrl)
    problems.push(new Configuration(`"url" (WEBAUTH_URL) is not a valid URL: ${config.url}`, { code: "APP_URL_INVALID" }))
  return problems
}

/** The problems of the capabilities' own options, each declaration checking its key. */
function optionProblems(config: AuthConfig, resolved: ResolvedConfig): AuthError[] {
  const raw = config as unknown as Readonly<Record<string, unknown>>
  return resolved.registry.options.flatMap((option) => option.problems?.(raw[option.key] as never, config) ?? [])
}

/** The proxy URLs in use: the config's and any provider's own. */
function proxyUrls(resolved: ResolvedConfig): string[] {
  const urls = new Set<string>()
  if (resolved.redirectProxyUrl) urls.add(resolved.redirectProxyUrl)
  for (const p of resolved.providers) {
    const own = resolved.registry.signInType(p.type)?.redirectProxyUrl?.(p)
    if (typeof own === "string" && own !== "") urls.add(own)
  }
  return [...urls]
}

/**
 * A deployment that starts sign-ins through a redirect proxy seals its own callback URL into the
 * OAuth `state`. Taken from request headers, a forged `X-Forwarded-Host` would name the attacker's
 * site, and the proxy would forward the victim's authorization code there: so `url` is required.
 */
function checkRedirectProxy(config: AuthConfig, resolved: ResolvedConfig): AuthError[] {
  const problems: AuthError[] = []
  const urls = proxyUrls(resolved)
  for (const url of urls)
    if (!URL.canParse(url)) problems.push(new Configuration(`"redirectProxyUrl" (AUTH_REDIRECT_PROXY_URL) is not a valid URL: ${url}`, { code: "REDIRECT_PROXY_URL_INVALID" }))
  if (urls.length && !resolved.appUrl && config.url === undefined)
    problems.push(new Configuration('"redirectProxyUrl" (AUTH_REDIRECT_PROXY_URL) needs "url" (WEBAUTH_URL) set to this deployment\'s own URL: it is never taken from request headers', { code: "REDIRECT_PROXY_NEEDS_APP_URL" }))
  for (const source of config.redirectProxyAllowedOrigins ?? []) {
    const compiled = typeof source === "string" ? compileOriginPattern(source) : `${String(source)} is not a string`
    if (typeof compiled === "string")
      problems.push(new Configuration(`"redirectProxyAllowedOrigins" (AUTH_REDIRECT_PROXY_ALLOWED_ORIGINS): ${compiled}`, { code: "REDIRECT_PROXY_ORIGIN_INVALID" }))
  }
  return problems
}

/** Production as far as core can tell: NODE_ENV (where a `process` exists), or an https app URL. */
function looksLikeProduction(resolved: ResolvedConfig): boolean {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env
  return env?.NODE_ENV === "production" || resolved.appUrl?.protocol === "https:"
}

function warnings(config: AuthConfig, resolved: ResolvedConfig): void {
  const { logger } = resolved
  if (config.rateLimit === false && looksLikeProduction(resolved))
    warnOnce(logger, "rate-limit-off", '"rateLimit: false": sign-in attempts and e-mails are not limited; remove it (or set your own limits) in production')
  for (const capability of resolved.registry.capabilities) for (const { key, message } of capability.warnings?.(resolved) ?? []) warnOnce(logger, key, message)
  if (envReadingOf(config)?.authUrlIgnored)
    warnOnce(logger, "auth-url-ignored", "AUTH_URL is set but WEBAUTH_URL is not: authlib reads only WEBAUTH_URL (what Auth.js calls AUTH_URL), so AUTH_URL is ignored; rename it to WEBAUTH_URL")
  if (resolved.secret.some((s) => s.length < 32)) warnOnce(logger, "weak-secret", "a secret is shorter than 32 characters; use 32 random bytes or more")
  if (resolved.skipCSRFCheck) warnOnce(logger, "csrf-disabled", "skipCSRFCheck is set: CSRF protection is off; only a binding that protects every POST itself may set it")
  const csrf = resolved.cookies(true).csrfToken
  if (csrf.name.startsWith("__Host-") && (csrf.options.domain || (csrf.options.path ?? "/") !== "/"))
    warnOnce(logger, "csrf-cookie-host-prefix", `the CSRF cookie "${csrf.name}" cannot carry Domain or a Path other than "/" (browsers drop such __Host- cookies): rename it or drop those options`)
  for (const p of resolved.providers)
    if (!resolved.registry.signInType(p.type)) warnOnce(logger, "flow-unavailable", `provider "${p.id}" has type "${p.type}", which this version of @authlib/core cannot sign in with yet`)
}

/** Every fatal problem of the configuration, after printing its warnings. */
export function configProblems(config: AuthConfig, resolved: ResolvedConfig): AuthError[] {
  warnings(config, resolved)
  const problems = [...checkBasics(config, resolved), ...optionProblems(config, resolved), ...checkRedirectProxy(config, resolved), ...checkProviders(resolved)]
  for (const problem of [checkCookieNames(resolved), checkSessions(resolved)]) if (problem) problems.push(problem)
  for (const capability of resolved.registry.capabilities) {
    const problem = capability.check?.(resolved)
    if (problem) problems.push(problem)
  }
  return problems
}

/**
 * The configuration's fatal error: the one problem itself, or, when there are several, one
 * `Configuration` (code `CONFIG_INVALID`) listing them all, each in `cause.problems`.
 */
export function validateConfig(config: AuthConfig, resolved: ResolvedConfig): AuthError | undefined {
  const problems = configProblems(config, resolved)
  if (problems.length <= 1) return problems[0]
  const list = problems.map((p) => `  - ${p.type} (${p.code}): ${p.message}`).join("\n")
  return new Configuration(`The configuration has ${problems.length} problems:\n${list}`, { code: "CONFIG_INVALID", cause: { problems } })
}
