/**
 * `PostgresRateLimitStore`: core's `RateLimitStore` in the adapter's database, so that every
 * instance of an app counts against the same limits. One row per key (`authlib_rate_limits`,
 * migration 3); each hit is one atomic statement; keys are stored as their SHA-256.
 */
import type { RateLimitHit, RateLimitStep, RateLimitStore } from "@authlib/core"
import { XataAdapterError } from "./errors.js"
import { toExecutor, type AdapterClient, type Executor, type Row } from "./executors/index.js"
import { asNumber, first, toAdapterError, written } from "./sql/values.js"
import { hitEachSql, RESET_EACH_SQL } from "./rate-limit-steps.js"

/**
 * Counts a hit, in one statement. `now()` is the start of the statement's transaction, one instant
 * for every comparison in it (two `clock_timestamp()` calls could fall on either side of the
 * window's end and reset the count while keeping the window). Concurrent hits on one key queue on
 * the row lock and each re-reads the row another committed, so N hits answer N distinct counts; the
 * first hit of a key, or the first after its window ended, starts a window of `$3` ms.
 */
export const HIT_SQL = `INSERT INTO authlib_rate_limits AS r (key, count, reset_at)
VALUES ($1::text, $2::integer, now() + $3::integer * interval '1 millisecond')
ON CONFLICT (key) DO UPDATE SET
  count = CASE WHEN r.reset_at > now() THEN r.count + EXCLUDED.count ELSE EXCLUDED.count END,
  reset_at = CASE WHEN r.reset_at > now() THEN r.reset_at ELSE EXCLUDED.reset_at END
RETURNING r.count, ceil(extract(epoch FROM r.reset_at - now()) * 1000)::integer AS reset_in_ms`

/** A read (`cost` 0): never writes, so a read of an unknown key leaves no row behind. */
const READ_SQL = `SELECT count, ceil(extract(epoch FROM reset_at - now()) * 1000)::integer AS reset_in_ms
FROM authlib_rate_limits WHERE key = $1::text AND reset_at > now()`

const RESET_SQL = `DELETE FROM authlib_rate_limits WHERE key = $1::text`

/**
 * Deletes at most `$1` ended windows. `SKIP LOCKED` leaves rows a hit holds right now (it is about to
 * restart them); the outer `reset_at <= now()` is re-checked on the row as it is when deleted, so a
 * window a hit restarted in between is never swept.
 */
const SWEEP_SQL = `WITH swept AS (
  DELETE FROM authlib_rate_limits WHERE reset_at <= now() AND key IN (
    SELECT key FROM authlib_rate_limits WHERE reset_at <= now() ORDER BY reset_at LIMIT $1::integer FOR UPDATE SKIP LOCKED)
  RETURNING 1)
SELECT count(*)::integer AS swept FROM swept`

/** Where a failed sweep is reported: core's `logger` (its `error`) or `console` fit. */
export interface RateLimitStoreLogger {
  error(code: string, ...message: unknown[]): void
}

/** Options of `PostgresRateLimitStore`. */
export interface PostgresRateLimitStoreOptions {
  /**
   * Least time between two sweeps of ended windows by this store object, in milliseconds: the first
   * hit after it has passed starts one, without waiting for it. Default 60 000.
   */
  sweepIntervalMs?: number
  /** Most rows one sweep deletes (a bounded statement, even after a flood of keys). Default 1 000. */
  sweepLimit?: number
  /** Receives a failed sweep, which never fails the hit that started it. Default: `console.error`. */
  logger?: RateLimitStoreLogger
}

/** The store as `PostgresRateLimitStore` returns it: core's methods, combined ones included, plus `sweep`. */
export interface PostgresRateLimitStoreMethods extends RateLimitStore {
  hit(key: string, windowMs: number, cost?: number): Promise<RateLimitHit>
  reset(key: string): Promise<void>
  /** Counts the steps in one statement, in order, stopping after the first over its limit (see `RateLimitStore.hitEach`). */
  hitEach(steps: readonly RateLimitStep[]): Promise<RateLimitHit[]>
  /** Forgets every key in one statement. */
  resetEach(keys: readonly string[]): Promise<void>
  /** Deletes up to `sweepLimit` ended windows now and answers how many (for a scheduled job, if you prefer one). */
  sweep(): Promise<number>
}

