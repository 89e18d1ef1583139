/**
 * Start-up checks of a configuration. Returns the first fatal problem (every request then answers
 * `Configuration`); prints warnings through the logger. Each message is printed once per process,
 * even when a binding builds a fresh config object per request.
 */
import type { LoggerInstance } from "@authlib/jwt"
import {
  AuthError,
  Configuration,
  DuplicateProviderId,
  ExperimentalFeatureNotEnabled,
  MissingAdapter,
  MissingAuthorize,
  MissingSecret,
  UntrustedHost,
} from "../errors.js"
import type { AuthConfig } from "../types.js"
import { SESSION_METHODS, VERIFICATION_METHODS, missingMethods } from "./adapter.js"
import type { ResolvedConfig } from "./resolve.js"
import { hasFlow } from "../flows/index.js"

const printed = new Set<string>()

/** Prints `message` at most once per process. */
export function warnOnce(logger: LoggerInstance, code: string, message: string): void {
  const key = `${code}:${message}`
  if (printed.has(key)) return
  printed.add(key)
  logger.warn(code, message)
}

const SIGN_IN_METHODS = ["createUser", "getUserByAccount", "linkAccount"] as const

function checkProviders(resolved: ResolvedConfig): AuthError | undefined {
  const seen = new Set<string>()
  for (const p of resolved.providers) {
    if (seen.has(p.id)) return new DuplicateProviderId(`Two providers share the id "${p.id}"`, { code: "PROVIDER_ID_DUPLICATE", cause: { provider: p.id } })
    seen.add(p.id)
    if (p.type === "credentials" && typeof (p as { authorize?: unknown }).authorize !== "function")
      return new MissingAuthorize(`Credentials provider "${p.id}" has no "authorize" function`, { code: "AUTHORIZE_MISSING", cause: { provider: p.id } })
    if (p.type === "webauthn" && !resolved.experimental.enableWebAuthn)
      return new ExperimentalFeatureNotEnabled(`Provider "${p.id}" needs "experimental.enableWebAuthn: true"`, { code: "WEBAUTHN_NOT_ENABLED", cause: { provider: p.id } })
    const problem = p.type === "email" ? checkEmailProvider(resolved, p) : undefined
    if (problem) return problem
  }
  return undefined
}

/** An e-mail provider needs an adapter that can store tokens and users, a sender, and a sane link lifetime. */
function checkEmailProvider(resolved: ResolvedConfig, p: ResolvedConfig["providers"][number]): AuthError | undefined {
  const missing = missingMethods(resolved.adapter, VERIFICATION_METHODS)
  if (missing.length) return new MissingAdapter(`E-mail provider "${p.id}" needs an adapter with ${missing.join(", ")}`, { code: "ADAPTER_METHODS_MISSING", cause: { provider: p.id, missing } })
  const { sendVerificationRequest, maxAge } = p as { sendVerificationRequest?: unknown; maxAge?: unknown }
  if (typeof sendVerificationRequest !== "function")
    return new Configuration(`E-mail provider "${p.id}" has no "sendVerificationRequest" function`, { code: "EMAIL_SENDER_MISSING", cause: { provider: p.id } })
  if (maxAge !== undefined && !(typeof maxAge === "number" && Number.isFinite(maxAge) && maxAge > 0))
    return new Configuration(`E-mail provider "${p.id}": "maxAge" must be a positive number of seconds`, { code: "EMAIL_MAX_AGE_INVALID", cause: { provider: p.id } })
  return undefined
}

function checkSessions(resolved: ResolvedConfig): AuthError | undefined {
  if (resolved.session.strategy !== "database") return undefined
  if (!resolved.adapter) return new MissingAdapter('session strategy "database" needs an "adapter"', { code: "ADAPTER_MISSING" })
  const missing = missingMethods(resolved.adapter, [...SESSION_METHODS, ...SIGN_IN_METHODS])
  if (missing.length === 0) return undefined
  return new MissingAdapter(`session strategy "database" needs adapter methods: ${missing.join(", ")}`, { code: "ADAPTER_METHODS_MISSING", cause: { missing } })
}

/** RFC 6265 cookie-name (an HTTP token). */
const COOKIE_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/

function checkCookieNames(resolved: ResolvedConfig): AuthError | undefined {
  for (const option of Object.values(resolved.cookies(false)))
    if (!COOKIE_NAME.test(option.name)) return new Configuration(`cookie name ${JSON.stringify(option.name)} is not a valid cookie name`, { code: "COOKIE_NAME_INVALID" })
  return undefined
}

function checkBasics(config: AuthConfig, resolved: ResolvedConfig): AuthError | undefined {
  if (resolved.secret.length === 0) return new MissingSecret('"secret" is missing: set it in the config or in AUTH_SECRET', { code: "SECRET_MISSING" })
  if (!resolved.trustHost) return new UntrustedHost('"trustHost" must be true (set AUTH_TRUST_HOST=true or WEBAUTH_URL) where the platform sets the Host header safely', { code: "TRUST_HOST_FALSE" })
  if (config.url !== undefined && !resolved.appUrl) return new Configuration(`"url" (WEBAUTH_URL) is not a valid URL: ${config.url}`, { code: "APP_URL_INVALID" })
  return undefined
}

function warnings(resolved: ResolvedConfig): void {
  const { logger } = resolved
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

/** Returns the first fatal problem of the configuration, after printing its warnings. */
export function validateConfig(config: AuthConfig, resolved: ResolvedConfig): AuthError | undefined {
  warnings(resolved)
  return checkBasics(config, resolved) ?? checkCookieNames(resolved) ?? checkProviders(resolved) ?? checkSessions(resolved)
}
