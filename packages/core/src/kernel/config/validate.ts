/**
 * Start-up checks of a configuration. Collects every fatal problem, each with the option or env
 * variable that fixes it, so one start shows them all (every request then answers
 * `Configuration`); prints warnings through the logger. Each message is printed once per process,
 * even when a binding builds a fresh config object per request.
 */
import { warnOnce } from "../logger.js"
import { rateLimitProblems } from "../rate-limit/options.js"
import {
  AuthError,
  Configuration,
  DuplicateProviderId,
  ExperimentalFeatureNotEnabled,
  MissingAdapter,
  MissingAuthorize,
  MissingSecret,
  UntrustedHost,
} from "../errors/errors.js"
import type { AuthConfig } from "../types/config.js"
import { VERIFICATION_METHODS, WEBAUTHN_METHODS } from "./adapter.js"
import { missingError, missingMethods, PORTS } from "./ports.js"
import { sessionStrategy } from "../sessions/strategy.js"
import type { ResolvedConfig } from "./types.js"
import { hasFlow } from "../sign-in/flows.js"
import { envStem } from "./env.js"
import { compileOriginPattern } from "../security/origin-patterns.js"
import { relyingPartyProblem, staticRelyingParty } from "../../capabilities/webauthn/index.js"
import type { WebAuthnConfig, WebAuthnRelyingParty } from "../providers/types.js"

type Provider = ResolvedConfig["providers"][number]

