/**
 * The rate-limit store contract: what every instance of an app shares to count attempts. Core
 * decides what to count and what the limits are; a store only counts hits in fixed windows,
 * atomically. The in-memory store (`MemoryRateLimitStore`) is the default; `@authlib/xata-adapter`
 * ships a Postgres one; Redis or Upstash stores implement the same two methods, and may add the two
 * combined ones (`hitEach`, `resetEach`) so that a credentials sign-in costs one round trip before
 * `authorize` and one after it instead of one per counter.
 */
import type { Awaitable } from "@authlib/jwt"

/** What a store answers for one counted hit. */
export interface RateLimitHit {
  /** Hits of the key in its current window, this one included. */
  count: number
  /** Milliseconds until the current window of the key ends (a positive number). */
  resetInMs: number
}

/** One counter of a combined check (`RateLimitStore.hitEach`). */
export interface RateLimitStep {
  /** The counter's key (as for `hit`). */
  key: string
  /** The window a first hit opens, in milliseconds (as for `hit`). */
  windowMs: number
  /** Hits added (0 reads, as for `hit`). */
  cost: number
  /**
   * The most hits the window allows. The step is over it when its count is above `limit` (a read,
   * cost 0: when the count has reached `limit`, so one more would not fit); no later step is counted.
   */
  limit: number
}

/**
 * A counter of hits per key in fixed windows, shared by every instance of an app.
 *
 * Keys are made by core (`<rule>:<kind>:<value>`, at most 512 characters) and may contain an
 * e-mail address, a user name or a client network: a store that persists them should store a hash
 * of the key (the Postgres store stores its SHA-256), never the key itself.
 *
 * @example A Redis store (one round trip per hit: `INCRBY` then `PEXPIRE ... NX` in a `MULTI`).
 * ```ts
 * const store: RateLimitStore = {
 *   async hit(key, windowMs, cost = 1) {
 *     const [[, count], , [, ttl]] = await redis.multi().incrby(key, cost).pexpire(key, windowMs, "NX").pttl(key).exec()
 *     return { count, resetInMs: Math.max(1, ttl) }
 *   },
 *   async reset(key) { await redis.del(key) },
 * }
 * ```
 */
export interface RateLimitStore {
  /**
   * Adds `cost` hits (default 1; 0 reads the count without adding) to `key` and answers the count
   * in the key's current window. When the key has no open window, a new one of `windowMs` starts
   * with this hit. Must be atomic: N concurrent calls on one key answer N distinct counts, across
   * every instance that shares the store. A window that has ended counts as none (expired keys may
   * be removed lazily, but never counted).
   */
  hit(key: string, windowMs: number, cost?: number): Awaitable<RateLimitHit>
  /** Forgets `key` (its window and count). Resetting an unknown key does nothing. */
  reset(key: string): Awaitable<void>
  /**
   * Optional: counts `steps` in their order as `hit` would, each atomically, and stops after the
   * first step over its limit: later steps are neither counted nor read. Answers
   * the hits of the steps it counted, in order (so fewer than `steps` when it stopped early). One
   * round trip where `hit` takes one per step; core falls back to `hit` per step without it.
   * Steps name distinct keys. A store that locks keys should take them in the order given.
   */
  hitEach?(steps: readonly RateLimitStep[]): Awaitable<readonly RateLimitHit[]>
  /** Optional: forgets every key of `keys` (as `reset` each), in one round trip; core falls back to `reset` per key. */
  resetEach?(keys: readonly string[]): Awaitable<void>
}
