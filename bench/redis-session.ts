/**
 * What the Redis session cache buys (issue 25): `GET /auth/session` with database sessions on a
 * PostgreSQL server (`XataAdapter` over node-postgres), the database alone against
 * `withRedisCache` (a cache hit), beside the JWT path (no adapter read), in-process (`Auth()`, one
 * request at a time) and over HTTP (`@authlib/core/node`, autocannon). The SQL statements and the
 * Redis commands per request are counted on the way out of the process.
 *
 * Needs `redis-server` and PostgreSQL (`DATABASE_URL`, or the server binaries: a throwaway cluster
 * is started, as in the tests). Both run on the same machine, on loopback: a networked database
 * adds its round trip to the database-only row, which makes the cache look better, not worse.
 */
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import autocannon from "autocannon"
import pg from "pg"
import { createClient } from "redis"
import { Auth, type Adapter, type AuthConfig } from "@authlib/core"
import { toNodeHandler } from "@authlib/core/node"
import { encode } from "@authlib/jwt"
import { withRedisCache } from "@authlib/redis"
import { XataAdapter, migrate } from "@authlib/xata-adapter"
import { autocannonApart, seedSession, unpinned } from "./lib-session-stores.js"
import { findRedisServer, startRedisServer } from "@authlib/e2e-kit/redis-server"
import { startPostgres } from "@authlib/e2e-kit/pg-cluster"
import { pgSchema } from "@authlib/e2e-kit/pg-schema"
import type { BenchModule } from "./lib-bench.js"
import { fmt, measure, printFigures } from "./lib-measure.js"
import { cpuPer, parentOf, processTreeCpu } from "./lib-proc-cpu.js"

const secret = "bench-secret-bench-secret-bench-secret-0123"
const origin = "http://localhost:3000"
const quiet = { error() {}, warn() {}, debug() {} }
const DB_ONLY = "database only (PostgreSQL)"
const CACHED = "Redis cache hit"
const JWT = "JWT (no adapter read)"

