/**
 * The default rate-limit store: fixed windows in a `Map`, for one process. Memory is bounded: at
 * `maxKeys` counters, ended windows are dropped first, then the oldest open windows (a flood of
 * distinct keys cannot grow the heap). Several instances of an app do not share it: use a shared
 * store (`PostgresRateLimitStore` in `@authlib/xata-adapter`, or your own) there.
 */
import type { RateLimitHit, RateLimitStore } from "./store.js"

/** Options of `MemoryRateLimitStore`. */
export interface MemoryRateLimitStoreOptions {
  /** Most counters kept at once. Default 50,000 (a few MB). */
  maxKeys?: number
  /** The clock, in milliseconds (tests). Default `Date.now`. */
  now?: () => number
}

interface Counter {
  count: number
  resetAt: number
}

/** The default number of counters a memory store keeps. */
export const DEFAULT_MEMORY_STORE_KEYS = 50_000

/**
 * An in-memory `RateLimitStore`. Its methods answer synchronously (a value, not a Promise), which
 * keeps a limited request as fast as an unlimited one.
 */
export class MemoryRateLimitStore implements RateLimitStore {
  readonly #counters = new Map<string, Counter>()
  readonly #maxKeys: number
  readonly #now: () => number

  constructor(options: MemoryRateLimitStoreOptions = {}) {
    const max = options.maxKeys ?? DEFAULT_MEMORY_STORE_KEYS
    if (!Number.isInteger(max) || max < 1) throw new RangeError("MemoryRateLimitStore: maxKeys must be an integer >= 1")
    this.#maxKeys = max
    this.#now = options.now ?? Date.now
  }

  /** Counters held now (ended windows not yet dropped included). */
  get size(): number {
    return this.#counters.size
  }

  hit(key: string, windowMs: number, cost = 1): RateLimitHit {
    const now = this.#now()
    const counter = this.#counters.get(key)
    if (counter && counter.resetAt > now) {
      counter.count += cost
      return { count: counter.count, resetInMs: counter.resetAt - now }
    }
    if (cost === 0) return { count: 0, resetInMs: windowMs }
    if (counter) {
      // A new window in place: no Map delete and insert per window (a sign-in resets and re-opens
      // its counters every time). The Map's order is then the order keys first came, which
      // eviction only uses after every ended window is gone.
      counter.count = cost
      counter.resetAt = now + windowMs
      return { count: cost, resetInMs: windowMs }
    }
    this.#makeRoom(now)
    this.#counters.set(key, { count: cost, resetAt: now + windowMs })
    return { count: cost, resetInMs: windowMs }
  }

  reset(key: string): void {
    // Ended in place (see `hit`); dropped with the other ended windows when room is needed.
    const counter = this.#counters.get(key)
    if (counter) counter.resetAt = 0
  }

  /**
   * When full: drops every ended window, then, if that freed less than a tenth, the oldest open
   * windows down to 90% of `maxKeys`. A full pass happens at most once per tenth of `maxKeys`
   * inserts, so a flood of new keys costs O(1) per insert on average.
   */
  #makeRoom(now: number): void {
    const counters = this.#counters
    if (counters.size < this.#maxKeys) return
    for (const [key, counter] of counters) if (counter.resetAt <= now) counters.delete(key)
    let excess = counters.size - Math.floor(this.#maxKeys * 0.9)
    if (excess <= 0) return
    for (const key of counters.keys()) {
      counters.delete(key)
      if (--excess <= 0) break
    }
  }
}

let shared: MemoryRateLimitStore | undefined

/**
 * The process-wide default store. Shared by every configuration object, because bindings may
 * build a fresh one per request; keys never collide across groups.
 */
export function defaultMemoryStore(): MemoryRateLimitStore {
  return (shared ??= new MemoryRateLimitStore())
}
