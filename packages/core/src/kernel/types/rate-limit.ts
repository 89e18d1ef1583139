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
  /** The option as the app wrote it (`{}` when absent): a capability reads its own settings in its section. */
  readonly options: Readonly<RateLimitOptions>
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