const redisSession: BenchModule = {
  name: "redis-session",
  async run(options) {
    const bin = findRedisServer()
    // The servers run on every core, as on machines of their own: the bench process alone is pinned.
    const postgres = await unpinned(() => startPostgres("the redis-session bench"))
    if (!bin || !postgres) {
      console.log("SKIPPED: needs redis-server and PostgreSQL (DATABASE_URL or the server binaries)")
      return
    }
    const redisServer = await unpinned(() => startRedisServer(bin))
    const schema = pgSchema(postgres.url, "bench_redis")
    await schema.create()
    await migrate(schema.pool)
    // The postmaster (parent of a backend): its tree is every backend, counted with the HTTP runs' CPU.
    const backend = Number((await schema.pool.query("SELECT pg_backend_pid() AS pid")).rows[0]!.pid)
    postmaster = parentOf(backend)
    const redis = createClient({ url: redisServer.url })
    await redis.connect()
    const counts = { sql: 0, redis: 0 }
    const pool = schema.pool
    const countingPool = { query: (...args: unknown[]) => (counts.sql++, (pool.query as (...a: unknown[]) => unknown)(...args)), connect: () => pool.connect() }
    const countingRedis = {
      // The options too: the cache asks node-redis for no timer of its own (`{ timeout: 0 }`).
      sendCommand: (args: string[], options?: { timeout?: number }) => (counts.redis++, redis.sendCommand(args, options)),
      get isReady() {
        return redis.isReady
      },
      on: (event: string, listener: (...args: unknown[]) => void) => redis.on(event, listener),
    }
    const db = XataAdapter(countingPool as unknown as pg.Pool)
    const { user, token } = await seedSession(db)
    const databaseConfig = (adapter: Adapter): AuthConfig => ({ providers: [], secret, trustHost: true, logger: quiet, adapter, session: { strategy: "database" } })
    const jwtToken = await encode({ token: { sub: user.id, name: user.name, email: user.email }, secret, salt: "authlib.session-token" })
    const configs: Record<string, { config: AuthConfig; cookie: string }> = {
      [DB_ONLY]: { config: databaseConfig(db), cookie: `authlib.session-token=${token}` },
      [CACHED]: { config: databaseConfig(withRedisCache(db, { client: countingRedis })), cookie: `authlib.session-token=${token}` },
      [JWT]: { config: { providers: [], secret, trustHost: true, logger: quiet, session: { strategy: "jwt" } }, cookie: `authlib.session-token=${jwtToken}` },
    }
    const read = (name: string) => async () => {
      const { config, cookie } = configs[name]!
      const res = await Auth(new Request(`${origin}/auth/session`, { headers: { cookie } }), config)
      const body = (await res.json()) as { user?: { name?: string } } | null
      if (body?.user?.name !== user.name) throw new Error(`bench: ${name} answered ${JSON.stringify(body)}`)
    }
    // Round trips per request, counted over 100 requests after a first (filling) one.
    const perRequest: Record<string, string> = {}
    for (const name of Object.keys(configs)) {
      await read(name)()
      counts.sql = counts.redis = 0
      for (let i = 0; i < 100; i++) await read(name)()
      perRequest[name] = `${fmt(counts.sql / 100, 2)} SQL, ${fmt(counts.redis / 100, 2)} Redis`
    }
    const tasks = Object.fromEntries(Object.keys(configs).map((name) => [`GET /session, ${name}`, read(name)]))
    const figures = await measure(tasks, options)
    printFigures("GET /session in-process, one request at a time (latency in microseconds)", figures)
    const f = (name: string) => figures.get(`GET /session, ${name}`)!
    console.table(Object.keys(configs).map((name) => ({ path: name, "round trips per request": perRequest[name] })))
    // One request at a time is latency (a loopback round trip to another process against a JWT read
    // that decrypts nothing it has opened before): the targets (issues 25 and 38) are read over HTTP, below.
    console.log(`\nin-process, one request at a time: database only / cache hit ${fmt(f(DB_ONLY).mean / f(CACHED).mean, 2)}x (p50 ${fmt(f(DB_ONLY).p50 / f(CACHED).p50, 2)}x); ` +
      `cache hit / JWT ${fmt(f(CACHED).mean / f(JWT).mean, 2)}x (p50 ${fmt(f(CACHED).p50 / f(JWT).p50, 2)}x); the targets are read over HTTP`)
    const seconds = Number(process.env.BENCH_HTTP_SECONDS ?? 6)
    const rps: Record<string, number> = {}
    const cpu: Record<string, Record<string, number>> = {}
    for (let round = 0; round < 2; round++) {
      for (const [name, { config, cookie }] of Object.entries(configs)) {
        const run = await overHttp(config, cookie, round === 0 ? 1 : seconds / 2)
        if (run.rps >= (rps[name] ?? 0)) (rps[name] = run.rps), (cpu[name] = run.cpu)
      }
    }
    // What HTTP and the load generator cost alone: the same client against a handler that answers a fixed body.
    const bare = await overHttp(null, "", seconds / 2)
    // The same runs with the load generator in a process of its own on core 1 (beside PostgreSQL and
    // Redis): node's CPU is then the server's alone, what a deployment with its client elsewhere pays.
    const apart: Record<string, { rps: number; cpu: Record<string, number> }> = {}
    if (process.env.AUTHLIB_BENCH_PINNED) {
      for (const name of [DB_ONLY, CACHED, JWT]) apart[name] = await overHttpApart(configs[name]!.config, configs[name]!.cookie, seconds / 2)
      apart["bare HTTP (fixed body)"] = await overHttpApart(null, "", seconds / 2)
    }
    console.log(`\nGET /session over HTTP (@authlib/core/node, autocannon, 10 connections, best of a 1 s and a ${seconds / 2} s run)`)
    console.table(Object.entries(rps).map(([name, r]) => ({ path: name, "req/s": fmt(r, 0), "x database only": fmt(r / rps[DB_ONLY]!, 2) })))
    // Where the time goes: CPU per request of this process (the server and autocannon, on core 0), Redis and PostgreSQL.
    console.log("\nCPU per request over HTTP (microseconds; node = server + autocannon in this process, pinned to core 0)")
    const sides = (c: Record<string, number>) => ({ node: fmt(c.node ?? 0, 0), "redis-server": fmt(c["redis-server"] ?? 0, 0), postgres: fmt(c.postgres ?? 0, 0) })
    console.table([...Object.entries(cpu).map(([name, c]) => ({ path: name, ...sides(c) })), { path: "bare HTTP (fixed body, same client)", ...sides(bare.cpu) }])
    console.log(`bare HTTP: ${fmt(bare.rps, 0)} req/s`)
    if (Object.keys(apart).length > 0) {
      console.log("\nThe same with autocannon in its own process on core 1 (node = the server alone, on core 0; client = autocannon)")
      console.table(Object.entries(apart).map(([name, r]) => ({ path: name, "req/s": fmt(r.rps, 0), ...sides(r.cpu), client: fmt(r.cpu.client ?? 0, 0) })))
      const a = apart[DB_ONLY]!, b = apart[CACHED]!
      console.log(`client apart: cache hit / database only ${fmt(b.rps / a.rps, 2)}x req/s; server CPU per request, database only / cache hit ${fmt((a.cpu.node ?? 0) / (b.cpu.node ?? 1), 2)}x`)
    }
    console.log(`over HTTP: cache hit / database only ${fmt(rps[CACHED]! / rps[DB_ONLY]!, 2)}x req/s (target >= 2); JWT / cache hit ${fmt(rps[JWT]! / rps[CACHED]!, 2)}x (target <= 1.5)`)
    await redis.quit()
    await schema.drop()
    postgres.stop()
    await redisServer.stop()
  },
}

