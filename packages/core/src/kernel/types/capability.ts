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
import type { Flow, PendingSignIn, SignInResult, UserPlan } from "./sign-in.js"
import type { ProviderConfig } from "./providers.js"
import type { Account } from "./config.js"
import type { AdapterUser } from "./adapters.js"
import type { SafeHtml } from "./safe-html.js"
import type { StoredProviderTokens } from "./model.js"
import type { HeldSignIn } from "./request-memo.js"
import type { Cookie } from "./http.js"

export type { HeldSignIn } from "./request-memo.js"

/** A route handler: the parsed request and its context in, the internal response out. */
export type RouteHandler = (req: AuthRequest, ctx: Context) => Promise<AuthResponse>

/**
 * The actions of a POST that does several things, by the body's `action` (`rename`, `delete`...):
 * each its handler, and the refusal of any other value (the capability's own error and code).
 * The registry lists them (`Registry.actionsOf`), so the README's route table is checked against them.
 */
export interface SubActions {
  readonly handlers: Readonly<Record<string, RouteHandler>>
  /** The error for any other `action` (it may throw a more pressing one itself: the feature is off). */
  refuse(given: unknown, ctx: Context): AuthError
}

/** One method of a route: a handler, or sub-actions picked by the body's `action`. */
export interface RouteMethod {
  readonly handler?: RouteHandler
  readonly actions?: SubActions
  /**
   * Whether the kernel checks the CSRF token and Origin before the handler runs. Every POST must say
   * `true`, or name in `csrfBy` where its own check lives (a flow whose response another check binds).
   */
  readonly csrf: boolean
  /** Why a POST without the kernel's CSRF check is still safe (required when `csrf` is false on a POST). */
  readonly csrfBy?: string
  /** A per-client rate-limit group the kernel counts before the handler (after the CSRF check). */
  readonly rateLimit?: RateLimitGroup
  /** The largest body the kernel reads for this POST, when above its own 64 KiB (an IdP's SAML Response). */
  readonly maxBodyBytes?: number
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
  /**
   * With `withProvider`: the route also answers `/{action}/{step}/{id}`, handed to it as the
   * provider id `step/id` (a SAML ACS at `{action}/acs/{connectionId}`).
   */
  readonly nested?: boolean
  /** The `pages` key whose built-in page this route is (`routeUrl` sends there unless the app set its own). */
  readonly page?: keyof CapabilityPages
  readonly GET?: RouteMethod
  readonly POST?: RouteMethod
}

/**
 * A first factor as its sign-in type counts it: its RFC 8176 methods (`sign-in/amr.ts`) and how
 * many factors it proved on its own (2: a passkey that verified the person too).
 */
export interface FirstFactor {
  readonly amr: readonly string[]
  readonly factors: 1 | 2
  /**
   * With `factors: 2`: the two count whatever `Capability.oneStepMultiFactor` answers, because the
   * app's own configuration named the party that verified them (an identity provider whose
   * multi-factor claim the configuration requires). Absent: they count as the capabilities say.
   */
  readonly byConfiguration?: boolean
}

/**
 * Who a sign-in type's user is, as the kernel asks when it stores users (`sign-in/link-user.ts`).
 * `Own` is the type's slot of `SignInResult` (`SignInResult.own`).
 */