/** The longest window and highest cost an `integer` parameter holds (about 24.8 days in milliseconds). */
const MAX_INT = 2_147_483_647

const encoder = new TextEncoder()

/** The hex SHA-256 of `key`, on WebCrypto: it runs wherever the Xata client runs (Node, edge, browsers). */
export async function hashRateLimitKey(key: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(key)))
  let hex = ""
  for (const byte of digest) hex += byte.toString(16).padStart(2, "0")
  return hex
}

function invalid(field: string, rule: string, received: unknown): XataAdapterError {
  return new XataAdapterError(`"${field}" must be ${rule}`, { code: "INVALID_INPUT", cause: { field, received } })
}

/** Checks a hit's arguments; a fractional window is rounded up to whole milliseconds. */
function hitParams(key: unknown, windowMs: unknown, cost: unknown): { windowMs: number; cost: number } {
  if (typeof key !== "string") throw invalid("key", "a string", typeof key)
  if (typeof windowMs !== "number" || !(windowMs > 0) || Math.ceil(windowMs) > MAX_INT) {
    throw invalid("windowMs", `a number of milliseconds in (0, ${MAX_INT}]`, windowMs)
  }
  if (typeof cost !== "number" || !Number.isInteger(cost) || cost < 0 || cost > MAX_INT) {
    throw invalid("cost", `an integer in [0, ${MAX_INT}]`, cost)
  }
  return { windowMs: Math.ceil(windowMs), cost }
}

/** A counter row as core's `RateLimitHit`. */
function toHit(row: Row, windowMs: number): RateLimitHit {
  // Bounded to (0, windowMs]: a hit that waited on the row lock measures from its own, earlier start.
  const resetInMs = Math.min(windowMs, Math.max(1, asNumber(row.reset_in_ms) ?? windowMs))
  return { count: asNumber(row.count) ?? 0, resetInMs }
}

const consoleLogger: RateLimitStoreLogger = { error: (code, ...message) => console.error(`[authlib][error][${code}]`, ...message) }

/** Runs `sweep` at most once per `intervalMs`, in the background, reporting failures to `logger`. */
function sweeper(sweep: () => Promise<number>, intervalMs: number, logger: RateLimitStoreLogger): () => void {
  let nextAt = 0
  return () => {
    const now = Date.now()
    if (now < nextAt) return
    nextAt = now + intervalMs
    sweep().catch((err: unknown) => {
      try {
        logger.error("XataAdapterError", err)
      } catch {
        // A broken logger must not turn a failed clean-up into an unhandled rejection.
      }
    })
  }
}

function checkedOption(value: number | undefined, fallback: number, name: string): number {
  const checked = value ?? fallback
  if (!Number.isSafeInteger(checked) || checked < 1) throw invalid(name, "an integer >= 1", value)
  return checked
}

async function rows(db: Executor, statement: string, params: (string | number)[]): Promise<Row[]> {
  try {
    return await db.query(statement, params)
  } catch (err) {
    throw toAdapterError(err)
  }
}

const query = async (db: Executor, statement: string, params: (string | number)[]): Promise<Row | null> => first(await rows(db, statement, params))

/** `hitEach`'s statements by shape (`r`/`h` per step): a few shapes per app. */
const hitEachStatements = new Map<string, string>()

