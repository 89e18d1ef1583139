/**
 * The rate limits of e-mail sign-in: the `rateLimit.email` option and its groups (added to
 * `RateLimitOptions` and `RateLimitGroup` by declaration merging), their default rules, which the
 * capability declares (`Capability.rateLimits`), the count before each mail, and how many links of
 * an address stay live.
 */
import { Configuration } from "../../kernel/errors/errors.js"
import { clientOf, count, normalizeIdentifier } from "../../kernel/rate-limit/limiter.js"
import type { AuthRequest, Context } from "../../kernel/types/http.js"
import type { RateLimitRule, RateLimitRules } from "../../kernel/types/rate-limit.js"
import type { ResolvedConfig } from "../../kernel/types/resolved-config.js"

/** `rateLimit.email`. */
export interface EmailRateLimitOptions {
  /** Sign-in mails per address. Default 1 per minute (a cooldown) and 5 per hour. */
  perAddress?: RateLimitRules
  /** Sign-in mails per client, across addresses. Default 20 per hour. */
  perClient?: RateLimitRules
  /**
   * Links per address that work at the same time: storing a new one retires the oldest beyond
   * it (adapter method `retireVerificationTokens`). Default 3; `false` keeps every link.
   */
  maxLiveTokens?: number | false
}

declare module "../../kernel/types/rate-limit.js" {
  interface RateLimitOptions {
    email?: EmailRateLimitOptions
  }
  interface CapabilityRateLimitGroups {
    "email.perAddress": true
    "email.perClient": true
  }
}

/** The default rules of the capability's groups. */
export const EMAIL_RATE_LIMITS: { readonly "email.perAddress": readonly RateLimitRule[]; readonly "email.perClient": readonly RateLimitRule[] } = {
  "email.perAddress": [{ limit: 1, window: 60 }, { limit: 5, window: 3600 }],
  "email.perClient": [{ limit: 20, window: 3600 }],
}

/** Default `rateLimit.email.maxLiveTokens`. */
export const DEFAULT_MAX_LIVE_TOKENS = 3

/** A `rateLimit.email.maxLiveTokens` that is neither `false` nor an integer >= 1 (checked at start-up). */
export function maxLiveTokensProblem(config: ResolvedConfig): Configuration | undefined {
  const live = config.rateLimit?.options.email?.maxLiveTokens
  return live !== undefined && live !== false && !(Number.isInteger(live) && live >= 1)
    ? new Configuration('"rateLimit.email.maxLiveTokens" must be an integer >= 1 or false', { code: "RATE_LIMIT_INVALID" })
    : undefined
}

/** How many links of an address stay live (undefined: every one; limits off keep every one too). */
export function maxLiveTokens(config: ResolvedConfig): number | undefined {
  if (!config.rateLimit) return undefined
  const live = config.rateLimit.options.email?.maxLiveTokens
  return live === false ? undefined : (live ?? DEFAULT_MAX_LIVE_TOKENS)
}

/**
 * The mailbox an address reaches, as the per-address limits count it: normalised, and with a
 * `+tag` cut from the local part (`Inbox+1@example.com` -> `inbox@example.com`), since most mail
 * providers deliver every tag to the same inbox. The mail itself still goes to the address as typed.
 */
export function mailboxKey(address: string): string {
  const normalized = normalizeIdentifier(address)
  const at = normalized.lastIndexOf("@")
  const plus = at > 0 ? normalized.indexOf("+") : -1
  return plus >= 0 && plus < at ? normalized.slice(0, plus) + normalized.slice(at) : normalized
}

/** Before an e-mail sign-in mail: counts it against the mailbox's rules, then the client's. */
export async function emailAttempt(req: AuthRequest, ctx: Context, address: string): Promise<void> {
  const limits = ctx.config.rateLimit
  if (!limits) return
  if (limits.rules["email.perAddress"].length > 0) await count(ctx, "email.perAddress", mailboxKey(address), 1)
  const client = limits.rules["email.perClient"].length > 0 ? clientOf(req, ctx) : undefined
  if (client !== undefined) await count(ctx, "email.perClient", client, 1)
}