export interface UserRules<Own = unknown> {
  /**
   * `adapter`: the user is stored whenever there is an adapter (found by account, joined or
   * created). `app`: the app's own code vouches for the user (`authorize`), who is stored only where
   * the session strategy needs a stored user, is the user the `signIn` event receives, and whose
   * returning session may be stored with the owner's look-up in one adapter call.
   */
  readonly owner: "adapter" | "app"
  /**
   * The stored user a new account joins instead of a new one: `signed-in` (the user signed in on
   * this request, linking another way in), `named` (`linkTarget` names it), `none`.
   */
  readonly joins: "signed-in" | "named" | "none"
  /** With `joins: "named"`: the user the flow identified (a passkey's owner, or the signed-in user adding one). */
  linkTarget?(own: Own | undefined): string | undefined
  /**
   * The type's own plan, read only, where the kernel's (owner of the account, the joined user, the
   * user with the address, a new user) does not fit; `undefined` falls back to the kernel's.
   */
  plan?(ctx: Context, result: SignInResult<Own>, linkTo: string | undefined): Promise<UserPlan | undefined>
  /**
   * Whether the account may join `existing`, the stored user with its address (else
   * `OAuthAccountNotLinked` `EMAIL_ALREADY_LINKED`, logged with `facts`); default no.
   */
  joinByEmail?(result: SignInResult<Own>, existing: AdapterUser): { readonly allowed: boolean; readonly facts?: Readonly<Record<string, unknown>> }
  /** The date a new user's address counts as verified from (default null: not verified). */
  verifiedAt?(result: SignInResult<Own>): Date | null
  /** What else is stored when the account is linked to `userId` (a new passkey's authenticator). */
  linked?(ctx: Context, userId: string, own: Own | undefined): Promise<void>
  /**
   * What else a sign-in of this type does once `userId`'s session is issued (a membership the
   * sign-in grants), with the cookies to set besides the session's. Asked only then: never while a
   * capability holds the sign-in back (when the hold ends, `own` is what `keep` kept), nor when the
   * sign-in only adds a way in to the signed-in user's session.
   */
  signedIn?(ctx: Context, userId: string, own: Own | undefined): Promise<Cookie[] | void>
  /**
   * Whether a session of this type's account may stand only while the account is still linked to
   * its user (the user comes from the link alone: an IdP's account), checked as the session is
   * written (`sessions/account-link.ts`).
   */
  readonly fromLinkAlone?: boolean
}

/** The part of the built-in sign-in page one provider gets from its sign-in type. */
export interface SignInPagePart {
  /** Whether the form has fields (its button takes the brand colour; "or" dividers around it). */
  readonly fields: boolean
  /** Whether one of its fields names the user (where passkey autofill can attach). */
  readonly userField: boolean
  /** Whether submitting it hands the browser to another site (the page's form targets cannot be narrowed). */
  readonly leavesSite: boolean
  /** Whether it offers passkey autofill on a user field of the page. */
  readonly offersAutofill?: boolean
  /** The script the page needs for this form. */
  readonly script?: string
  /** The form: `index` is the provider's place on the page (its CSS class), `page` what every form shares. */
  render(index: number, page: SignInPageContext): SafeHtml
}

/** A provider's routes: where its sign-in starts and ends, and the base of every action. */
export interface ProviderUrls {
  readonly signinUrl: string
  readonly callbackUrl: string
  readonly actionBase: string
}

/** What every form of the sign-in page shares. */
export interface SignInPageContext {
  readonly csrfToken: string
  readonly callbackUrl: string
  /** Pre-fills an e-mail field. */
  readonly email?: string
  /** A passkey form offers autofill and the page has a user field: that field's autocomplete says `webauthn`. */
  readonly autofill: boolean
}

/**
 * A sign-in type: its flow, and every rule the kernel would otherwise hard-code for it: the first
 * factor it proves, who its user is, its part of the sign-in page, and its configuration (checks,
 * environment variables). The kernel names no provider type; it asks this declaration.
 */