/** The statement and parameters of `hitEach` for `steps` (checked as `hit` checks its arguments). */
async function hitEachCall(steps: readonly RateLimitStep[]): Promise<{ statement: string; params: (string | number)[]; windows: number[] }> {
  if (!Array.isArray(steps) || steps.length === 0 || steps.length > 32) throw invalid("steps", "an array of 1 to 32 steps", Array.isArray(steps) ? steps.length : typeof steps)
  const checked = steps.map((step) => {
    const { windowMs, cost } = hitParams(step?.key, step?.windowMs, step?.cost ?? 1)
    if (!Number.isInteger(step.limit) || step.limit < 0 || step.limit > MAX_INT) throw invalid("limit", `an integer in [0, ${MAX_INT}]`, step.limit)
    return { windowMs, cost, limit: step.limit }
  })
  const hashes = await Promise.all(steps.map((step) => hashRateLimitKey(step.key)))
  const shape = checked.map((step) => (step.cost === 0 ? "r" : "h")).join("")
  let statement = hitEachStatements.get(shape)
  if (statement === undefined) hitEachStatements.set(shape, (statement = hitEachSql(shape)))
  const params = checked.flatMap((step, i) => [hashes[i]!, step.cost, step.windowMs, step.limit])
  return { statement, params, windows: checked.map((step) => step.windowMs) }
}

/**
 * A `RateLimitStore` in the adapter's database: a `XataClient`, a PGlite instance, or a
 * node-postgres `Pool`/`Client` (not one inside an open transaction: windows are measured with the
 * transaction's start time, `now()`). Run `migrate(client)` first (migration 3 creates its table).
 *
 * - Each hit is one `INSERT ... ON CONFLICT DO UPDATE ... RETURNING` (`HIT_SQL`): atomic on every
 *   client and across every instance sharing the database, timed by the database clock.
 * - `cost` 0 is a `SELECT`: it never creates a row, and answers `{ count: 0, resetInMs: windowMs }`
 *   for an unknown key or one whose window has ended.
 * - Keys are stored as their hex SHA-256 (core's keys may hold an e-mail address or a network).
 * - Ended windows are never counted, and are deleted by a bounded sweep that the first hit after
 *   every `sweepIntervalMs` starts in the background (no cron job). A failed sweep is logged, never thrown.
 *
 * @example
 * ```ts
 * import { XataAdapter, PostgresRateLimitStore } from "@authlib/xata-adapter"
 * export const authConfig = { adapter: XataAdapter(pool), rateLimit: { store: PostgresRateLimitStore(pool) }, providers: [...] }
 * ```
 */
export function PostgresRateLimitStore(client: AdapterClient, options: PostgresRateLimitStoreOptions = {}): PostgresRateLimitStoreMethods {
  const db = toExecutor(client)
  const interval = checkedOption(options.sweepIntervalMs, 60_000, "sweepIntervalMs")
  const limit = checkedOption(options.sweepLimit, 1_000, "sweepLimit")
  const sweep = async () => asNumber((await query(db, SWEEP_SQL, [limit]))?.swept) ?? 0
  const maybeSweep = sweeper(sweep, interval, options.logger ?? consoleLogger)
  return {
    async hit(key, windowMs, cost = 1) {
      const params = hitParams(key, windowMs, cost)
      const hashed = await hashRateLimitKey(key)
      if (params.cost === 0) {
        const row = await query(db, READ_SQL, [hashed])
        return row === null ? { count: 0, resetInMs: params.windowMs } : toHit(row, params.windowMs)
      }
      const row = written(await query(db, HIT_SQL, [hashed, params.cost, params.windowMs]), "rate-limit count")
      maybeSweep()
      return toHit(row, params.windowMs)
    },
    async reset(key) {
      if (typeof key !== "string") throw invalid("key", "a string", typeof key)
      await query(db, RESET_SQL, [await hashRateLimitKey(key)])
    },
    async hitEach(steps) {
      const { statement, params, windows } = await hitEachCall(steps)
      const answered = await rows(db, statement, params)
      // Rows of the steps counted, in order: the first k steps, k >= 1.
      if (answered.length === 0 || answered.some((row, i) => asNumber(row.step) !== i)) written(null, "rate-limit counts")
      maybeSweep()
      return answered.map((row, i) => toHit(row, windows[i]!))
    },
    async resetEach(keys) {
      if (!Array.isArray(keys) || keys.some((key) => typeof key !== "string")) throw invalid("keys", "an array of strings", typeof keys)
      if (keys.length === 0) return
      await rows(db, RESET_EACH_SQL, [JSON.stringify(await Promise.all(keys.map(hashRateLimitKey)))])
    },
    sweep,
  }
}
