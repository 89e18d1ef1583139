/**
 * Serves `GET /auth/session` of the redis-session bench over HTTP (`@authlib/core/node`) from this
 * process while autocannon, a child process, drives it, for a CPU profile of the server alone
 * (not part of `pnpm bench`):
 *
 *   cd bench && taskset -c 0 node --import tsx redis-profile.ts cached 20 /tmp/cached.cpuprofile
 *
 * Path `cached` (a Redis cache hit, default), `database` (the database alone) or `jwt`; then the
 * seconds of load (autocannon, 10 connections, pinned to the last core when `taskset` exists) and
 * where to write the CPU profile of the load's window (none without it: `node:inspector`'s
 * profiler, so start-up is not in it). Prints the server's CPU per request (this process, from
 * `process.cpuUsage`).
 */
import { spawn } from "node:child_process"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { writeFileSync } from "node:fs"
import { Session } from "node:inspector/promises"
import { type AuthConfig } from "@authlib/core"
import { toNodeHandler } from "@authlib/core/node"
import { encode } from "@authlib/jwt"
import { withRedisCache } from "@authlib/redis"
import { XataAdapter } from "@authlib/xata-adapter"
import { autocannonApart, seedSession, startSessionStores } from "./lib-session-stores.js"

const [which = "cached", secondsArg = "20", profilePath] = process.argv.slice(2)
if (!["cached", "database", "jwt"].includes(which)) throw new Error("path: cached, database or jwt")
const secret = "bench-secret-bench-secret-bench-secret-0123"
const quiet = { error() {}, warn() {}, debug() {} }
const mine = String(process.pid)
const stores = await startSessionStores("prof_redis")
if (!stores) throw new Error("needs redis-server and PostgreSQL")
const { redis, schema } = stores
const db = XataAdapter(schema.pool)
const { user, token } = await seedSession(db)
const base = { providers: [], secret, trustHost: true, logger: quiet }
const config: AuthConfig =
  which === "jwt" ? { ...base, session: { strategy: "jwt" } } : { ...base, adapter: which === "cached" ? withRedisCache(db, { client: redis }) : db, session: { strategy: "database" } }
const cookie = `authlib.session-token=${which === "jwt" ? await encode({ token: { sub: user.id, name: user.name, email: user.email }, secret, salt: "authlib.session-token" }) : token}`
const handler = toNodeHandler(config)
const server = createServer((req, res) => handler(req, res))
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/auth/session`
const check = await fetch(url, { headers: { cookie } })
const body = (await check.json()) as { user?: { name?: string } } | null
if (body?.user?.name !== user.name) throw new Error(`${which} answered ${JSON.stringify(body)}`)
try {
  const inspector = new Session()
  if (profilePath) {
    inspector.connect()
    await inspector.post("Profiler.enable")
    await inspector.post("Profiler.start")
  }
  // PERF_OUT: also `perf record` this process over the load (on-CPU samples; run node with --perf-basic-prof for JS names).
  const perf = process.env.PERF_OUT ? spawn("perf", ["record", "-e", "cpu-clock", "-F", "2000", "-g", "-p", mine, "-o", process.env.PERF_OUT], { stdio: "ignore" }) : undefined
  const cpu = process.cpuUsage()
  const { rps, total } = await autocannonApart(url, cookie, secondsArg)
  const used = process.cpuUsage(cpu)
  if (perf) {
    perf.kill("SIGINT")
    await new Promise((resolve) => perf.on("close", resolve))
  }
  if (profilePath) writeFileSync(profilePath, JSON.stringify((await inspector.post("Profiler.stop")).profile))
  console.log(`${which}: ${rps.toFixed(0)} req/s, server CPU ${((used.user + used.system) / total).toFixed(1)} us per request (user ${(used.user / total).toFixed(1)}, system ${(used.system / total).toFixed(1)})`)
} finally {
  server.closeAllConnections()
  server.close()
  await stores.stop()
}