function checkProvider(resolved: ResolvedConfig, p: Provider): AuthError | undefined {
  if (p.type === "credentials" && typeof (p as { authorize?: unknown }).authorize !== "function")
    return new MissingAuthorize(`Credentials provider "${p.id}" has no "authorize" function`, { code: "AUTHORIZE_MISSING", cause: { provider: p.id } })
  if (p.type === "webauthn" && !resolved.experimental.enableWebAuthn)
    return new ExperimentalFeatureNotEnabled(`Provider "${p.id}" needs "experimental.enableWebAuthn: true"`, { code: "WEBAUTHN_NOT_ENABLED", cause: { provider: p.id } })
  if (p.type === "webauthn") return checkWebAuthnProvider(resolved, p as WebAuthnConfig)
  if (p.type === "email") return checkEmailProvider(resolved, p)
  if (p.type === "oauth" || p.type === "oidc") return checkOAuthProvider(p)
  return undefined
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

/** Without a client id the provider fails only when a user clicks it: say so at start-up. */
function checkOAuthProvider(p: Provider): AuthError | undefined {
  const { clientId } = p as { clientId?: unknown }
  if (typeof clientId === "string" && clientId !== "") return undefined
  return new Configuration(`Provider "${p.id}" has no "clientId": set AUTH_${envStem(p.id)}_ID (and AUTH_${envStem(p.id)}_SECRET), or pass clientId to the provider`, {
    code: "CLIENT_ID_MISSING",
    cause: { provider: p.id },
  })
}

/** An e-mail provider needs an adapter that can store tokens and users, a sender, and a sane link lifetime. */
function checkEmailProvider(resolved: ResolvedConfig, p: Provider): AuthError | undefined {
  const missing = missingMethods(resolved.adapter, VERIFICATION_METHODS)
  if (missing.length) return missingError(missing, { what: `E-mail provider "${p.id}"`, facts: { provider: p.id } })
  const { sendVerificationRequest, maxAge } = p as { sendVerificationRequest?: unknown; maxAge?: unknown }
  if (typeof sendVerificationRequest !== "function")
    return new Configuration(`E-mail provider "${p.id}" has no "sendVerificationRequest" function`, { code: "EMAIL_SENDER_MISSING", cause: { provider: p.id } })
  if (maxAge !== undefined && !(typeof maxAge === "number" && Number.isFinite(maxAge) && maxAge > 0))
    return new Configuration(`E-mail provider "${p.id}": "maxAge" must be a positive number of seconds`, { code: "EMAIL_MAX_AGE_INVALID", cause: { provider: p.id } })
  return undefined
}

/**
 * A passkey provider needs an adapter with the authenticator methods, its WebAuthn library, and a
 * relying party from configuration (never from request headers): `url`, or `relyingParty`, or a
 * `getRelyingParty` hook (checked per request).
 */
function checkWebAuthnProvider(resolved: ResolvedConfig, p: WebAuthnConfig): AuthError | undefined {
  const missing = missingMethods(resolved.adapter, WEBAUTHN_METHODS)
  if (missing.length) return missingError(missing, { what: `Passkey provider "${p.id}"`, facts: { provider: p.id } })
  if (typeof p.simpleWebAuthn !== "function")
    return new Configuration(`Passkey provider "${p.id}" has no "simpleWebAuthn" loader: build it with Passkey() from @authlib/providers/passkey`, { code: "WEBAUTHN_MODULE_MISSING", cause: { provider: p.id } })
  if (p.getRelyingParty) return undefined
  const rp = staticRelyingParty(p, resolved.appUrl)
  if (rp.id === undefined || rp.origin === undefined)
    return new Configuration(`Passkey provider "${p.id}" needs "url" (WEBAUTH_URL) or relyingParty.id and relyingParty.origin: the relying party is never taken from request headers`, { code: "RP_ID_INVALID", cause: { provider: p.id } })
  return relyingPartyProblem(p, rp as WebAuthnRelyingParty)
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

function checkBasics(config: AuthConfig, resolved: ResolvedConfig): AuthError[] {
  const problems: AuthError[] = []
  if (resolved.secret.length === 0)
    problems.push(new MissingSecret('"secret" is missing: set AUTH_SECRET (32 random bytes or more, e.g. `openssl rand -base64 33`) or "secret" in the config', { code: "SECRET_MISSING" }))
  if (!resolved.trustHost)
    problems.push(new UntrustedHost('"trustHost" must be true (set AUTH_TRUST_HOST=true or WEBAUTH_URL) where the platform sets the Host header safely', { code: "TRUST_HOST_FALSE" }))
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
  for (const problem of rateLimitProblems(config.rateLimit)) problems.push(new Configuration(problem, { code: "RATE_LIMIT_INVALID" }))
  if (config.url !== undefined && !resolved.appUrl)
    problems.push(new Configuration(`"url" (WEBAUTH_URL) is not a valid URL: ${config.url}`, { code: "APP_URL_INVALID" }))
  return problems
}

/** The proxy URLs in use: the config's and any provider's own. */
function proxyUrls(resolved: ResolvedConfig): string[] {
  const urls = new Set<string>()
  if (resolved.redirectProxyUrl) urls.add(resolved.redirectProxyUrl)
  for (const p of resolved.providers) {
    const own = (p as { redirectProxyUrl?: unknown }).redirectProxyUrl
    if ((p.type === "oauth" || p.type === "oidc") && typeof own === "string" && own !== "") urls.add(own)
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
  if (resolved.experimental.enableWebAuthn)
    warnOnce(logger, "experimental-webauthn", "WebAuthn is an experimental feature. It may change or be removed without notice. Do not use it in production.")
  if (resolved.secret.some((s) => s.length < 32)) warnOnce(logger, "weak-secret", "a secret is shorter than 32 characters; use 32 random bytes or more")
  if (resolved.skipCSRFCheck) warnOnce(logger, "csrf-disabled", "skipCSRFCheck is set: CSRF protection is off; only a binding that protects every POST itself may set it")
  const csrf = resolved.cookies(true).csrfToken
  if (csrf.name.startsWith("__Host-") && (csrf.options.domain || (csrf.options.path ?? "/") !== "/"))
    warnOnce(logger, "csrf-cookie-host-prefix", `the CSRF cookie "${csrf.name}" cannot carry Domain or a Path other than "/" (browsers drop such __Host- cookies): rename it or drop those options`)
  for (const p of resolved.providers)
    if (!hasFlow(p.type)) warnOnce(logger, "flow-unavailable", `provider "${p.id}" has type "${p.type}", which this version of @authlib/core cannot sign in with yet`)
}

/** Every fatal problem of the configuration, after printing its warnings. */
export function configProblems(config: AuthConfig, resolved: ResolvedConfig): AuthError[] {
  warnings(config, resolved)
  const problems = [...checkBasics(config, resolved), ...checkRedirectProxy(config, resolved), ...checkProviders(resolved)]
  for (const problem of [checkCookieNames(resolved), checkSessions(resolved)]) if (problem) problems.push(problem)
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
