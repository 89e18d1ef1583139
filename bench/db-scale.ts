/**
 * `pnpm bench db --scale` (issue 38, target 5): whether authlib's database paths cost the same on
 * full tables as on empty ones. Two schemas on one throwaway PostgreSQL server, each with authlib
 * (`db-authlib.ts`) on its own one-connection pool: one empty, one filled in SQL with
 * `generate_series` (one statement per table) to the issue's sizes: 1,000,000 sessions, 200,000
 * users, 400,000 accounts (a credentials and an e-mail account each), 100,000 verification tokens,
 * and 100,000 passkeys. `--scale-factor=<f>` (or BENCH_SCALE_FACTOR) multiplies every size (0.1 for
 * a quick run). Then, paired round by round, `GET /session`, credentials sign-in, e-mail completion
 * and passkey sign-in on the full tables ÷ on the empty ones (target <= 1.15 each), the plan of
 * every statement those paths send on the full tables (`EXPLAIN`: index scans, no sequential scan
 * of a big table), and the memory rate-limit store's heap after 1,000,000 distinct keys.
 */
import { randomUUID } from "node:crypto"
import { setFlagsFromString } from "node:v8"
import { runInNewContext } from "node:vm"
import pg from "pg"
import { MemoryRateLimitStore } from "@authlib/core"
import { migrate } from "@authlib/xata-adapter"
import { authlibImplementation, type AuthlibFixture } from "./db-authlib.js"
import type { Operation } from "./db-fixture.js"
import { countedPool, startDbServer, type CountedPool } from "./db-server.js"
import { fmt, measure, pairedRatio, printFigures, type MeasureOptions, type Task } from "./lib-measure.js"

const OPERATIONS: Operation[] = ["GET /session", "credentials sign-in", "e-mail link completion", "passkey sign-in"]
const TARGET = 1.15

/** The issue's sizes, times the factor. */
function sizes(factor: number) {
  const users = Math.max(10, Math.round(200_000 * factor))
  return { users, accounts: 2 * users, sessions: Math.round(1_000_000 * factor), tokens: Math.round(100_000 * factor), passkeys: Math.round(users / 2) }
}
type Sizes = ReturnType<typeof sizes>

/** One statement per table (and link table), each a single `INSERT ... SELECT ... generate_series`. */
function fillStatements(n: Sizes): [string, string][] {
  const user = (g: string) => `'scale_u' || ((${g} - 1) % ${n.users} + 1)`
  return [
    ["users", `INSERT INTO authlib_users (xata_id, name, email, "emailVerified") SELECT 'scale_u' || g, 'User ' || g, 'user' || g || '@scale.example', now() FROM generate_series(1, ${n.users}) g`],
    ["accounts", `INSERT INTO authlib_accounts (xata_id, "user", type, provider, "providerAccountId")
      SELECT 'scale_a' || g, 'scale_u' || ((g + 1) / 2), CASE WHEN g % 2 = 0 THEN 'credentials' ELSE 'email' END, CASE WHEN g % 2 = 0 THEN 'credentials' ELSE 'email' END,
             CASE WHEN g % 2 = 0 THEN 'scale_u' || (g / 2) ELSE 'user' || ((g + 1) / 2) || '@scale.example' END
      FROM generate_series(1, ${n.accounts}) g`],
    ["account links", `INSERT INTO authlib_users_accounts (account, "user") SELECT 'scale_a' || g, 'scale_u' || ((g + 1) / 2) FROM generate_series(1, ${n.accounts}) g`],
    ["sessions", `INSERT INTO authlib_sessions (xata_id, "sessionToken", expires, "user", "createdAt") SELECT 'scale_s' || g, md5('s' || g), now() + interval '30 days', ${user("g")}, now() FROM generate_series(1, ${n.sessions}) g`],
    ["session links", `INSERT INTO authlib_users_sessions (session, "user") SELECT 'scale_s' || g, ${user("g")} FROM generate_series(1, ${n.sessions}) g`],
    ["verification tokens", `INSERT INTO "authlib_verificationTokens" (identifier, token, expires) SELECT 'user' || ((g - 1) % ${n.users} + 1) || '@scale.example', md5('t' || g), now() + interval '1 day' FROM generate_series(1, ${n.tokens}) g`],
    ["passkeys", `INSERT INTO authlib_authenticators ("credentialID", "user", "providerAccountId", counter, "credentialBackedUp", "credentialPublicKey", "credentialDeviceType")
      SELECT 'scale_c' || g, 'scale_u' || g, 'scale_c' || g, 0, false, 'AA==', 'singleDevice' FROM generate_series(1, ${n.passkeys}) g`],
  ]
}

async function fill(pool: pg.Pool, n: Sizes): Promise<void> {
  for (const [what, statement] of fillStatements(n)) {
    const started = performance.now()
    await pool.query(statement)
    console.log(`filled ${what} in ${((performance.now() - started) / 1000).toFixed(1)} s`)
  }
  await pool.query("ANALYZE")
}

