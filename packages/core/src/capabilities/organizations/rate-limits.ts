/**
 * The rate limits of organizations: the `rateLimit.organizations` option and its groups (added to
 * `RateLimitOptions` and `RateLimitGroup` by declaration merging) and their default rules, which
 * the capability declares (`Capability.rateLimits`). Both count per user.
 */
import type { RateLimitRule, RateLimitRules } from "../../kernel/types/rate-limit.js"

/** `rateLimit.organizations`. */
export interface OrganizationsRateLimitOptions {
  create?: RateLimitRules
  invite?: RateLimitRules
}

declare module "../../kernel/types/rate-limit.js" {
  interface RateLimitOptions {
    /**
     * Organizations created per user (default 10 per hour) and invitations sent per user (default
     * 20 per 10 minutes, 100 per day), each attempt counted.
     */
    organizations?: OrganizationsRateLimitOptions
  }
  interface CapabilityRateLimitGroups {
    "organizations.create": true
    "organizations.invite": true
  }
}

/** The default rules of the capability's groups. */
export const ORGANIZATIONS_RATE_LIMITS: { readonly "organizations.create": readonly RateLimitRule[]; readonly "organizations.invite": readonly RateLimitRule[] } = {
  "organizations.create": [{ limit: 10, window: 3600 }],
  "organizations.invite": [{ limit: 20, window: 600 }, { limit: 100, window: 86400 }],
}
