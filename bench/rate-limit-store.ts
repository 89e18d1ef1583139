/**
 * `PostgresRateLimitStore` (`@authlib/xata-adapter`) on PGlite, in this process: `hit` one after
 * another and 10 at once, a read (`cost` 0), and as the reference measured in the same run on the
 * same database, a plain `SELECT 1` round trip (one after another and 10 at once). A hit is one
 * statement, so the ratio to `SELECT 1` is what the statement and the key's SHA-256 cost on top of
 * a round trip (the SHA-256 alone is measured too). PGlite runs one statement at a time, so "10 at once" measures queueing, not
 * parallelism; on a PostgreSQL server the hits of different keys run side by side.
 *
 * Short on purpose (at most 5 rounds): PGlite starts in a few seconds, the measuring takes about 4.
 */
import { PGlite } from "@electric-sql/pglite"
import { PostgresRateLimitStore, migrate } from "@authlib/xata-adapter"
import type { BenchModule } from "./lib-bench.js"
import { fmt, measure, printFigures, type Figures } from "./lib-measure.js"

const WINDOW_MS = 60_000
/** Distinct keys hit in turn, as distinct addresses and networks would be. */
const KEYS = Array.from({ length: 1000 }, (_, i) => `signin:email:user-${i}@example.com`)
const BATCH = 10
const encoder = new TextEncoder()

const rateLimitStore: BenchModule = {
  name: "rate-limit-store",
  async run(options) {
    const started = performance.now()
    const db = new PGlite()
    await migrate(db)
    console.log(`PGlite ready and migrated in ${fmt((performance.now() - started) / 1000)} s (not measured)`)
    const store = PostgresRateLimitStore(db)
    let next = 0
    const key = () => KEYS[next++ % KEYS.length]!
    const hit = async (cost?: number) => {
      const answer = await store.hit(key(), WINDOW_MS, cost)
      if (!(answer.resetInMs > 0) || (cost !== 0 && !(answer.count >= 1))) throw new Error(`bench: hit answered ${JSON.stringify(answer)}`)
    }
    const select1 = async () => {
      const { rows } = await db.query<{ one: number }>("SELECT 1 AS one")
      if (rows[0]?.one !== 1) throw new Error("bench: SELECT 1 answered something else")
    }
    const batch = (call: () => Promise<void>) => async () => void (await Promise.all(Array.from({ length: BATCH }, call)))
    const tasks = {
      "hit, one after another": () => hit(),
      "read (cost 0), one after another": () => hit(0),
      "SELECT 1, one after another (reference)": select1,
      [`hit, ${BATCH} at once`]: batch(() => hit()),
      [`SELECT 1, ${BATCH} at once (reference)`]: batch(select1),
      // The part of each call spent on the key's SHA-256 (WebCrypto, as the store does it).
      "SHA-256 of a key (WebCrypto)": () => crypto.subtle.digest("SHA-256", encoder.encode(key())),
    }
    for (const task of Object.values(tasks)) await task()
    const figures = await measure(tasks, { ...options, rounds: Math.min(options.rounds ?? 15, 5) })
    await db.close()
    printFigures(`PostgresRateLimitStore on PGlite (latency per call or per batch of ${BATCH}, microseconds)`, figures)
    report(figures)
  },
}

/** Operations per second (a batch counts as `BATCH`) and the time of each against its reference. */
function report(figures: Map<string, Figures>): void {
  const get = (name: string) => figures.get(name)!
  const rows: [string, Figures, number, Figures][] = [
    ["hit, one after another", get("hit, one after another"), 1, get("SELECT 1, one after another (reference)")],
    ["read (cost 0), one after another", get("read (cost 0), one after another"), 1, get("SELECT 1, one after another (reference)")],
    [`hit, ${BATCH} at once`, get(`hit, ${BATCH} at once`), BATCH, get(`SELECT 1, ${BATCH} at once (reference)`)],
  ]
  console.log("\n| operation | ops/s | SELECT 1 ops/s | time / SELECT 1 time, mean (p50) |\n| --- | ---: | ---: | --- |")
  for (const [name, f, per, ref] of rows) {
    const ratio = `${fmt(f.mean / ref.mean, 2)} (${fmt(f.p50 / ref.p50, 2)})`
    console.log(`| ${name} | ${fmt(f.ops * per, 0)} | ${fmt(ref.ops * per, 0)} | ${ratio} |`)
  }
}

export default rateLimitStore
