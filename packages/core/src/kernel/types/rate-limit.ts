/**
 * The `rateLimit` option's public shape and its resolved form, as types only: the configuration
 * types name them without importing the limiter. Defaults and resolution: `rate-limit/options.ts`.
 */
import type { RateLimitStore } from "./rate-limit-store.js"

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
  // Capabilities add their sections by augmenting this interface, and their groups in
  // `CapabilityRateLimitGroups` (`Capability.rateLimits` declares the default rules).
}

/**
 * The rule groups capabilities add (`"<section>.<name>"` -> `true`), by declaration merging, with a
 * matching section of `RateLimitOptions`.
 */
export interface CapabilityRateLimitGroups {}

/** The names of the rule groups, as they appear in keys and log lines. */
export type RateLimitGroup = KernelRateLimitGroup | keyof CapabilityRateLimitGroups

/** The kernel's own rule groups. */
export type KernelRateLimitGroup =
  | "credentials.perIdentifier"
  | "credentials.perClient"
  | "email.perAddress"
  | "email.perClient"
  | "oauth.perClient"
  | "passkey.perClient"
  | "csrf.perClient"
  | "session.perClient"

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

/** What the app declares: how many proxies stand in front of it (a hop count), or their addresses / CIDR ranges. */
export type TrustedProxies = number | readonly string[]

/** One trusted range; a bare address is the range of its full length. */
export interface Cidr {
  /** 4 bytes (IPv4, including IPv4-mapped IPv6) or 16 bytes (IPv6). */
  readonly bytes: Uint8Array
  readonly prefix: number
}

/**
 * The compiled `trustedProxies`, built once at config resolution by `compileTrustedProxies` (`rate-limit/client-address.ts`)
 * and handed back to `clientKeyOf`. Its fields are that module's business.
 */
export interface ProxyTrust {
  /** How many proxies stand in front of the app; undefined when they are declared by address. */
  readonly hops: number | undefined
  /** The declared addresses and ranges; empty with a hop count. */
  readonly ranges: readonly Cidr[]
}
