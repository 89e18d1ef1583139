/**
 * The rate limit of OAuth/OIDC sign-in: the `rateLimit.oauth` option and its group (added to
 * `RateLimitOptions` and `RateLimitGroup` by declaration merging), with its default rule, which the
 * capability declares (`Capability.rateLimits`); the kernel counts it on the sign-in type's start
 * and callback (`SignInTypeDeclaration.limits`).
 */
import type { RateLimitRule, RateLimitRules } from "../../kernel/types/rate-limit.js"

/** `rateLimit.oauth`. */
export interface OAuthRateLimitOptions {
  /** OAuth/OIDC sign-in starts and callbacks per client. Default 60 per minute. */
  perClient?: RateLimitRules
}

declare module "../../kernel/types/rate-limit.js" {
  interface RateLimitOptions {
    /** OAuth/OIDC sign-in starts and callbacks per client. Default 60 per minute. */
    oauth?: OAuthRateLimitOptions
  }
  interface CapabilityRateLimitGroups {
    "oauth.perClient": true
  }
}

/** The default rule of the capability's group. */
export const OAUTH_RATE_LIMITS: { readonly "oauth.perClient": readonly RateLimitRule[] } = {
  "oauth.perClient": [{ limit: 60, window: 60 }],
}
