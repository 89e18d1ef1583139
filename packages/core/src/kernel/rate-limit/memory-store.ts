/**
 * The default rate-limit store: fixed windows in `Map`s, for one process. Memory is bounded: each
 * group of keys (the text before a key's first `:`, such as `csrf.perClient`) has its own budget
 * of `maxKeys` counters, so a flood of one group's keys (fresh client networks asking for CSRF
 * tokens) never evicts another's (a victim's guess counter). Within a group, ended windows are
 * dropped first; when the oldest open windows must go, their counts are folded into a small
 * fixed-size table by hash (the highest per slot), and a new key starts from its slot's count
 * until that window ends: an evicted counter comes back at least where it was, so eviction
 * over-counts (fails towards limiting) instead of forgetting a victim's failed guesses.
 * Several instances of an app do not share it: use a shared store (`PostgresRateLimitStore` in
 * `@authlib/xata-adapter`, or your own) there.
 */
import type { RateLimitHit, RateLimitStep, RateLimitStore } from "../types/rate-limit-store.js"
import { isOverLimit } from "./steps.js"

/** Options of `MemoryRateLimitStore`. */
export interface MemoryRateLimitStoreOptions {
  /** Most counters kept at once per group of keys. Default 50,000 (a few MB). */
  maxKeys?: number
  /** The clock, in milliseconds (tests). Default `Date.now`. */
  now?: () => number
}

interface Counter {
  count: number
  resetAt: number
  /** Of `count`, what this window took over from an evicted slot (see `Group.owed`). */
  inherited: number
}

/** The default number of counters a memory store keeps per group of keys. */
export const DEFAULT_MEMORY_STORE_KEYS = 50_000

/** Slots of a group's table of evicted counts (two typed arrays: 48 KiB). */
const SLOTS = 4096

/** FNV-1a over UTF-16 code units: cheap, and only run for new keys of a group that has evicted. */
function slotOf(key: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193)
  return (h >>> 0) & (SLOTS - 1)
}

/** One group's counters, and what its evicted counters still owe. */
class Group {
  readonly counters = new Map<string, Counter>()
  /** Per slot: the highest count evicted into it, and when the latest of those windows ends. */
  evictedCount: Uint32Array | undefined
  evictedUntil: Float64Array | undefined

  /** The count a new `key` starts from: what an evicted counter of its slot may have held (0 if none). */
  owed(key: string, now: number): { count: number; resetAt: number } | undefined {
    if (!this.evictedCount) return undefined
    const slot = slotOf(key)
    const until = this.evictedUntil![slot]!
    return until > now && this.evictedCount[slot]! > 0 ? { count: this.evictedCount[slot]!, resetAt: until } : undefined
  }

  evict(key: string, counter: Counter, now: number): void {
    const counts = (this.evictedCount ??= new Uint32Array(SLOTS))
    const until = (this.evictedUntil ??= new Float64Array(SLOTS))
    const slot = slotOf(key)
    // An ended slot starts over; an open one keeps the highest count and the latest end. Only the
    // key's own hits are folded in: folding what it inherited would let the slot's count ratchet
    // up with each key a flood passes through it, until every new key started over its limit.
    const own = counter.count - counter.inherited
    const open = until[slot]! > now
    counts[slot] = open ? Math.max(counts[slot]!, own) : own
    until[slot] = open ? Math.max(until[slot]!, counter.resetAt) : counter.resetAt
  }
}

// Set by the class's static block: the private counting `countStepsInMemory` reaches.
let countSteps: (store: MemoryRateLimitStore, steps: readonly RateLimitStep[]) => number
let lastWait: (store: MemoryRateLimitStore) => number

/**
 * An in-memory `RateLimitStore`. Its methods answer synchronously (a value, not a Promise), which
 * keeps a limited request as fast as an unlimited one.
 */
export class MemoryRateLimitStore implements RateLimitStore {
  /** Every counter by key: a hit on a known key is this one lookup, whatever its group. */
  readonly #all = new Map<string, Counter>()
  /** Per group, its counters in the order they came (eviction's order and budget). */
  readonly #groups = new Map<string, Group>()
  readonly #maxKeys: number
  readonly #now: () => number
  /** Whether any group has evicted a counter yet (then a new key may owe its slot's count). */
  #evicted = false

  constructor(options: MemoryRateLimitStoreOptions = {}) {
    const max = options.maxKeys ?? DEFAULT_MEMORY_STORE_KEYS
    if (!Number.isInteger(max) || max < 1) throw new RangeError("MemoryRateLimitStore: maxKeys must be an integer >= 1")
    this.#maxKeys = max
    this.#now = options.now ?? Date.now
  }

  /** Counters held now, in every group (ended windows not yet dropped included). */
  get size(): number {
    return this.#all.size
  }

