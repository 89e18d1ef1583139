/**
 * `ResolvedConfig`: the configuration as core uses it, every default applied. A type-only module,
 * so every layer can name it without importing the resolver (and what the resolver imports).
 */
import type { JWTOptions, LoggerInstance } from "@authlib/jwt"
import type { Adapter } from "./adapters.js"
import type { AuthError } from "../errors/errors.js"
import type { ProviderConfig } from "./providers.js"
import type { OriginPattern } from "./origin-pattern.js"
import type { ResolvedRateLimit } from "./rate-limit.js"
import type { CallbacksOptions, CookiesOptions, EventCallbacks, PagesOptions, SessionOptions, Theme } from "./config.js"

/**
 * The resolved options of capabilities (see `CapabilityOptions` in `config.ts`): a capability
 * augments this interface with the form its `options.resolve` returns, under the same key.
 */
export interface ResolvedCapabilityOptions {}

/**
 * The configuration as core uses it: every default applied, frozen; capabilities' options included,
 * and the registry it runs with (`registry`, declared in `registry.ts` beside its type).
 */
export interface ResolvedConfig extends ResolvedCapabilityOptions {
  readonly basePath: string
  /** The application URL (`url` / `WEBAUTH_URL`); links use its origin when set. */
  readonly appUrl: URL | undefined
  /** Secrets, newest first: the first encrypts, all decrypt. */
  readonly secret: readonly string[]
  readonly session: Readonly<SessionOptions>
  readonly jwt: Readonly<JWTOptions>
  readonly callbacks: Readonly<CallbacksOptions>
  /** Whether the user supplied a `jwt` callback (a read can skip the identity default). */
  readonly hasJwtCallback: boolean
  /** Whether the user supplied a `session` callback (a read can skip the identity default and its runner). */
  readonly hasSessionCallback: boolean
  /** Whether the user supplied a `signIn` callback (without one, nothing must see the stored user before its session: see `issueSession`). */
  readonly hasSignInCallback: boolean
  readonly events: Readonly<Partial<EventCallbacks>>
  readonly logger: LoggerInstance
  readonly pages: Readonly<Partial<PagesOptions>>
  readonly theme: Readonly<Theme>
  readonly providers: readonly ProviderConfig[]
  readonly providerById: ReadonlyMap<string, ProviderConfig>
  /** The adapter with every method wrapped to throw `AdapterError`. */
  readonly adapter: Adapter | undefined
  readonly skipCSRFCheck: boolean
  readonly raw: boolean
  readonly trustHost: boolean
  readonly useSecureCookies: boolean | undefined
  readonly redirectProxyUrl: string | undefined
  /** Where this deployment, as a redirect proxy, may forward callbacks (compiled patterns). */
  readonly redirectProxyAllowedOrigins: readonly OriginPattern[]
  readonly experimental: Readonly<{ enableWebAuthn: boolean }>
  /** The rate limits, or undefined when `rateLimit: false`. */
  readonly rateLimit: ResolvedRateLimit | undefined
  /** The cookie set for a secure or a plain origin (computed once each). */
  cookies(secure: boolean): CookiesOptions
  /** A fatal misconfiguration: every request answers `Configuration`. */
  readonly error: AuthError | undefined
}
