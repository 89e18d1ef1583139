/**
 * Node's own CPU per operation of the database bench, with the database answers replayed from
 * memory (not part of `pnpm bench`): each implementation first runs the operation against the
 * server, its answers recorded by statement text; then the pool answers every statement with the
 * last recorded rows, without a round trip, and the loop's CPU is node's work alone (the library,
 * the request and response objects, the driver's calls left out). Shows what is left between
 * `Auth()` and the floor's handler once the server is out of the picture.
 *
 *   cd bench && node --import tsx db-replay.ts ["credentials sign-in"] [3000] [authlib,floor]
 *   PROFILE=/tmp/prof.cpuprofile node --import tsx db-replay.ts "e-mail link completion" 5000 authlib
 *
 * With `PROFILE`, the replayed loop of the first implementation named (only it) is profiled with
 * the inspector and written there.
 */
import { writeFileSync } from "node:fs"
import { Session } from "node:inspector/promises"
import pg from "pg"
import { migrate } from "@authlib/xata-adapter"
import { authlibImplementation } from "./db-authlib.js"
import { OPERATIONS, type Implementation, type Op, type Operation } from "./db-fixture.js"
import { floorImplementation } from "./db-floor.js"
import { countedPool, startDbServer, type CountedPool } from "./db-server.js"

const [only, times = "3000", which = "authlib,floor"] = process.argv.slice(2)
const operations = only ? [only as Operation] : [...OPERATIONS]
for (const o of operations) if (!OPERATIONS.includes(o)) throw new Error(`operation: one of ${OPERATIONS.join(", ")}`)
const n = Number(times)

type Query = (...args: unknown[]) => Promise<{ rows: unknown[] }>
const textOf = (args: unknown[]) => (typeof args[0] === "string" ? args[0] : (args[0] as { text: string }).text)

/** Records the pool's answers by statement text; `replay()` then answers from them. */
function recorder(counted: CountedPool) {
  const live = counted.pool.query as unknown as Query
  const answers = new Map<string, { rows: unknown[] }>()
  const record: Query = async (...args) => {
    const result = await live(...args)
    answers.set(textOf(args), result)
    return result
  }
  const replay: Query = (...args) => {
    counted.count++
    const result = answers.get(textOf(args))
    return result ? Promise.resolve(result) : Promise.reject(new Error(`db-replay: no recorded answer for ${textOf(args).slice(0, 80)}`))
  }
  counted.pool.query = record as never
  return {
    replay: () => void (counted.pool.query = replay as never),
    live: () => void (counted.pool.query = record as never),
  }
}

async function loop(op: Op, count: number, prepared = false): Promise<number> {
  if (!prepared) for (let i = 0; i < count; i++) await op.prepare?.()
  const cpu = process.cpuUsage()
  for (let i = 0; i < count; i++) await op.run()
  const used = process.cpuUsage(cpu)
  return (used.user + used.system) / count
}

const server = await startDbServer()
if (!server) throw new Error("needs PostgreSQL")
await server.admin.query("CREATE SCHEMA replay_xata")
const setup = new pg.Pool({ connectionString: server.url, max: 1, options: "-c search_path=replay_xata" })
await migrate(setup)
try {
  const pools = { authlib: await countedPool(server.url, "replay_xata"), floor: await countedPool(server.url, "replay_xata") }
  const ours = await authlibImplementation(pools.authlib, setup)
  const floor = await floorImplementation(pools.floor.client, setup, ours.userId, ours.device, true)
  const all: [string, Implementation, CountedPool][] = [
    ["authlib", ours, pools.authlib],
    ["floor", floor, pools.floor],
  ]
  const chosen = which.split(",").map((name) => all.find(([n]) => n === name) ?? (() => { throw new Error(`unknown ${name}`) })())
  const recorders = new Map(chosen.map(([name, , pool]) => [name, recorder(pool)]))
  const rounds = Number(process.env.REPLAY_ROUNDS ?? 5)
  for (const operation of operations) {
    const ready = chosen.filter(([, impl]) => typeof impl.ops[operation] !== "string")
    for (const [name, impl] of ready) {
      const op = impl.ops[operation] as Op
      const r = recorders.get(name)!
      r.live()
      await loop(op, 200)
      r.replay()
      await loop(op, Math.min(n, 1000)) // warm-up on replayed answers
    }
    // Rounds alternate between the implementations (the first one measured in a process pays for
    // warming the heap); the best round of each is reported.
    const best = new Map<string, { us: number; sql: number }>()
    for (let round = 0; round < rounds; round++) {
      for (const [name, impl, pool] of ready) {
        const op = impl.ops[operation] as Op
        const r = recorders.get(name)!
        r.live()
        for (let i = 0; i < n; i++) await op.prepare?.()
        r.replay()
        let session: Session | undefined
        if (process.env.PROFILE && name === chosen[0]![0] && round === rounds - 1) {
          session = new Session()
          session.connect()
          await session.post("Profiler.enable")
          await session.post("Profiler.start")
        }
        pool.count = 0
        const us = await loop(op, n, true)
        if (session) {
          const { profile } = await session.post("Profiler.stop")
          writeFileSync(process.env.PROFILE!, JSON.stringify(profile))
          session.disconnect()
        }
        if (!session && us < (best.get(name)?.us ?? Infinity)) best.set(name, { us, sql: pool.count / n })
        r.live()
      }
    }
    console.log(`${operation}: ${[...best].map(([name, b]) => `${name} ${b.us.toFixed(0)} us (${b.sql.toFixed(2)} stmt)`).join(", ")}`)
  }
} finally {
  await setup.end()
  await server.stop()
  process.exit(0)
}