  /** The group of a new key (only keys met for the first time need it). */
  #group(key: string): Group {
    const colon = key.indexOf(":")
    const name = colon < 0 ? "" : key.slice(0, colon)
    let group = this.#groups.get(name)
    if (!group) this.#groups.set(name, (group = new Group()))
    return group
  }

  hit(key: string, windowMs: number, cost = 1): RateLimitHit {
    const count = this.#count(key, windowMs, cost, this.#now())
    return { count, resetInMs: this.#wait }
  }

  /** The milliseconds until the window ends of the key `#count` counted last (its second answer, kept here: no object per hit). */
  #wait = 0

  /** `hit` at `now`: answers the count, and leaves the wait in `#wait`. */
  #count(key: string, windowMs: number, cost: number, now: number): number {
    const counter = this.#all.get(key)
    if (counter && counter.resetAt > now) {
      counter.count += cost
      this.#wait = counter.resetAt - now
      return counter.count
    }
    this.#wait = windowMs
    if (counter) {
      if (cost === 0) return 0
      // A new window in place: no Map delete and insert per window (a sign-in resets and re-opens
      // its counters every time). The Map's order is then the order keys first came, which
      // eviction only uses after every ended window is gone.
      counter.count = cost
      counter.resetAt = now + windowMs
      counter.inherited = 0
      return cost
    }
    // A read of a key never counted (a client that never failed) needs its group only once some group has evicted.
    if (cost === 0 && !this.#evicted) return 0
    const group = this.#group(key)
    const owed = group.owed(key, now)
    if (cost === 0) {
      if (!owed) return 0
      this.#wait = owed.resetAt - now
      return owed.count
    }
    this.#makeRoom(group, now)
    // A key whose slot holds an evicted count resumes from it, in that count's window (never longer than its own).
    const fresh: Counter = owed
      ? { count: owed.count + cost, resetAt: Math.min(owed.resetAt, now + windowMs), inherited: owed.count }
      : { count: cost, resetAt: now + windowMs, inherited: 0 }
    group.counters.set(key, fresh)
    this.#all.set(key, fresh)
    this.#wait = fresh.resetAt - now
    return fresh.count
  }

  /** `hit` per step, in order, stopping after the first over its limit (synchronous, as `hit`; one clock read for all). */
  hitEach(steps: readonly RateLimitStep[]): RateLimitHit[] {
    const hits: RateLimitHit[] = []
    const now = this.#now()
    for (let i = 0; i < steps.length; i++) {
      const step = steps[i]!
      const hit = { count: this.#count(step.key, step.windowMs, step.cost, now), resetInMs: this.#wait }
      hits.push(hit)
      if (isOverLimit(step, hit)) break
    }
    return hits
  }

  /** `hitEach` without its answers (see `countStepsInMemory`). */
  #countSteps(steps: readonly RateLimitStep[]): number {
    const now = this.#now()
    for (let i = 0; i < steps.length; i++) {
      const step = steps[i]!
      const count = this.#count(step.key, step.windowMs, step.cost, now)
      if (step.cost === 0 ? count >= step.limit : count > step.limit) return i
    }
    return -1
  }

  static {
    countSteps = (store, steps) => store.#countSteps(steps)
    lastWait = (store) => store.#wait
  }

  resetEach(keys: readonly string[]): void {
    for (let i = 0; i < keys.length; i++) this.reset(keys[i]!)
  }

  reset(key: string): void {
    // Ended in place (see `hit`); dropped with the other ended windows when room is needed.
    const counter = this.#all.get(key)
    if (counter) counter.resetAt = 0
  }

  /**
   * When the group is full: drops every ended window, then, if that freed less than a tenth, the
   * oldest open windows down to 90% of `maxKeys`, their counts kept in the group's table. A full
   * pass happens at most once per tenth of `maxKeys` inserts: O(1) per insert on average.
   */
  #makeRoom(group: Group, now: number): void {
    const counters = group.counters
    if (counters.size < this.#maxKeys) return
    const all = this.#all
    for (const [key, counter] of counters) if (counter.resetAt <= now) (counters.delete(key), all.delete(key))
    let excess = counters.size - Math.floor(this.#maxKeys * 0.9)
    if (excess <= 0) return
    this.#evicted = true
    for (const [key, counter] of counters) {
      group.evict(key, counter, now)
      counters.delete(key)
      all.delete(key)
      if (--excess <= 0) break
    }
  }
}

const prototypeHitEach = MemoryRateLimitStore.prototype.hitEach

/**
 * Counts `steps` on `store` exactly as its `hitEach` does, without an answer object per step: the
 * index of the step it stopped at over its limit, with that step's wait in milliseconds, or
 * undefined when every step fit. `false` (nothing counted) unless `store` is a
 * `MemoryRateLimitStore` whose `hitEach` is the class's own (not replaced on the instance or in a
 * subclass): the caller then uses `hitEach`. The limiter's path for the default store: no array
 * and no five answer objects per credentials sign-in.
 */
export function countStepsInMemory(store: RateLimitStore, steps: readonly RateLimitStep[]): { refused: number; waitMs: number } | undefined | false {
  if (!(store instanceof MemoryRateLimitStore) || store.hitEach !== prototypeHitEach) return false
  const refused = countSteps(store, steps)
  return refused < 0 ? undefined : { refused, waitMs: lastWait(store) }
}

let shared: MemoryRateLimitStore | undefined

/**
 * The process-wide default store. Shared by every configuration object, because bindings may
 * build a fresh one per request; keys never collide across groups.
 */
export function defaultMemoryStore(): MemoryRateLimitStore {
  return (shared ??= new MemoryRateLimitStore())
}
