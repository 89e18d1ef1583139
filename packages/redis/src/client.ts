/**
 * The little of a Redis client this package uses: one raw command at a time (`sendCommand`, as in
 * node-redis), and, when the client has them, its readiness and its connection events. Scripts are
 * sent as `EVALSHA` and loaded with `EVAL` only when Redis does not know them (after a restart or
 * `SCRIPT FLUSH`), so a hit costs one round trip.
 */
import { createHash } from "node:crypto"
import { AuthlibRedisError } from "./errors.js"

/** A reply of Redis as node-redis answers it in RESP2 (strings, integers, arrays, null). */
export type RedisReply = string | number | null | RedisReply[]

/**
 * A connected client the app owns. A node-redis client (`createClient()` of `redis` 5 or later)
 * fits as is. Another client fits through a small wrapper (see the README for ioredis).
 */
export interface RedisClientLike {
  /**
   * Sends one command, such as `["INCRBY", "k", "1"]`, and answers its reply. The session cache
   * passes node-redis's command options `{ timeout: 0 }` as a second argument (it bounds every
   * command by its own `timeoutMs`); another client may ignore them.
   */
  sendCommand(args: string[], options?: RedisCommandOptions): Promise<unknown>
  /** Whether the client can send now (node-redis `isReady`). When `false`, nothing is sent: the call fails at once. */
  readonly isReady?: boolean
  /** Connection events (`error`, `end`, `ready`): the cache learns from them that Redis may have missed a write. */
  on?(event: string, listener: (...args: unknown[]) => void): unknown
}

/** node-redis's per-command options, as far as this package sets them. */
export interface RedisCommandOptions {
  /** Milliseconds before the client gives the command up; 0: never (the caller bounds it). */
  timeout?: number
}

/**
 * What the cache hands node-redis with each command: no timer of the client's own. node-redis 5.x
 * bounds every command by 5 s with an `AbortSignal.timeout`, whose creation and later firing (a
 * `DOMException` each, after the reply came) cost a cache hit about a twentieth of its CPU; the
 * cache's own `timeoutMs` (at most 60 s, default 250 ms) already bounds the wait.
 */
const NO_CLIENT_TIMEOUT: RedisCommandOptions = Object.freeze({ timeout: 0 })

/** A Lua script with its SHA-1, as `EVALSHA` names it. */
export interface Script {
  source: string
  sha: string
}

/** A script to run with `EVALSHA`. */
export function script(source: string): Script {
  return { source, sha: createHash("sha1").update(source).digest("hex") }
}

/** Checks that `client` can send commands. */
export function checkClient(client: unknown, owner: string): RedisClientLike {
  if (typeof (client as RedisClientLike | null)?.sendCommand !== "function") {
    throw new AuthlibRedisError(`${owner} needs { client }: a connected node-redis client (or an object with sendCommand(args))`, {
      code: "INVALID_OPTION",
      cause: { field: "client" },
    })
  }
  return client as RedisClientLike
}

/**
 * Sends commands through `client`, each bounded by `timeoutMs`, failing at once while the client is
 * not ready. With `ownTimeoutOnly`, the client is asked to set no timer of its own (`NO_CLIENT_TIMEOUT`).
 */
export class Commands {
  readonly #options: RedisCommandOptions | undefined

  constructor(
    readonly client: RedisClientLike,
    readonly timeoutMs: number,
    ownTimeoutOnly = false,
  ) {
    this.#options = ownTimeoutOnly ? NO_CLIENT_TIMEOUT : undefined
  }

  /** Whether the client says it can send now (a client that does not say is assumed ready). */
  get ready(): boolean {
    return this.client.isReady !== false
  }

  /** One command; throws `AuthlibRedisError` (`UNAVAILABLE` or `COMMAND_FAILED`). */
  async send(args: string[]): Promise<RedisReply> {
    if (!this.ready) throw new AuthlibRedisError("the Redis client is not connected", { code: "UNAVAILABLE" })
    let timer: ReturnType<typeof setTimeout> | undefined
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new AuthlibRedisError(`Redis did not answer within ${this.timeoutMs} ms`, { code: "UNAVAILABLE", cause: { command: args[0] } })),
        this.timeoutMs,
      )
    })
    try {
      const sent = this.#options ? this.client.sendCommand(args, this.#options) : this.client.sendCommand(args)
      return (await Promise.race([sent, timeout])) as RedisReply
    } catch (err) {
      if (err instanceof AuthlibRedisError) throw err
      throw new AuthlibRedisError(`Redis refused ${args[0]}: ${(err as Error)?.message ?? String(err)}`, {
        code: "COMMAND_FAILED",
        cause: { command: args[0], err: err as Error },
      })
    } finally {
      clearTimeout(timer)
    }
  }

  /** Runs `s` on `keys` and `argv`: `EVALSHA`, then `EVAL` once if Redis has not loaded it yet. */
  async run(s: Script, keys: string[], argv: string[]): Promise<RedisReply> {
    const tail = [String(keys.length), ...keys, ...argv]
    try {
      return await this.send(["EVALSHA", s.sha, ...tail])
    } catch (err) {
      if (!(err instanceof AuthlibRedisError) || !/NOSCRIPT/.test(err.message)) throw err
      return this.send(["EVAL", s.source, ...tail])
    }
  }
}

/** Checks an option that must be an integer in `[min, max]`. */
export function intOption(value: number | undefined, fallback: number, name: string, min: number, max: number): number {
  const checked = value ?? fallback
  if (!Number.isSafeInteger(checked) || checked < min || checked > max) {
    throw new AuthlibRedisError(`"${name}" must be an integer in [${min}, ${max}]`, { code: "INVALID_OPTION", cause: { field: name, received: value } })
  }
  return checked
}
