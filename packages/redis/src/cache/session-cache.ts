/**
 * The cache itself: reads that fall back to a loader (the adapter) and fill only under a lease,
 * and the invalidations writers run after their database write. See `scripts.ts` for the rule that
 * keeps a revoked session from coming back, and `health.ts` for what happens when Redis is away.
 * Nothing here throws to its caller: a Redis failure is logged and the loader answers.
 */
import type { AdapterSession, AdapterUser } from "@authlib/core"
import type { Commands, RedisReply } from "../client.js"
import { decode, encode } from "./codec.js"
import type { CacheHealth } from "./health.js"
import { FILL_SESSION, FILL_USER, READ_SESSION, READ_USER } from "./scripts.js"

/**
 * A value no other read, instance or process uses: a random prefix per process and a counter
 * (leases and era candidates only need to be unique, and a UUID per read costs more than the rest of a hit).
 */
const processId = crypto.randomUUID()
let counter = 0
const unique = () => `${processId}:${(counter++).toString(36)}`

export type Found = { session: AdapterSession; user: AdapterUser }

/** Times of the cache, in milliseconds. */
export interface CacheTimes {
  /** Longest life of a positive entry. */
  ttlMs: number
  /** Longest life of a negative entry ("no such session", "no such user"). */
  negativeTtlMs: number
  /** Life of a read's lease: a database read slower than this is not stored. */
  leaseMs: number
}

export class SessionCache {
  constructor(
    private readonly commands: Commands,
    private readonly health: CacheHealth,
    private readonly prefix: string,
    private readonly times: CacheTimes,
  ) {}

  private key(kind: string, id: string): string {
    return `${this.prefix}${kind}:${id}`
  }

  private get era(): string {
    return `${this.prefix}era`
  }

  private get inflight(): string {
    return `${this.prefix}inflight`
  }

  /** Runs a cache command; a failure marks the cache untrusted and answers undefined. */
  private async attempt<T>(run: () => Promise<T>): Promise<T | undefined> {
    try {
      return await run()
    } catch (err) {
      this.health.trouble(err)
      return undefined
    }
  }

  /** `getSessionAndUser` through the cache: a hit, or `load()` and a fill under the lease taken before it. */
  async session(hash: string, load: () => Promise<Found | null>): Promise<Found | null> {
    if (!this.health.usable() && !(await this.health.recovered())) return load()
    const lease = unique()
    const keys = [this.key("s", hash), this.era, this.key("l", hash), this.inflight]
    const reply = await this.attempt(() => this.commands.run(READ_SESSION, keys, [this.key("u", ""), lease, String(this.times.leaseMs), unique()]))
    const [kind, a, b] = Array.isArray(reply) ? (reply as RedisReply[]) : []
    if (kind === "hit" && typeof a === "string" && typeof b === "string") {
      const hit = this.decoded(() => ({ session: decode<Found["session"]>(a), user: decode<Found["user"]>(b) }))
      if (hit) return hit
    }
    if (kind === "none") return null
    const found = await load()
    if (kind !== "miss" || typeof a !== "string") return found
    const uid = found?.user.id ?? ""
    const argv = [lease, a, found ? "found" : "none", uid, found ? encode(found.session) : "", found ? encode(found.user) : "", String(this.sessionTtl(found)), String(this.times.ttlMs), unique()]
    await this.attempt(() => this.commands.run(FILL_SESSION, [...keys, this.key("u", uid)], argv))
    return found
  }

  /**
   * A cached value read back; one that does not parse (written by something else under our
   * prefix?) is reported and read as a miss (the database answers), never thrown to core.
   */
  private decoded<T>(read: () => T): T | undefined {
    try {
      return read()
    } catch (err) {
      this.health.trouble(err)
      return undefined
    }
  }

  /** A positive entry lives `ttlMs` at most, and never past the session's own expiry. */
  private sessionTtl(found: Found | null): number {
    if (!found) return this.times.negativeTtlMs
    const left = new Date(found.session.expires).getTime() - Date.now()
    return Math.max(1, Math.min(this.times.ttlMs, Number.isFinite(left) ? left : 1))
  }

  /** One field of a user's entry (`user` for `getUser`, `epoch` for `getUserSessionEpoch`) through the cache. */
  async user<T>(id: string, field: "user" | "epoch", load: () => Promise<T | null>): Promise<T | null> {
    if (!this.health.usable() && !(await this.health.recovered())) return load()
    const lease = unique()
    const keys = [this.key("u", id), this.era, this.inflight]
    const reply = await this.attempt(() => this.commands.run(READ_USER, keys, [field, lease, String(this.times.leaseMs), unique()]))
    const [kind, value] = Array.isArray(reply) ? (reply as RedisReply[]) : []
    if (kind === "hit" && typeof value === "string") {
      if (value === "null") return null
      const hit = this.decoded(() => decode<T>(value))
      if (hit !== undefined) return hit
    }
    const loaded = await load()
    if (kind !== "miss" || typeof value !== "string") return loaded
    const argv = [lease, value, field, loaded == null ? "null" : encode(loaded), String(this.times.ttlMs), String(this.times.negativeTtlMs), unique()]
    await this.attempt(() => this.commands.run(FILL_USER, keys, argv))
    return loaded
  }

  /** After a write to a session: its entry and the lease of any read in flight go. */
  async dropSession(hash: string): Promise<void> {
    await this.drop([this.key("s", hash), this.key("l", hash)])
  }

  /**
   * After a write to a user (or all their sessions, or their epoch): the user's entry goes, which
   * voids every cached session of theirs (each names the user entry's version), and so do the
   * leases of all reads in flight (a session read does not know its user before it loads).
   */
  async dropUser(id: string): Promise<void> {
    await this.drop([this.key("u", id), this.inflight])
  }

  /** After a write this cache does not know: a new era, so no entry from before it is read again. */
  async renew(): Promise<void> {
    if (this.commands.ready) await this.health.recover(true)
    else this.health.trouble(new Error("the Redis client is not ready"))
  }

  /**
   * Deletes keys; when that fails the cache is untrusted until a new era is written (health.ts),
   * because an entry it could not delete may still be read elsewhere.
   */
  private async drop(keys: string[]): Promise<void> {
    if (!this.commands.ready) {
      this.health.trouble(new Error("the Redis client is not ready"))
      return
    }
    await this.attempt(() => this.commands.send(["DEL", ...keys]))
  }
}
