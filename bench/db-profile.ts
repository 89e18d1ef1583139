/**
 * Runs one operation of the database bench many times, for a CPU profile of where node's time
 * goes (not part of `pnpm bench`):
 *
 *   cd bench && node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx db-profile.ts "credentials sign-in" 3000
 *
 * Implementation `authlib` by default; a third argument picks `floor`, `prepared` (the floor with
 * named prepared statements) or `authjs`.
 */
import pg from "pg"
import { migrate } from "@authlib/xata-adapter"
import { authjsImplementation } from "./db-authjs.js"
import { authlibImplementation } from "./db-authlib.js"
import { OPERATIONS, type Implementation, type Operation } from "./db-fixture.js"
import { floorImplementation } from "./db-floor.js"
import { countedPool, startDbServer } from "./db-server.js"

const [operation = "credentials sign-in", times = "2000", which = "authlib"] = process.argv.slice(2)
if (!OPERATIONS.includes(operation as Operation)) throw new Error(`operation: one of ${OPERATIONS.join(", ")}`)
const server = await startDbServer()
if (!server) throw new Error("needs PostgreSQL")
await server.admin.query("CREATE SCHEMA prof_xata; CREATE SCHEMA prof_authjs")
const setup = new pg.Pool({ connectionString: server.url, max: 1, options: "-c search_path=prof_xata" })
const authjsSetup = new pg.Pool({ connectionString: server.url, max: 1, options: "-c search_path=prof_authjs" })
await migrate(setup)
const pool = await countedPool(server.url, which === "authjs" ? "prof_authjs" : "prof_xata")
try {
  const ours = await authlibImplementation(which === "authlib" ? pool : await countedPool(server.url, "prof_xata"), setup)
  const impl: Implementation = which === "floor" || which === "prepared" ? await floorImplementation(pool.client, setup, ours.userId, ours.device, which === "prepared") : which === "authjs" ? await authjsImplementation(pool, authjsSetup) : ours
  const op = impl.ops[operation as Operation]
  if (typeof op === "string") throw new Error(op)
  const n = Number(times)
  for (let i = 0; i < n; i++) await op.prepare?.()
  const cpu = process.cpuUsage()
  const started = performance.now()
  for (let i = 0; i < n; i++) await op.run()
  const used = process.cpuUsage(cpu)
  console.log(`${which} ${operation}: ${((performance.now() - started) * 1000 / n).toFixed(0)} us per call, node CPU ${((used.user + used.system) / n).toFixed(0)} us, ${(pool.count / n).toFixed(2)} statements`)
} finally {
  await server.stop()
  process.exit(0)
}
