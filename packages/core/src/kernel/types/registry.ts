/**
 * `Registry`: every capability's declarations merged into look-up tables (`registry/assemble.ts`
 * builds it), and `ResolvedConfig.registry`, the one a config runs with. A type-only module, so
 * every layer can name it without importing the assembler.
 */
import type { ErrorCodes } from "../errors/codes.js"
import type { ErrorPolicy } from "../errors/policy.js"
import type { ProviderType } from "./model.js"
import type { RateLimitGroup, RateLimitRule } from "./rate-limit.js"
import type { ResolvedConfig } from "./resolved-config.js"
import type {
  AnyOptionsDeclaration, BeforeIssueHook, Capability, ErrorText, FootholdHook, FreshnessHook, HeldSignInHook, RouteDeclaration, SessionFieldsHook, SignInTypeDeclaration, SignOutHook,
} from "./capability.js"

/** The merged declarations. */
export interface Registry {
  readonly capabilities: readonly Capability[]
  /** Every action under `basePath`. */
  readonly actions: ReadonlySet<string>
  route(action: string): RouteDeclaration | undefined
  /** The methods an action accepts (for `Allow` and 405). */
  methods(action: string): readonly ("GET" | "POST")[]
  /** The sub-actions (the body's `action` values) a method of an action declares; empty for a plain handler. */
  actionsOf(action: string, method: "GET" | "POST"): readonly string[]
  /** The sign-in type of providers of `type` (its flow and rules). */
  signInType(type: ProviderType): SignInTypeDeclaration | undefined
  /** The action of the route that is the built-in page `key` of `pages` (a capability's page). */
  page(key: string): string | undefined
  readonly signOutRedirects: readonly SignOutHook[]
  readonly beforeIssue: readonly BeforeIssueHook[]
  readonly heldSignIn: readonly HeldSignInHook[]
  /** Sign-in body fields that belong to a capability (`BeforeIssueHook.bodyFields`), not to the app. */
  readonly bodyFields: ReadonlySet<string>
  readonly freshness: readonly FreshnessHook[]
  /** What capabilities add to the session answer (`sessionFields`). */
  readonly sessionFields: readonly SessionFieldsHook[]
  /** What the pre-hijacking clean-up asks each capability to remove (`removeFootholds`). */
  readonly footholds: readonly FootholdHook[]
  /** Whether a first factor that proves two factors in one step counts as two (yes unless a capability says no). */
  oneStepMultiFactor(config: ResolvedConfig): boolean
  /** Seconds a session's second factor counts after it was verified, the strictest capability's; null when none limits it. */
  secondFactorLifetime(config: ResolvedConfig): number | null
  /** The capabilities' own options, resolved with the config. */
  readonly options: readonly AnyOptionsDeclaration[]
  /** Every rate-limit group with its default rules: the kernel's, then the capabilities'. */
  readonly rateLimits: Readonly<Record<RateLimitGroup, readonly RateLimitRule[]>>
  /** Every error type with its codes: the kernel's catalogue, then the capabilities' (`ERROR_CODES`). */
  readonly errorCodes: ErrorCodes
  /** What the built-in pages say about a capability's error type (`ErrorDeclaration.text`), if it says. */
  errorText(type: string): ErrorText | undefined
  /** What `type` does in an answer (an empty policy for types without a row). */
  policyOf(type: string): ErrorPolicy
  /** The ports capabilities declare: name -> methods. */
  readonly ports: Readonly<Record<string, readonly string[]>>
  /** Every method of those ports (what `wrapAdapter` wraps besides the kernel's). */
  readonly portMethods: readonly string[]
}

// Declared here rather than in `resolved-config.ts`: the registry's routes and hooks take the
// request's context, which holds the config, so naming `Registry` there would close a circle of
// imports (resolved-config -> registry -> capability -> http -> resolved-config).
declare module "./resolved-config.js" {
  interface ResolvedConfig {
    /** The capabilities this config runs with, assembled once (routes, flows, hooks, catalogues). */
    readonly registry: Registry
  }
}
