/**
 * The combined operations of `PostgresRateLimitStore` (`hitEach`, `resetEach` of core's
 * `RateLimitStore`), each one statement: a credentials sign-in makes two round trips (its counters
 * before `authorize`, their reset after a success) instead of one per counter.
 */

/**
 * One step of `hitEach`'s statement, the CTE `s<i>`: a hit (the upsert of `HIT_SQL`) or a read
 * (cost 0: a `SELECT` that always answers one row, 0 for an unknown key), each answering `count`,
 * `reset_in_ms` and `over`. A step after the first runs only when the step before it answered a
 * row that is not over its limit, so it reads that step's answer before writing: the steps lock
 * their rows in the order given, and nothing after the first step over its limit is counted.
 * Parameters of step `i` from `$<4i+1>`: key hash, cost, window (ms), limit.
 */
function stepCte(i: number, read: boolean): string {
  const [key, cost, windowMs, limit] = [1, 2, 3, 4].map((n) => `$${4 * i + n}`)
  const after = i === 0 ? "" : `EXISTS (SELECT 1 FROM s${i - 1} WHERE NOT s${i - 1}.over)`
  if (read) {
    return `s${i} AS (
  SELECT coalesce(r.count, 0) AS count,
         coalesce(ceil(extract(epoch FROM r.reset_at - now()) * 1000)::integer, ${windowMs}::integer) AS reset_in_ms,
         coalesce(r.count, 0) >= ${limit}::integer AS over
  FROM (SELECT ${cost}::integer AS cost) one
  LEFT JOIN authlib_rate_limits r ON r.key = ${key}::text AND r.reset_at > now()
  ${after ? `WHERE ${after}` : ""})`
  }
  return `s${i} AS (
  INSERT INTO authlib_rate_limits AS r (key, count, reset_at)
  SELECT ${key}::text, ${cost}::integer, now() + ${windowMs}::integer * interval '1 millisecond'
  ${after ? `WHERE ${after}` : ""}
  ON CONFLICT (key) DO UPDATE SET
    count = CASE WHEN r.reset_at > now() THEN r.count + EXCLUDED.count ELSE EXCLUDED.count END,
    reset_at = CASE WHEN r.reset_at > now() THEN r.reset_at ELSE EXCLUDED.reset_at END
  RETURNING r.count, ceil(extract(epoch FROM r.reset_at - now()) * 1000)::integer AS reset_in_ms, r.count > ${limit}::integer AS over)`
}

/** The statement of `hitEach` for steps shaped as `shape` (`r` a read, `h` a hit, in order); rows ordered by step. */
export function hitEachSql(shape: string): string {
  const ctes = [...shape].map((kind, i) => stepCte(i, kind === "r"))
  const rows = [...shape].map((_, i) => `SELECT ${i} AS step, count, reset_in_ms FROM s${i}`)
  return `WITH ${ctes.join(",\n")}\n${rows.join("\nUNION ALL ")}\nORDER BY step`
}

/**
 * `resetEach` (`$1`: the key hashes as a JSON array; arrays are not parameters every executor
 * takes): the rows locked in the array's order first, the order `hitEach` takes them in (an
 * attempt's own counters, then the identifier's totals), so that a reset and a concurrent attempt
 * sharing the totals never wait on each other; then deleted.
 */
export const RESET_EACH_SQL = `WITH wanted AS (
  SELECT e AS key, i FROM jsonb_array_elements_text($1::jsonb) WITH ORDINALITY AS t(e, i)
), locked AS (
  SELECT r.key FROM authlib_rate_limits r JOIN wanted w ON w.key = r.key ORDER BY w.i FOR UPDATE OF r
)
DELETE FROM authlib_rate_limits WHERE key IN (SELECT key FROM locked)`
