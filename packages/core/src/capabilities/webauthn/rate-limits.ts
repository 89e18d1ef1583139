/**
 * The rate limit of passkeys: the `rateLimit.passkey` option and its group (added to
 * `RateLimitOptions` and `RateLimitGroup` by declaration merging), with its default rule, which the
 * capability declares (`Capability.rateLimits`); counted on the options route and the callback.
 */
import type { RateLimitRule, RateLimitRules } from "../../kernel/types/rate-limit.js"

/** `rateLimit.passkey`. */
export interface PasskeyRateLimitOptions {
  /** Passkey options and callbacks per client. Default 60 per minute. */
  perClient?: RateLimitRules
}

declare module "../../kernel/types/rate-limit.js" {
  interface RateLimitOptions {
    /** Passkey options and callbacks per client. Default 60 per minute. */
    passkey?: PasskeyRateLimitOptions
  }
  interface CapabilityRateLimitGroups {
    "passkey.perClient": true
  }
}

/** The default rule of the capability's group. */
export const PASSKEY_RATE_LIMITS: { readonly "passkey.perClient": readonly RateLimitRule[] } = {
  "passkey.perClient": [{ limit: 60, window: 60 }],
}