/** A node:http server on 127.0.0.1 answering with `config` (null: a fixed JSON body); its port and a closer. */
async function listen(config: AuthConfig | null): Promise<{ port: number; close(): Promise<void> }> {
  const handler = config ? toNodeHandler(config) : null
  const body = JSON.stringify({ user: { name: "Ada Lovelace", email: "ada@example.com" }, expires: new Date().toISOString() })
  const server: Server = createServer((req, res) => (handler ? handler(req, res) : res.writeHead(200, { "content-type": "application/json" }).end(body)))
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return {
    port: (server.address() as AddressInfo).port,
    close: async () => {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    },
  }
}

/** `overHttp` with autocannon's CLI as a child process on the last core (`autocannonApart`; the server stays on this process's core). */
async function overHttpApart(config: AuthConfig | null, cookie: string, seconds: number): Promise<{ rps: number; cpu: Record<string, number> }> {
  const { port, close } = await listen(config)
  try {
    const roots = postmaster === undefined ? [] : [postmaster]
    const before = processTreeCpu(roots)
    // Read the client's CPU while it runs (a reaped process leaves /proc).
    let last = before
    const sampler = setInterval(() => (last = processTreeCpu(roots)), 200)
    const run = await autocannonApart(`http://127.0.0.1:${port}/auth/session`, cookie, seconds).finally(() => clearInterval(sampler))
    const after = processTreeCpu(roots)
    // The client's last sample, then the rest as measured at the end.
    after.set("client", last.get("client") ?? 0)
    return { rps: run.rps, cpu: cpuPer(before, after, run.total) }
  } finally {
    await close()
  }
}

/** The PostgreSQL server's postmaster, once known. */
let postmaster: number | undefined

/** req/s of one autocannon run, and CPU per request of each process; `config` null: a fixed JSON body, no auth work. */
async function overHttp(config: AuthConfig | null, cookie: string, seconds: number): Promise<{ rps: number; cpu: Record<string, number> }> {
  const handler = config ? toNodeHandler(config) : null
  const body = JSON.stringify({ user: { name: "Ada Lovelace", email: "ada@example.com" }, expires: new Date().toISOString() })
  const server: Server = createServer((req, res) => (handler ? handler(req, res) : res.writeHead(200, { "content-type": "application/json" }).end(body)))
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  try {
    const roots = postmaster === undefined ? [] : [postmaster]
    const before = processTreeCpu(roots)
    const result = await autocannon({ url: `http://127.0.0.1:${port}/auth/session`, connections: 10, duration: seconds, headers: { cookie } })
    const after = processTreeCpu(roots)
    if (result.non2xx > 0 || result.errors > 0) throw new Error(`bench: HTTP run had ${result.non2xx} non-2xx and ${result.errors} errors`)
    return { rps: result.requests.average, cpu: cpuPer(before, after, result.requests.total) }
  } finally {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  }
}

export default redisSession
