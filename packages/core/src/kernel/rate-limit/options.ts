/**
 * The `rateLimit` option: its public shape, the defaults, and its resolved form. Limits are on
 * unless the app passes `rateLimit: false`; every group can be changed or switched off alone.
 */
import type { TrustedProxies, ProxyTrust } from "./client-address.js"
import { compileTrustedProxies } from "./client-address.js"
import type { RateLimitStore } from "./store.js"
import { defaultMemoryStore } from "./memory-store.js"

/** At most `limit` counted attempts per `window` seconds. */
export interface RateLimitRule {
  limit: number
  /** Seconds. */
  window: number
}

/** One rule, several rules that all apply (a growing back-off), or `false` for none. */
export type RateLimitRules = RateLimitRule | readonly RateLimitRule[] | false

/** The `rateLimit` option of the Auth config. Each group's rules replace its defaults. */
export interface RateLimitOptions {
  /** Where counts live. Default: one in-memory store per process (`MemoryRateLimitStore`). */
  store?: RateLimitStore
  /**
   * The proxies in front of the app: how many (a hop count), or their addresses and CIDR ranges.
   * Only then are `X-Forwarded-For` / `Forwarded` read, and the right-most untrusted hop is the
   * client. Default: none (the peer address handed in by the binding is the client).
   */
  trustedProxies?: TrustedProxies
  /**
   * When the store fails: `false` (default) refuses the attempt with `RateLimited` /
   * `STORE_UNAVAILABLE` (503) and logs the error; `true` lets it through and logs the error.
   */
  failOpen?: boolean
  credentials?: {
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
  email?: {
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
  /** OAuth/OIDC sign-in starts and callbacks per client. Default 60 per minute. */
  oauth?: { perClient?: RateLimitRules }
  /** Passkey options and callbacks per client. Default 60 per minute. */
  passkey?: { perClient?: RateLimitRules }
  /** New CSRF tokens (a cookie minted) per client. Default 60 per minute. */
  csrf?: { perClient?: RateLimitRules }
  /** `GET`/`POST` session per client. Default: not limited (apps poll it). */
  session?: { perClient?: RateLimitRules }
}

/** The names of the rule groups, as they appear in keys and log lines. */
export type RateLimitGroup =
  | "credentials.perIdentifier"
  | "credentials.perClient"
  | "email.perAddress"
  | "email.perClient"
  | "oauth.perClient"
  | "passkey.perClient"
  | "csrf.perClient"
  | "session.perClient"

const DEFAULTS: Record<RateLimitGroup, readonly RateLimitRule[]> = {
  "credentials.perIdentifier": [{ limit: 5, window: 60 }, { limit: 20, window: 3600 }],
  "credentials.perClient": [{ limit: 30, window: 600 }],
  "email.perAddress": [{ limit: 1, window: 60 }, { limit: 5, window: 3600 }],
  "email.perClient": [{ limit: 20, window: 3600 }],
  "oauth.perClient": [{ limit: 60, window: 60 }],
  "passkey.perClient": [{ limit: 60, window: 60 }],
  "csrf.perClient": [{ limit: 60, window: 60 }],
  "session.perClient": [],
}

/** The default rules of every group (the README's table is tested against it). */
export const DEFAULT_RATE_LIMITS: Readonly<Record<RateLimitGroup, readonly RateLimitRule[]>> = DEFAULTS
/** Default `email.maxLiveTokens`. */
export const DEFAULT_MAX_LIVE_TOKENS = 3

/** A rule as the limiter uses it: the window in milliseconds, and the key prefix of its counter. */
export interface ResolvedRule {
  readonly limit: number
  readonly windowMs: number
  /** `<group>:<window seconds>:` */
  readonly prefix: string
}

/** `rateLimit` as core uses it. */
export interface ResolvedRateLimit {
  readonly store: RateLimitStore
  readonly trust: ProxyTrust | undefined
  readonly failOpen: boolean
  readonly rules: Readonly<Record<RateLimitGroup, readonly ResolvedRule[]>>
  /** `credentials.perIdentifier` across networks: each rule at twice its limit (prefix `...:total:`). */
  readonly identifierTotals: readonly ResolvedRule[]
  readonly identifierOf: ((credentials: Readonly<Record<string, unknown>>) => string | undefined) | undefined
  readonly maxLiveTokens: number | undefined
}

function groupOption(options: RateLimitOptions, group: RateLimitGroup): RateLimitRules | undefined {
  const [section, name] = group.split(".") as [keyof RateLimitOptions, string]
  const value = options[section] as Record<string, unknown> | undefined
  return value?.[name] as RateLimitRules | undefined
}

const isRule = (rule: unknown): rule is RateLimitRule => {
  const { limit, window } = (rule ?? {}) as { limit?: unknown; window?: unknown }
  return Number.isInteger(limit) && (limit as number) >= 0 && typeof window === "number" && Number.isFinite(window) && window > 0
}

/** The problems of `options` (each naming the option that fixes it); empty when it is usable. */
export function rateLimitProblems(options: RateLimitOptions | false | undefined): string[] {
  if (options === false || options === undefined) return []
  if (typeof options !== "object" || options === null) return ['"rateLimit" must be an object or false']
  const problems: string[] = []
  for (const group of Object.keys(DEFAULTS) as RateLimitGroup[]) {
    const value = groupOption(options, group)
    if (value === undefined || value === false) continue
    const rules = Array.isArray(value) ? value : [value]
    if (!rules.every(isRule)) problems.push(`"rateLimit.${group}" must be false or rules { limit: integer >= 0, window: seconds > 0 }`)
  }
  const live = options.email?.maxLiveTokens
  if (live !== undefined && live !== false && !(Number.isInteger(live) && live >= 1)) problems.push('"rateLimit.email.maxLiveTokens" must be an integer >= 1 or false')
  const store = options.store as Partial<RateLimitStore> | undefined
  if (store !== undefined && (typeof store?.hit !== "function" || typeof store.reset !== "function")) problems.push('"rateLimit.store" must have "hit" and "reset" methods (see RateLimitStore)')
  if (options.credentials?.identifier !== undefined && typeof options.credentials.identifier !== "function") problems.push('"rateLimit.credentials.identifier" must be a function')
  if (options.trustedProxies !== undefined) {
    try {
      compileTrustedProxies(options.trustedProxies)
    } catch (err) {
      problems.push(`rateLimit.${(err as Error).message}`)
    }
  }
  return problems
}

function resolveRules(options: RateLimitOptions, group: RateLimitGroup): readonly ResolvedRule[] {
  const value = groupOption(options, group)
  const rules = value === undefined ? DEFAULTS[group] : value === false ? [] : Array.isArray(value) ? value : [value as RateLimitRule]
  // Shortest window first: the limiter stops at the first refusal (see limiter.ts `count`).
  const sorted = [...rules].sort((a, b) => a.window - b.window)
  return Object.freeze(sorted.map((r) => Object.freeze({ limit: r.limit, windowMs: Math.round(r.window * 1000), prefix: `${group}:${r.window}:` })))
}

/** The compiled proxies; an invalid declaration (reported by `rateLimitProblems`) trusts none. */
function trustOf(value: TrustedProxies | undefined): ProxyTrust | undefined {
  if (value === undefined) return undefined
  try {
    return compileTrustedProxies(value)
  } catch {
    return undefined
  }
}

/** The resolved limits, or undefined when they are off. Call after `rateLimitProblems` found none. */
export function resolveRateLimit(options: RateLimitOptions | false | undefined): ResolvedRateLimit | undefined {
  if (options === false) return undefined
  const o = options ?? {}
  const rules = {} as Record<RateLimitGroup, readonly ResolvedRule[]>
  for (const group of Object.keys(DEFAULTS) as RateLimitGroup[]) rules[group] = resolveRules(o, group)
  const live = o.email?.maxLiveTokens
  const identifierTotals = rules["credentials.perIdentifier"].map((r) => Object.freeze({ limit: r.limit * 2, windowMs: r.windowMs, prefix: `${r.prefix}total:` }))
  return Object.freeze({
    store: o.store ?? defaultMemoryStore(),
    trust: trustOf(o.trustedProxies),
    failOpen: o.failOpen === true,
    rules: Object.freeze(rules),
    identifierTotals: Object.freeze(identifierTotals),
    identifierOf: o.credentials?.identifier,
    maxLiveTokens: live === false ? undefined : (live ?? DEFAULT_MAX_LIVE_TOKENS),
  })
}
