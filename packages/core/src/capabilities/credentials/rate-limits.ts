/**
 * The rate limits of credentials sign-in: the `rateLimit.credentials` option and its groups (added to
 * `RateLimitOptions` and `RateLimitGroup` by declaration merging), their default rules, which the
 * capability declares (`Capability.rateLimits`), and the settings the limiter reads from them.
 */
import { Configuration } from "../../kernel/errors/errors.js"
import type { RateLimitRule, RateLimitRules, ResolvedRateLimit, ResolvedRule } from "../../kernel/types/rate-limit.js"
import type { ResolvedConfig } from "../../kernel/types/resolved-config.js"

/** `rateLimit.credentials`. */
export interface CredentialsRateLimitOptions {
  /**
   * Attempts per identifier (the submitted user name or e-mail, NFKC and lower-cased) and client
   * network (IPv4 /24, IPv6 /64), counted before `authorize` runs; a successful sign-in clears
   * that network's count. Across all networks an identifier gets twice each limit, so one
   * network cannot use up the others' allowance and guessing from many stays bounded. A browser
   * holding a device mark for the identifier (set by a successful sign-in) counts on its own.
   * Default 5 per minute and 20 per hour: a growing wait, never longer than an hour.
   */
  perIdentifier?: RateLimitRules
  /** Failed attempts per client, across identifiers. Default 30 per 10 minutes. */
  perClient?: RateLimitRules
  /**
   * Picks the identifier from the submitted credentials (answer a string it holds; anything else
   * counts the attempt under the client's key). Default: the provider's declared credential
   * field named `email`, `username`, `identifier`, `login` or `user` (the first declared), else
   * its first declared field that is not `type: "password"`; a provider that declares none
   * counts the first of those five names present, and refuses a body where they disagree.
   */
  identifier?: (credentials: Readonly<Record<string, unknown>>) => string | undefined
}

declare module "../../kernel/types/rate-limit.js" {
  interface RateLimitOptions {
    credentials?: CredentialsRateLimitOptions
  }
  interface CapabilityRateLimitGroups {
    "credentials.perIdentifier": true
    "credentials.perClient": true
  }
}

/** The default rules of the capability's groups. */
export const CREDENTIALS_RATE_LIMITS: { readonly "credentials.perIdentifier": readonly RateLimitRule[]; readonly "credentials.perClient": readonly RateLimitRule[] } = {
  "credentials.perIdentifier": [{ limit: 5, window: 60 }, { limit: 20, window: 3600 }],
  "credentials.perClient": [{ limit: 30, window: 600 }],
}

/** A `rateLimit.credentials.identifier` that is not a function (checked at start-up). */
export function identifierOptionProblem(config: ResolvedConfig): Configuration | undefined {
  const identifier = config.rateLimit?.options.credentials?.identifier
  return identifier !== undefined && typeof identifier !== "function"
    ? new Configuration('"rateLimit.credentials.identifier" must be a function', { code: "RATE_LIMIT_INVALID" })
    : undefined
}

/** The app's identifier picker (`rateLimit.credentials.identifier`), if any. */
export const identifierPicker = (limits: ResolvedRateLimit) => limits.options.credentials?.identifier

const totals = new WeakMap<ResolvedRateLimit, readonly ResolvedRule[]>()

/** `credentials.perIdentifier` across networks: each rule at twice its limit (prefix `...:total:`), made once per resolved limits. */
export function identifierTotals(limits: ResolvedRateLimit): readonly ResolvedRule[] {
  let rules = totals.get(limits)
  if (!rules) totals.set(limits, (rules = Object.freeze(limits.rules["credentials.perIdentifier"].map((r) => Object.freeze({ limit: r.limit * 2, windowMs: r.windowMs, prefix: `${r.prefix}total:` })))))
  return rules
}
