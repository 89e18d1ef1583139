/**
 * Paired A/B of the redis-session bench's HTTP paths in one process (not part of `pnpm bench`): two
 * builds of `@authlib/core` (its node adapter) and `@authlib/redis`, each serving `GET
 * /auth/session` on the database alone and on a Redis cache hit, driven in turn by autocannon in a
 * child process (pinned to the last core), round after round. Prints the server's CPU per request
 * (this process, `process.cpuUsage`) and req/s per path and build, medians over rounds.
 *
 *   cd bench && AB_BEFORE_CORE=/path/to/core/dist AB_BEFORE_REDIS=/path/to/redis/dist \
 *     taskset -c 0 node --import tsx redis-ab.ts 7 2
 *
 * Arguments: rounds (default 7) and seconds per run (default 2); AB_PAUSE_MS (default 6000) pauses
 * before each run; AB_JWT=1 adds the JWT read (no store) of each build. The "before" builds are `dist`
 * folders placed where their own imports resolve (a copy under the package's `node_modules`).
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { pathToFileURL } from "node:url"
import type { Adapter, AuthConfig } from "@authlib/core"
import * as afterNode from "@authlib/core/node"
import * as afterRedis from "@authlib/redis"
import { XataAdapter } from "@authlib/xata-adapter"
import { encode } from "@authlib/jwt"
import { autocannonApart, seedSession, startSessionStores } from "./lib-session-stores.js"

const [roundsArg = "7", secondsArg = "2"] = process.argv.slice(2)
const beforeCore = process.env.AB_BEFORE_CORE
const beforeRedis = process.env.AB_BEFORE_REDIS
if (!beforeCore || !beforeRedis) throw new Error("AB_BEFORE_CORE and AB_BEFORE_REDIS: the dist folders of the builds to compare against")
const beforeNode = (await import(pathToFileURL(`${beforeCore}/node/index.js`).href)) as typeof afterNode
const beforeRedisModule = (await import(pathToFileURL(`${beforeRedis}/index.js`).href)) as typeof afterRedis
const secret = "bench-secret-bench-secret-bench-secret-0123"
const quiet = { error() {}, warn() {}, debug() {} }
const stores = await startSessionStores("ab_redis")
if (!stores) throw new Error("needs redis-server and PostgreSQL")
const { redis, schema } = stores
const db = XataAdapter(schema.pool)
const { user, token } = await seedSession(db)
const databaseCookie = `authlib.session-token=${token}`
const jwtCookie = `authlib.session-token=${await encode({ token: { sub: user.id, name: user.name, email: user.email }, secret, salt: "authlib.session-token" })}`
const configOf = (adapter: Adapter): AuthConfig => ({ providers: [], secret, trustHost: true, logger: quiet, adapter, session: { strategy: "database" } })
const jwtConfig: AuthConfig = { providers: [], secret, trustHost: true, logger: quiet, session: { strategy: "jwt" } }
const variants: Record<string, (req: IncomingMessage, res: ServerResponse) => void> = {
  "database, before": beforeNode.toNodeHandler(configOf(db)),
  "database, after": afterNode.toNodeHandler(configOf(db)),
  "cache hit, before": beforeNode.toNodeHandler(configOf(beforeRedisModule.withRedisCache(db, { client: redis, prefix: "ab:before:" }))),
  "cache hit, after": afterNode.toNodeHandler(configOf(afterRedis.withRedisCache(db, { client: redis, prefix: "ab:after:" }))),
  ...(process.env.AB_JWT === "1" ? { "jwt, before": beforeNode.toNodeHandler(jwtConfig), "jwt, after": afterNode.toNodeHandler(jwtConfig) } : {}),
}
const cookieOf = (name: string) => (name.startsWith("jwt") ? jwtCookie : databaseCookie)
const servers: Record<string, { url: string; close(): void }> = {}
for (const [name, handler] of Object.entries(variants)) {
  const cookie = cookieOf(name)
  const server = createServer((req, res) => handler(req, res))
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/auth/session`
  const body = (await (await fetch(url, { headers: { cookie } })).json()) as { user?: { name?: string } } | null
  if (body?.user?.name !== user.name) throw new Error(`${name} answered ${JSON.stringify(body)}`)
  servers[name] = { url, close: () => (server.closeAllConnections(), server.close()) }
}
async function run(url: string, cookie: string, seconds: string): Promise<{ rps: number; cpu: number }> {
  const cpu = process.cpuUsage()
  const { rps, total } = await autocannonApart(url, cookie, seconds)
  const used = process.cpuUsage(cpu)
  return { rps, cpu: (used.user + used.system) / total }
}
const pauseMs = Number(process.env.AB_PAUSE_MS ?? 6000)
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const names = Object.keys(variants)
const figures: Record<string, { rps: number[]; cpu: number[] }> = Object.fromEntries(names.map((n) => [n, { rps: [], cpu: [] }]))
try {
  for (const name of names) await run(servers[name]!.url, cookieOf(name), "1") // warm-up
  for (let round = 0; round < Number(roundsArg); round++) {
    // Reversed every other round: each build takes both positions.
    for (const name of round % 2 ? [...names].reverse() : names) {
      // A pause lets what a run left behind (node-redis's 5 s command timers) settle outside the next run.
      await new Promise((resolve) => setTimeout(resolve, pauseMs))
      const r = await run(servers[name]!.url, cookieOf(name), secondsArg)
      figures[name]!.rps.push(r.rps)
      figures[name]!.cpu.push(r.cpu)
    }
  }
  console.log(`load average ${(await import("node:os")).loadavg().map((l) => l.toFixed(2)).join(" ")}`)
  console.table(names.map((n) => ({ variant: n, "server CPU us/request (median)": median(figures[n]!.cpu).toFixed(1), "req/s (median)": median(figures[n]!.rps).toFixed(0), "CPU per round": figures[n]!.cpu.map((c) => c.toFixed(0)).join(" ") })))
  for (const build of ["before", "after"]) {
    const d = figures[`database, ${build}`]!, c = figures[`cache hit, ${build}`]!
    const paired = d.cpu.map((x, i) => x / c.cpu[i]!)
    console.log(`${build}: database / cache hit, server CPU per request ${median(paired).toFixed(2)} (paired median), req/s ${(median(c.rps) / median(d.rps)).toFixed(2)}`)
  }
} finally {
  for (const s of Object.values(servers)) s.close()
  await stores.stop()
}