/** Every statement one call of `op` sends on `counted`, with its plan on the full tables (not executed: no ANALYZE). */
async function explain(impl: AuthlibFixture, counted: CountedPool, setup: pg.Pool, operation: Operation): Promise<void> {
  const op = impl.ops[operation]
  if (typeof op === "string") return
  await op.prepare?.()
  counted.record = []
  await op.run()
  const sent = counted.record
  delete counted.record
  for (const { text, values } of sent) {
    const { rows } = await setup.query(`EXPLAIN (COSTS OFF) ${text}`, values)
    const plan = rows.map((r: Record<string, string>) => r["QUERY PLAN"]).join("\n    ")
    const seq = /Seq Scan on (authlib_\w+|"authlib_\w+")/.exec(plan)
    console.log(`\n${operation}: ${text.replace(/\s+/g, " ").slice(0, 100)}...\n    ${plan}${seq ? `\n    (sequential scan of ${seq[1]})` : ""}`)
  }
}

/** A full garbage collection (`--expose-gc` switched on for a fresh context). */
function collect(): void {
  setFlagsFromString("--expose-gc")
  ;(runInNewContext("gc") as () => void)()
}

/** The heap the memory store holds after `keys` distinct keys (one group, as a flood of fresh networks), the store still live. */
function memoryStoreHeap(keys: number): { heapMb: number; size: number } {
  collect()
  const before = process.memoryUsage().heapUsed
  const store = new MemoryRateLimitStore()
  for (let i = 0; i < keys; i++) store.hit(`csrf.perClient:60:198.51.${i}`, 60_000)
  collect()
  const after = process.memoryUsage().heapUsed
  return { heapMb: (after - before) / 2 ** 20, size: store.size }
}

const flag = (name: string) => process.argv.find((a) => a === `--${name}` || a.startsWith(`--${name}=`))

export async function runScale(options: MeasureOptions): Promise<void> {
  const factor = Number(flag("scale-factor")?.split("=")[1] ?? process.env.BENCH_SCALE_FACTOR ?? 1)
  const n = sizes(factor)
  console.log(`scale factor ${factor}: ${n.sessions} sessions, ${n.users} users, ${n.accounts} accounts, ${n.tokens} verification tokens, ${n.passkeys} passkeys`)
  const server = await startDbServer()
  if (!server) return console.log("SKIPPED: needs PostgreSQL (DATABASE_URL or the server binaries: apt-get install postgresql)")
  const tag = randomUUID().replace(/-/g, "").slice(0, 8)
  const schemas = { empty: `bench_empty_${tag}`, full: `bench_full_${tag}` }
  await server.admin.query(`CREATE SCHEMA ${schemas.empty}; CREATE SCHEMA ${schemas.full}`)
  const setups = Object.fromEntries(Object.entries(schemas).map(([k, s]) => [k, new pg.Pool({ connectionString: server.url, max: 1, options: `-c search_path=${s}` })])) as Record<"empty" | "full", pg.Pool>
  const pools = { empty: await countedPool(server.url, schemas.empty), full: await countedPool(server.url, schemas.full) }
  try {
    await migrate(setups.empty)
    await migrate(setups.full)
    const started = performance.now()
    await fill(setups.full, n)
    console.log(`filled in ${((performance.now() - started) / 1000).toFixed(1)} s`)
    // The full tables first in every round (a round's first task pays for the switch, if anything):
    // a ratio below 1 is then not an artefact of order. Both schemas analysed, as autovacuum would.
    const impls = { full: await authlibImplementation(pools.full, setups.full), empty: await authlibImplementation(pools.empty, setups.empty) }
    await setups.full.query("ANALYZE")
    await setups.empty.query("ANALYZE")
    const tasks: Record<string, Task> = {}
    for (const operation of OPERATIONS) {
      for (const [name, impl] of Object.entries(impls)) {
        const op = impl.ops[operation]
        if (typeof op !== "string") tasks[`${operation} | ${name} tables`] = op.prepare ? { fn: op.run, beforeEach: op.prepare } : op.run
      }
    }
    const figures = await measure(tasks, options)
    printFigures("authlib on empty and on full tables, in-process, one request at a time (latencies in microseconds)", figures)
    for (const operation of OPERATIONS) await explain(impls.full, pools.full, setups.full, operation)
    const heap = memoryStoreHeap(1_000_000)
    console.log(`\nmemory rate-limit store after 1,000,000 distinct keys of one group: ${heap.size} counters kept, heap +${fmt(heap.heapMb, 1)} MB after a full collection (bounded: the default 50,000 counters per group)`)
    const parts = OPERATIONS.map((operation) => {
      const r = pairedRatio(figures.get(`${operation} | full tables`)!, figures.get(`${operation} | empty tables`)!)
      return `${operation} ${fmt(r, 2)} (<= ${TARGET}: ${r <= TARGET ? "met" : "NOT met"})`
    })
    console.log(`targets, full ÷ empty tables (paired p50): ${parts.join(", ")}`)
  } finally {
    await Promise.all([pools.empty.end(), pools.full.end(), setups.empty.end(), setups.full.end()])
    await server.stop()
  }
}
