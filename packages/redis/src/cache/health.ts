/**
 * Whether the cache may be trusted right now. Redis may have missed a write's invalidation while it
 * was unreachable (or slow, or restarted from a snapshot), so after any sign of trouble the cache is
 * not read until a new era has been written: every entry filled before names the old era and reads
 * as a miss. Until then reads and writes go to the database alone.
 *
 * Signs of trouble: the client's `error` event, a client that is not ready, a command that
 * failed or timed out. The new era is written as soon as Redis answers again (retried in the
 * background every `retryMs`), not on the next request, so an instance that saw Redis go away
 * fences the old entries even when no request reaches it.
 */
import type { Commands } from "../client.js"

/** Where the cache reports trouble and recovery: core's `logger` or `console` fit. */
export interface RedisCacheLogger {
  warn(code: string, ...message: unknown[]): void
  error(code: string, ...message: unknown[]): void
}

export class CacheHealth {
  /** True while the cache must not be read: an era must be written first (after trouble, not at start: this instance has missed nothing yet). */
  #suspect = false
  /** True once trouble was logged, until the recovery is logged. */
  #episode = false
  /** Counts signs of trouble: an era written before the latest one does not fence it. */
  #troubles = 0
  #recovering: { seq: number; done: Promise<boolean> } | undefined
  #timer: ReturnType<typeof setTimeout> | undefined

  constructor(
    private readonly commands: Commands,
    private readonly eraKey: string,
    private readonly logger: RedisCacheLogger,
    private readonly retryMs: number,
  ) {
    // `error` comes with every lost connection (node-redis and ioredis then reconnect). Not `end`:
    // that is the app closing its client, and the next read finds it not ready anyway.
    commands.client.on?.("error", (err: unknown) => this.trouble(err))
  }

  /** Whether the cache may be used now without writing an era first (the common case, synchronous). */
  usable(): boolean {
    return !this.#suspect && this.commands.ready
  }

  /**
   * After `usable()` said no: whether a new era could be written now (then the cache may be used).
   * False at once while the client is not ready. Never throws.
   */
  async recovered(): Promise<boolean> {
    if (!this.commands.ready) {
      this.trouble(new Error("the Redis client is not ready"))
      return false
    }
    return this.recover()
  }

  /** Marks the cache untrusted (logged once per episode) and starts the background recovery. */
  trouble(err: unknown): void {
    this.#troubles++
    this.#suspect = true
    if (!this.#episode) {
      this.#episode = true
      this.safeLog("warn", "the Redis cache is unavailable: sessions and users are read from the database until it answers again", err)
    }
    this.schedule()
  }

  /**
   * Writes a new era; on success the cache is trusted again, unless trouble came after the era was
   * sent (an invalidation missed after it needs an era after it: another attempt follows).
   * Concurrent callers share an attempt started after their last trouble; `fresh` always starts
   * one (after a write the cache does not know, the era must come after that write).
   */
  recover(fresh = false): Promise<boolean> {
    const seq = this.#troubles
    if (!fresh && this.#recovering && this.#recovering.seq === seq) return this.#recovering.done
    const done = this.commands.send(["SET", this.eraKey, crypto.randomUUID()]).then(
      () => {
        if (this.#troubles !== seq) {
          this.schedule()
          return false
        }
        if (this.#episode) this.safeLog("warn", "the Redis cache answers again: a new era was written, entries from before it are ignored")
        this.#episode = false
        this.#suspect = false
        clearTimeout(this.#timer)
        this.#timer = undefined
        return true
      },
      (err: unknown) => {
        // Trouble in its own right (a renewal after an unknown write failed: entries may be stale).
        this.trouble(err)
        return false
      },
    )
    const attempt = { seq, done }
    this.#recovering = attempt
    void done.finally(() => {
      if (this.#recovering === attempt) this.#recovering = undefined
    })
    return done
  }

  private schedule(): void {
    if (this.#timer !== undefined) return
    const timer = setTimeout(() => {
      this.#timer = undefined
      if (this.#suspect && this.commands.ready) void this.recover()
      else if (this.#suspect) this.schedule()
    }, this.retryMs)
    timer.unref?.()
    this.#timer = timer
  }

  private safeLog(level: "warn" | "error", ...message: unknown[]): void {
    try {
      this.logger[level]("AuthlibRedisError", ...message)
    } catch {
      // A broken logger must not break the cache, which must not break sign-in.
    }
  }
}
