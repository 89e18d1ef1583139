/**
 * `RedisRateLimitStore`: core's `RateLimitStore` on Redis, so that every instance of an app counts
 * against the same limits at memory speed. Each hit is one script (one round trip), atomic because
 * Redis runs a script alone; windows are Redis key expiries; keys are stored as their SHA-256.
 */
import { createHash } from "node:crypto"
import type { RateLimitHit, RateLimitStore } from "@authlib/core"
import { checkClient, Commands, intOption, script, type RedisClientLike, type RedisReply } from "./client.js"
import { AuthlibRedisError } from "./errors.js"

/**
 * Adds `ARGV[2]` to the counter and opens a window of `ARGV[1]` ms when the key has none (a key
 * whose window ended has expired: Redis never returns it). `cost` 0 reads without writing, so a
 * read of an unknown key opens no window. Answers `{ count, ms left }`.
 */
const HIT = script(`local win = tonumber(ARGV[1])
local cost = tonumber(ARGV[2])
if cost == 0 then
  local c = redis.call('GET', KEYS[1])
  if not c then return {0, win} end
  return {tonumber(c), redis.call('PTTL', KEYS[1])}
end
local c = redis.call('INCRBY', KEYS[1], cost)
local t = redis.call('PTTL', KEYS[1])
if t < 0 then
  redis.call('PEXPIRE', KEYS[1], win)
  t = win
end
return {c, t}`)

/** The longest window and highest cost accepted (about 24.8 days in milliseconds), as the Postgres store. */
const MAX_INT = 2_147_483_647

/** Options of `RedisRateLimitStore`. */
export interface RedisRateLimitStoreOptions {
  /** A connected client the app owns (node-redis `createClient()`, after `connect()`). */
  client: RedisClientLike
  /** Prefix of every key this store writes. Default `"authlib:rl:"`. */
  prefix?: string
  /**
   * Longest wait for Redis, in milliseconds: after it the hit fails (and core's limits fail closed,
   * or open with `rateLimit.failOpen`). A client that is not connected fails at once. Default 1 000.
   */
  timeoutMs?: number
}

function invalid(field: string, rule: string, received: unknown): AuthlibRedisError {
  return new AuthlibRedisError(`"${field}" must be ${rule}`, { code: "INVALID_INPUT", cause: { field, received } })
}

/**
 * A `RateLimitStore` on Redis, shared by every instance connected to it.
 *
 * - Each hit is one Lua script (`INCRBY`, then `PEXPIRE` when the key has no window yet): one round
 *   trip, atomic, so N concurrent hits on one key answer N distinct counts on every instance.
 * - `cost` 0 reads without writing: `{ count: 0, resetInMs: windowMs }` for an unknown key.
 * - Ended windows are Redis expiries: nothing to sweep.
 * - Keys are stored as `prefix` + their hex SHA-256 (core's keys may hold an e-mail address).
 * - When Redis is unreachable or slower than `timeoutMs`, `hit` throws `AuthlibRedisError`
 *   (`UNAVAILABLE`): core's limits then fail closed (or open with `rateLimit.failOpen: true`).
 *
 * @example
 * ```ts
 * import { createClient } from "redis"
 * import { RedisRateLimitStore } from "@authlib/redis"
 * const redis = await createClient({ url: process.env.REDIS_URL }).connect()
 * export const authConfig = { rateLimit: { store: new RedisRateLimitStore({ client: redis }) }, providers: [...] }
 * ```
 */
export class RedisRateLimitStore implements RateLimitStore {
  readonly #commands: Commands
  readonly #prefix: string

  constructor(options: RedisRateLimitStoreOptions) {
    this.#commands = new Commands(checkClient(options?.client, "RedisRateLimitStore"), intOption(options.timeoutMs, 1_000, "timeoutMs", 1, 60_000))
    this.#prefix = options.prefix ?? "authlib:rl:"
    if (typeof this.#prefix !== "string") throw new AuthlibRedisError(`"prefix" must be a string`, { code: "INVALID_OPTION", cause: { field: "prefix" } })
  }

  /** The Redis key of a counter: the prefix and the hex SHA-256 of core's key. */
  keyOf(key: string): string {
    return this.#prefix + createHash("sha256").update(key, "utf8").digest("hex")
  }

  async hit(key: string, windowMs: number, cost = 1): Promise<RateLimitHit> {
    if (typeof key !== "string") throw invalid("key", "a string", typeof key)
    if (typeof windowMs !== "number" || !(windowMs > 0) || Math.ceil(windowMs) > MAX_INT) {
      throw invalid("windowMs", `a number of milliseconds in (0, ${MAX_INT}]`, windowMs)
    }
    if (typeof cost !== "number" || !Number.isInteger(cost) || cost < 0 || cost > MAX_INT) {
      throw invalid("cost", `an integer in [0, ${MAX_INT}]`, cost)
    }
    const window = Math.ceil(windowMs)
    const reply = await this.#commands.run(HIT, [this.keyOf(key)], [String(window), String(cost)])
    return toHit(reply, window)
  }

  async reset(key: string): Promise<void> {
    if (typeof key !== "string") throw invalid("key", "a string", typeof key)
    await this.#commands.send(["DEL", this.keyOf(key)])
  }
}

/** The script's `{ count, ms left }` as core's `RateLimitHit`, `resetInMs` bounded to `[1, windowMs]`. */
function toHit(reply: RedisReply, windowMs: number): RateLimitHit {
  const [count, ttl] = Array.isArray(reply) ? reply.map(Number) : []
  if (count === undefined || ttl === undefined || !Number.isFinite(count) || !Number.isFinite(ttl)) {
    throw new AuthlibRedisError("the rate-limit script answered an unexpected reply", { code: "UNEXPECTED_REPLY", cause: { reply } })
  }
  // A key another program left without expiry (PTTL -1) still counts; its window reads as a full one.
  return { count, resetInMs: ttl > 0 ? Math.min(windowMs, ttl) : windowMs }
}
