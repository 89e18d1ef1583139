/**
 * What a capability declares, in one object: its routes (action, methods, how errors answer, CSRF,
 * rate-limit group, page), the sign-in flows it brings, its own option, rate-limit groups, errors
 * and adapter port, and its hooks into configuration checks, sign-in, step-up and sign-out. The
 * kernel reads only these declarations (see `registry/assemble.ts`); it imports no capability. The types of
 * what a capability adds (its option, page, groups, codes, port methods) reach the public types by
 * declaration merging: the capability augments the kernel's empty `Capability*` interfaces.
 */
import type { AuthError, CataloguedType } from "../errors/errors.js"
import type { ErrorPolicy } from "../errors/policy.js"
import type { Adapter, CapabilityPorts } from "./adapters.js"
import type { AuthConfig, CapabilityOptions, CapabilityPages } from "./config.js"
import type { AuthRequest, AuthResponse, Context } from "./http.js"
import type { ResolvedCapabilityOptions, ResolvedConfig } from "./resolved-config.js"
import type { ProviderType } from "./model.js"
import type { RateLimitGroup, RateLimitRule } from "./rate-limit.js"
import type { Flow, PendingSignIn } from "./sign-in.js"

/** A route handler: the parsed request and its context in, the internal response out. */
export type RouteHandler = (req: AuthRequest, ctx: Context) => Promise<AuthResponse>

/** One method of a route. */
export interface RouteMethod {
  readonly handler: RouteHandler
  /**
   * Whether the kernel checks the CSRF token and Origin before the handler runs. Every POST must say
   * `true`, or name in `csrfBy` where its own check lives (a flow whose response another check binds).
   */
  readonly csrf: boolean
  /** Why a POST without the kernel's CSRF check is still safe (required when `csrf` is false on a POST). */
  readonly csrfBy?: string
  /** A per-client rate-limit group the kernel counts before the handler (after the CSRF check). */
  readonly rateLimit?: RateLimitGroup
}

/**
 * How a route answers an error: `json` with `{ error, code? }` and a status; `page` redirects to the
 * error page; `sign-in` is a page route whose form posts come from the sign-in page (a person who
 * submitted one goes back to it on a refusal).
 */
export type RouteAnswers = "json" | "page" | "sign-in"

/** A route under `basePath`: `/{action}` or, with `withProvider`, `/{action}/{providerId}`. */
export interface RouteDeclaration {
  readonly action: string
  readonly answers: RouteAnswers
  readonly withProvider?: boolean
  /** The `pages` key whose built-in page this route is (`routeUrl` sends there unless the app set its own). */
  readonly page?: keyof CapabilityPages
  readonly GET?: RouteMethod
  readonly POST?: RouteMethod
}

/** A sign-in flow with what the kernel asks of it besides its steps. */
export interface FlowDeclaration {
  readonly flow: Flow<any>
  /** Per-client limits the kernel counts on its sign-in start and callback (credentials and e-mail count inside their flows). */
  readonly limits?: { readonly signin?: RateLimitGroup; readonly callback?: RateLimitGroup }
  /** A fatal configuration problem of one of its providers, checked once at start-up. */
  check?(provider: ResolvedConfig["providers"][number], config: ResolvedConfig): AuthError | undefined
}

/** What happens at sign-out besides ending the session (read before it ends). */
export type SignOutHook = (req: AuthRequest, ctx: Context, callbackUrl: string) => Promise<string | undefined>

/**
 * Runs between a first factor and the session, for every way in: an answer holds the sign-in back
 * (no session cookie is set; the answer is sent instead), `undefined` lets it go on.
 */
export interface BeforeIssueHook {
  /** Whether the hook may hold sign-ins under `config` (when none may, a sign-in can take shortcuts that store the session at once). */
  active(config: ResolvedConfig): boolean
  /**
   * Sign-in body fields the hook reads itself (a second factor sent with the first): they are the
   * library's, so a credentials provider's `authorize` never receives them.
   */
  readonly bodyFields?: readonly string[]
  hold(req: AuthRequest, ctx: Context, pending: PendingSignIn): Promise<AuthResponse | undefined>
}

/**
 * A sign-in that a capability holds back (the first factor done, a second factor pending): its
 * random id and its user. Routes of other capabilities that help finish it (passkey options for a
 * second factor) ask for it through the kernel (`sign-in/held.ts`) without importing the holder.
 */
export interface HeldSignIn {
  readonly id: string
  readonly userId: string
}

/** Reads the request's held sign-in, if the capability holds one for it. */
export type HeldSignInHook = (req: AuthRequest, ctx: Context) => Promise<HeldSignIn | undefined>

/**
 * An options declaration as the kernel handles it, whatever its key: its raw value and result are
 * the declaring capability's business (typed in `OptionsDeclaration`).
 */
