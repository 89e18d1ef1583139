/**
 * The rate limit of enterprise SSO: the `rateLimit.sso` option and its group (added to
 * `RateLimitOptions` and `RateLimitGroup` by declaration merging), with its default rule, which the
 * capability declares (`Capability.rateLimits`). Counted on the sign-in start (each writes a
 * request record) and on the ACS and OIDC callback (each verifies signatures over a body of up to
 * `sso.maxResponseBytes`).
 */
import type { RateLimitRule, RateLimitRules } from "../../kernel/types/rate-limit.js"

/** `rateLimit.sso`. */
export interface SsoRateLimitOptions {
  /** SSO sign-in starts, ACS posts and OIDC callbacks per client. Default 60 per minute. */
  perClient?: RateLimitRules
}

declare module "../../kernel/types/rate-limit.js" {
  interface RateLimitOptions {
    /** SSO sign-in starts, ACS posts and OIDC callbacks per client. Default 60 per minute. */
    sso?: SsoRateLimitOptions
  }
  interface CapabilityRateLimitGroups {
    "sso.perClient": true
  }
}

/** The default rule of the capability's group. */
export const SSO_RATE_LIMITS: { readonly "sso.perClient": readonly RateLimitRule[] } = {
  "sso.perClient": [{ limit: 60, window: 60 }],
}
