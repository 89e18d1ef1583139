/**
 * The rate limits of two-factor sign-in: the `rateLimit.twoFactor` option and its groups (added to
 * `RateLimitOptions` and `RateLimitGroup` by declaration merging) and their default rules, which
 * the capability declares (`Capability.rateLimits`).
 */
import type { RateLimitRule, RateLimitRules } from "../../kernel/types/rate-limit.js"

/** `rateLimit.twoFactor`. */
export interface TwoFactorRateLimitOptions {
  perUser?: RateLimitRules
  perSignIn?: RateLimitRules
}

declare module "../../kernel/types/rate-limit.js" {
  interface RateLimitOptions {
    /**
     * Second-factor codes (TOTP or backup) per user, and per pending sign-in. Default 5 per 5 minutes
     * each (a growing wait); a refused code says nothing of the first factor.
     */
    twoFactor?: TwoFactorRateLimitOptions
  }
  interface CapabilityRateLimitGroups {
    "twoFactor.perUser": true
    "twoFactor.perSignIn": true
  }
}

/** The default rules of the capability's groups. */
export const TWO_FACTOR_RATE_LIMITS: { readonly "twoFactor.perUser": readonly RateLimitRule[]; readonly "twoFactor.perSignIn": readonly RateLimitRule[] } = {
  "twoFactor.perUser": [{ limit: 5, window: 300 }, { limit: 20, window: 3600 }],
  "twoFactor.perSignIn": [{ limit: 5, window: 300 }],
}