export interface AnyOptionsDeclaration {
  readonly key: string
  resolve(raw: never, config: AuthConfig): unknown
  problems?(raw: never, config: AuthConfig): AuthError[]
}

/** The keys of the capabilities' options (in both `AuthConfig` and `ResolvedConfig`). */
export type CapabilityOptionKey = keyof CapabilityOptions & keyof ResolvedCapabilityOptions

/**
 * A capability's top-level option `key`: resolved once with the config (the result is
 * `ResolvedConfig[key]`), its fatal problems reported with every other configuration problem.
 */
export type OptionsDeclaration = {
  [K in CapabilityOptionKey]: {
    readonly key: K
    resolve(raw: CapabilityOptions[K], config: AuthConfig): ResolvedCapabilityOptions[K]
    problems?(raw: CapabilityOptions[K], config: AuthConfig): AuthError[]
  }
}[CapabilityOptionKey]

/**
 * An error type a capability brings (its class lives in the capability folder): its codes, in the
 * catalogue (`ERROR_CODES`), and its row of the error policy. Codes for a kernel type (a
 * `Configuration` code of the capability's own) are appended to that type's.
 */
export interface ErrorDeclaration {
  readonly type: CataloguedType
  readonly codes: readonly string[]
  readonly policy?: ErrorPolicy
  /**
   * The type a new type is listed just before in `ERROR_CODES` (default: the first type that sorts
   * after it), so that moving a type into a capability keeps the catalogue's order.
   */
  readonly before?: CataloguedType
}

/** The adapter ports a capability brings: name -> the methods an adapter implements together. */
export type PortsDeclaration = { readonly [N in keyof CapabilityPorts]?: readonly (keyof Adapter)[] }

/**
 * How recently (seconds) a second factor must have been verified for `userId` before a change to
 * the ways they sign in (adding or deleting a passkey, unlinking an account); `null`: no demand.
 */
export type FreshnessHook = (ctx: Context, userId: string) => Promise<number | null>

/**
 * Asked by the account pre-hijacking clean-up (`sign-in/unverified-links.ts`) before an e-mail link
 * marks a never-verified address verified: removes whatever the capability keeps for `userId` that
 * would let someone who came in without that proof keep control (a second factor a squatter
 * enrolled). It runs before the user is marked verified, so an interrupted clean-up is finished by
 * the next link; it must therefore be safe to run again. Resolves what it removed, for the log
 * (`undefined`: nothing).
 */
export type FootholdHook = (ctx: Context, userId: string) => Promise<Record<string, unknown> | undefined>

/** One feature of core. */
export interface Capability {
  readonly name: string
  readonly routes?: readonly RouteDeclaration[]
  readonly flows?: Partial<Record<ProviderType, FlowDeclaration>>
  /** Asked at sign-out, in registry order; the first URL returned is where the browser goes next. */
  readonly signOutRedirect?: SignOutHook
  /** A fatal problem of the capability's own options, checked once at start-up. */
  check?(config: ResolvedConfig): AuthError | undefined
  /** Asked before every session is issued, in registry order; the first answer wins. */
  readonly beforeIssue?: BeforeIssueHook
  /** The sign-in this capability holds back for the request (see `HeldSignIn`). */
  readonly heldSignIn?: HeldSignInHook
  /** Its own top-level option (typed by augmenting `CapabilityOptions` and `ResolvedCapabilityOptions`). */
  readonly options?: OptionsDeclaration
  /** Its rate-limit groups with their default rules (names typed by augmenting `CapabilityRateLimitGroups`). */
  readonly rateLimits?: { readonly [G in RateLimitGroup]?: readonly RateLimitRule[] }
  /** Its error types (classes typed into `AnyAuthError` by augmenting `CapabilityErrors`). */
  readonly errors?: readonly ErrorDeclaration[]
  /** Its adapter ports (methods typed by augmenting `Adapter` and `CapabilityPorts`). */
  readonly ports?: PortsDeclaration
  /** Asked by the pre-hijacking clean-up, in registry order (see `FootholdHook`). */
  readonly removeFootholds?: FootholdHook
  /** Asked by the kernel's step-up gate (`requireFreshSecondFactor`); the strictest answer wins. */
  readonly freshness?: FreshnessHook
  /**
   * Whether a passkey sign-in with user verification counts as two factors (`mfa`) under `config`.
   * The kernel says yes unless a capability answers false.
   */
  passkeyIsMultiFactor?(config: ResolvedConfig): boolean
  /**
   * Seconds a session's second factor (`mfa`) counts after it was verified (the session's
   * `authTime`) under `config`, or null for as long as the session lasts. The kernel asks it in
   * `hasSecondFactor`, the one answer to "does this session have a second factor that counts";
   * the strictest answer wins.
   */
  secondFactorLifetime?(config: ResolvedConfig): number | null
}