export interface SignInTypeDeclaration<P extends ProviderConfig = any, Own = any> {
  readonly flow: Flow<P>
  /** Per-client limits the kernel counts on its sign-in start and callback (credentials and e-mail count inside their flows). */
  readonly limits?: { readonly signin?: RateLimitGroup; readonly callback?: RateLimitGroup }
  /** A fatal configuration problem of one of its providers, checked once at start-up. */
  check?(provider: P, config: ResolvedConfig): AuthError | undefined
  /** The first factor a successful sign-in proved (before capabilities weigh it: `Capability.oneStepMultiFactor`). */
  firstFactor(result: SignInResult<Own>): FirstFactor
  readonly users: UserRules<Own>
  /** The `signIn` callback's input besides user, account and profile (the submitted credentials, the e-mail step). */
  signInInput?(own: Own | undefined): { credentials?: Record<string, unknown>; email?: { verificationRequest?: boolean } }
  /** What of `own` a held sign-in keeps (JSON-safe; nothing typed by the user); default nothing. */
  keep?(own: Own | undefined): Own | undefined
  /** The provider's part of the built-in sign-in page (`urls`: its routes under the app's `basePath`). */
  page(provider: P, urls: ProviderUrls): SignInPagePart
  /** The provider completed from environment variables (`setEnvDefaults`; `read` returns undefined for an unset one). */
  fromEnv?(provider: P, read: (name: string) => string | undefined, stem: string): P
  /** The provider's own redirect proxy URL, if it may have one (checked with the config's at start-up). */
  redirectProxyUrl?(provider: P): string | undefined
  /** The provider tokens of an account of this type that a session may keep (`session.providerTokens`). */
  sessionTokens?(account: Account): StoredProviderTokens | undefined
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

/** What the built-in pages say about an error type. */
export interface ErrorText {
  /** HTTP status of the error page. */
  readonly status: number
  /** Heading of the error page. */
  readonly title: string
  /** The sentence shown on the sign-in and error pages. */
  readonly message: string
  /** Label of the error page's link to the sign-in page; "Back to sign in" when not set. */
  readonly link?: string
}

/**
 * An error type a capability brings (its class lives in the capability folder), in one declaration:
 * its codes, in the catalogue (`ERROR_CODES`), its row of the error policy and its page text. Codes for a kernel type (a
 * `Configuration` code of the capability's own) are appended to that type's.
 */
export interface ErrorDeclaration {
  readonly type: CataloguedType
  readonly codes: readonly string[]
  readonly policy?: ErrorPolicy
  /** What the built-in pages say about the type (the error page's status and title, the sentence on the sign-in and error pages). */
  readonly text?: ErrorText
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

/**
 * What a capability adds to the session `GET` and `POST {basePath}/session` answer (after the
 * `session` callback), for a request that has one: its `fields`, merged into the session, and
 * `cookies` to set (a stale cookie of its own cleared). Asked only when the session is not `null`;
 * a hook with nothing to add under the config answers `undefined` at once (not a promise), which
 * costs the read no await.
 */
export type SessionFieldsHook = (req: AuthRequest, ctx: Context) => SessionFields | undefined | Promise<SessionFields | undefined>

/** What a `SessionFieldsHook` adds to the session answer. */
export interface SessionFields {
  readonly fields?: Readonly<Record<string, unknown>>
  readonly cookies?: readonly Cookie[]
}

/** A warning printed once per process (`key`) at start-up. */
export interface StartupWarning {
  readonly key: string
  readonly message: string
}

/** One feature of core. */
export interface Capability {
  readonly name: string
  /**
   * The capabilities it builds on, by name (it imports their public file): assembling a registry
   * without one of them is refused with an error naming both.
   */
  readonly requires?: readonly string[]
  readonly routes?: readonly RouteDeclaration[]
  /** The sign-in types it brings, by provider type. */
  readonly signInTypes?: Partial<Record<ProviderType, SignInTypeDeclaration>>
  /** Asked at sign-out, in registry order; the first URL returned is where the browser goes next. */
  readonly signOutRedirect?: SignOutHook
  /** A fatal problem of the capability's own options, checked once at start-up. */
  check?(config: ResolvedConfig): AuthError | undefined
  /** Start-up warnings (each printed once per process under its `key`), checked with the fatal problems. */
  warnings?(config: ResolvedConfig): readonly StartupWarning[]
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
  /** Asked by the session route for fields of its own, in registry order (see `SessionFieldsHook`). */
  readonly sessionFields?: SessionFieldsHook
  /** Asked by the pre-hijacking clean-up, in registry order (see `FootholdHook`). */
  readonly removeFootholds?: FootholdHook
  /** Asked by the kernel's step-up gate (`requireFreshSecondFactor`); the strictest answer wins. */
  readonly freshness?: FreshnessHook
  /**
   * Whether a first factor that proves two factors in one step (its sign-in type says `factors: 2`:
   * a passkey with user verification) counts as two (`mfa`) under `config`. The kernel says yes
   * unless a capability answers false.
   */
  oneStepMultiFactor?(config: ResolvedConfig): boolean
  /**
   * Seconds a session's second factor (`mfa`) counts after it was verified (the session's
   * `authTime`) under `config`, or null for as long as the session lasts. The kernel asks it in
   * `hasSecondFactor`, the one answer to "does this session have a second factor that counts";
   * the strictest answer wins.
   */
  secondFactorLifetime?(config: ResolvedConfig): number | null
}
