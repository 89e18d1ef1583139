/**
 * `pnpm bench nextjs`: a protected server-rendered page of a Next.js 16 app (the proxy checks the
 * session with `callbacks.authorized`, then the page's server component reads it with `auth()`),
 * built with `next build` and served by `next start`, with authlib (`@authlib/nextjs`) and with
 * `next-auth@5.0.0-beta.32`, the same app otherwise (`nextjs-apps/`). JWT sessions (a cookie sealed
 * by each library's own `encode`), and database sessions (authlib's xata adapter and
 * `@auth/pg-adapter`, their tables side by side on one throwaway PostgreSQL server; a session row
 * made beforehand for each).
 *
 * Each server is checked first (Ada's page for her cookie, a redirect without one), then loaded for
 * 15 s unmeasured (a fresh `next start` runs cold code: its CPU per request keeps falling for some
 * 20 s). Beside requests/s, each run reads the server process's CPU time (`/proc/<pid>/stat`) per
 * request: on a machine shared with other work, requests/s follow the share of the core the server
 * got, while CPU per request does not (much), so its ratio says what a dedicated core would serve. Load: autocannon in a second process, pinned to the other core (`taskset -c 1` when it exists;
 * the servers run where the bench runs, core 0). Paired rounds: each round loads both servers one
 * after the other (the order alternating), so the machine's other work weighs on both; the ratio
 * is authlib's requests/s over next-auth's, per round, then the median. Target (issue 34): >= 1.1x.
 * `BENCH_NEXT_ROUNDS` (default 6) and `BENCH_NEXT_SECONDS` (default 5) per round and server.
 */
import { encode as authjsEncode } from "@auth/core/jwt"
import { freePort } from "@authlib/e2e-kit/free-port"
import { findPgBin, startPgCluster, type PgCluster } from "@authlib/e2e-kit/pg-cluster"
import { encode } from "@authlib/jwt"
import { migrate, XataAdapter } from "@authlib/xata-adapter"
import { execFile, spawn, spawnSync, type ChildProcess } from "node:child_process"
import { createHash, randomBytes } from "node:crypto"
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs"
import { dirname, join, relative } from "node:path"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import pg from "pg"
import type { BenchModule } from "./lib-bench.js"

const run = promisify(execFile)
const here = dirname(fileURLToPath(import.meta.url))
const repo = join(here, "..")
const nextBin = join(here, "node_modules/next/dist/bin/next")
const autocannonBin = join(here, "node_modules/autocannon/autocannon.js")
const SECRET = "bench-nextjs-secret-0123456789abcdefghijklmnop"
const ADA = { id: "bench-ada", name: "Ada Lovelace", email: "ada.lovelace@example.com" }
const TARGET = 1.1
/** Load before the measured rounds: the first seconds of a fresh `next start` run cold code. */
const WARM_UP_SECONDS = 15

type Impl = "authlib" | "next-auth"
type Strategy = "jwt" | "database"
const IMPLS: Impl[] = ["authlib", "next-auth"]
const LABEL: Record<Impl, string> = { authlib: "@authlib/nextjs", "next-auth": "next-auth@5.0.0-beta.32" }

/** `@auth/pg-adapter`'s schema, as its documentation gives it. */
const PG_ADAPTER_SCHEMA = [
  `CREATE TABLE IF NOT EXISTS verification_token (identifier TEXT NOT NULL, expires TIMESTAMPTZ NOT NULL, token TEXT NOT NULL, PRIMARY KEY (identifier, token))`,
  `CREATE TABLE IF NOT EXISTS accounts (id SERIAL, "userId" INTEGER NOT NULL, type VARCHAR(255) NOT NULL, provider VARCHAR(255) NOT NULL, "providerAccountId" VARCHAR(255) NOT NULL,
    refresh_token TEXT, access_token TEXT, expires_at BIGINT, id_token TEXT, scope TEXT, session_state TEXT, token_type TEXT, PRIMARY KEY (id))`,
  `CREATE TABLE IF NOT EXISTS sessions (id SERIAL, "userId" INTEGER NOT NULL, expires TIMESTAMPTZ NOT NULL, "sessionToken" VARCHAR(255) NOT NULL, PRIMARY KEY (id))`,
  `CREATE TABLE IF NOT EXISTS users (id SERIAL, name VARCHAR(255), email VARCHAR(255), "emailVerified" TIMESTAMPTZ, image TEXT, PRIMARY KEY (id))`,
]

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    // What `next build` itself writes (next-env.d.ts) and the stamp are no source.
    if ([".next", "node_modules", "next-env.d.ts", ".bench-hash"].includes(entry.name)) return []
    const path = join(dir, entry.name)
    return entry.isDirectory() ? files(path) : [path]
  })
}

/** `next build` of an app unless its `.next` holds the build of these sources and packages. */
function build(impl: Impl): void {
  const dir = join(here, "nextjs-apps", impl)
  const hash = createHash("sha256")
  const dists = impl === "authlib" ? ["nextjs", "core", "jwt", "providers", "xata-adapter"].map((p) => join(repo, "packages", p, "dist")) : []
  for (const file of [...files(dir), ...dists.flatMap(files)].sort()) hash.update(relative(repo, file)).update(readFileSync(file))
  const digest = hash.digest("hex")
  const stamp = join(dir, ".bench-hash")
  if (existsSync(stamp) && readFileSync(stamp, "utf8") === digest && existsSync(join(dir, ".next/BUILD_ID"))) return
  console.log(`next build of ${impl} ...`)
  const result = spawnSync(process.execPath, [nextBin, "build"], { cwd: dir, env: serverEnv({}), encoding: "utf8", timeout: 400_000 })
  if (result.status !== 0) throw new Error(`next build of ${impl} failed:\n${result.stdout}\n${result.stderr}`)
  writeFileSync(stamp, digest)
}

function serverEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [key, value] of Object.entries(process.env)) if (!/^(npm_|pnpm_|AUTH_|WEBAUTH_|NEXTAUTH_|NODE_OPTIONS$|DATABASE_URL$)/i.test(key)) env[key] = value
  return { ...env, NEXT_TELEMETRY_DISABLED: "1", NODE_ENV: "production", ...extra }
}

interface Server {
  url: string
  /** utime + stime of the server process so far, in milliseconds (Linux; 0 elsewhere). */
  cpuMs(): number
  stop(): Promise<void>
}

function cpuMsOf(pid: number | undefined): number {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, "utf8")
    const fields = text.slice(text.lastIndexOf(")") + 2).split(" ")
    return (Number(fields[11]) + Number(fields[12])) * 10 // USER_HZ 100
  } catch {
    return 0
  }
}

/** `next start` of an app with `strategy`; resolves once it answers. */
async function start(impl: Impl, strategy: Strategy, databaseUrl: string | undefined): Promise<Server> {
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  const child: ChildProcess = spawn(process.execPath, [nextBin, "start", "-H", "127.0.0.1", "-p", String(port)], {
    cwd: join(here, "nextjs-apps", impl),
    env: serverEnv({ AUTH_SECRET: SECRET, BENCH_STRATEGY: strategy, ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) }),
    stdio: ["ignore", "pipe", "pipe"],
  })
  let output = ""
  child.stdout!.on("data", (c) => (output += c))
  child.stderr!.on("data", (c) => (output += c))
  const stop = async () => {
    if (child.exitCode !== null) return
    const exited = new Promise((r) => child.once("exit", r))
    child.kill("SIGTERM")
    await Promise.race([exited, new Promise((r) => setTimeout(r, 3000))])
    if (child.exitCode === null) child.kill("SIGKILL")
  }
  const deadline = Date.now() + 60_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break
    try {
      await fetch(`${url}/api/auth/csrf`)
      return { url, cpuMs: () => cpuMsOf(child.pid), stop }
    } catch {
      await new Promise((r) => setTimeout(r, 200))
    }
  }
  await stop()
  throw new Error(`next start of ${impl} did not answer:\n${output}`)
}

/** The session cookie of Ada for `impl` under `strategy`: sealed by the library's own `encode`, or a stored session's token. */
async function sessionCookie(impl: Impl, strategy: Strategy, pool: pg.Pool | undefined): Promise<string> {
  const name = impl === "authlib" ? "authlib.session-token" : "authjs.session-token"
  if (strategy === "jwt") {
    const token = { sub: ADA.id, name: ADA.name, email: ADA.email }
    const value = impl === "authlib" ? await encode({ token, secret: SECRET, salt: name }) : await authjsEncode({ token, secret: SECRET, salt: name })
    return `${name}=${value}`
  }
  const token = randomBytes(32).toString("base64url")
  const expires = new Date(Date.now() + 30 * 86_400_000)
  if (impl === "authlib") {
    // authlib stores the token's SHA-256 (base64url), never the token.
    const adapter = XataAdapter(pool!)
    if (!(await adapter.getUser(ADA.id))) await adapter.createUser({ ...ADA, emailVerified: null })
    await adapter.createSession({ sessionToken: createHash("sha256").update(token).digest("base64url"), userId: ADA.id, expires })
  } else {
    const { rows } = await pool!.query<{ id: number }>(`INSERT INTO users (name, email) VALUES ($1, $2) RETURNING id`, [ADA.name, ADA.email])
    await pool!.query(`INSERT INTO sessions ("userId", expires, "sessionToken") VALUES ($1, $2, $3)`, [rows[0]!.id, expires, token])
  }
  return `${name}=${token}`
}

/** Both answers right before measuring: the page with Ada's name for the cookie, a redirect to sign in without. */
async function check(impl: Impl, server: Server, cookie: string): Promise<void> {
  const page = await fetch(`${server.url}/protected`, { headers: { cookie }, redirect: "manual" })
  const body = await page.text()
  if (page.status !== 200 || !body.includes(ADA.name)) throw new Error(`${impl}: the protected page answered ${page.status} without the user:\n${body.slice(0, 500)}`)
  const anonymous = await fetch(`${server.url}/protected`, { redirect: "manual" })
  if (anonymous.status < 300 || anonymous.status >= 400) throw new Error(`${impl}: a request without a session was not redirected (${anonymous.status})`)
}

const hasTaskset = spawnSync("taskset", ["-c", "1", "true"]).status === 0

/** autocannon in its own process (on core 1 with taskset): requests/s, refusing any non-2xx answer or error. */
async function load(url: string, cookie: string, seconds: number): Promise<{ rps: number; requests: number }> {
  const args = [autocannonBin, "--json", "-c", "20", "-d", String(seconds), "-H", `cookie=${cookie}`, url]
  const { stdout } = hasTaskset ? await run("taskset", ["-c", "1", process.execPath, ...args], { maxBuffer: 1 << 24 }) : await run(process.execPath, args, { maxBuffer: 1 << 24 })
  const result = JSON.parse(stdout) as { requests: { average: number; total: number }; non2xx: number; errors: number; timeouts: number }
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) throw new Error(`autocannon: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts at ${url}`)
  return { rps: result.requests.average, requests: result.requests.total }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

interface Row {
  strategy: Strategy
  rps: Record<Impl, number>
  ratios: number[]
  /** Server CPU milliseconds per request, median of rounds. */
  cpu: Record<Impl, number>
  /** next-auth's CPU per request over authlib's, per round. */
  cpuRatios: number[]
}

async function measureStrategy(strategy: Strategy, databaseUrl: string | undefined, pool: pg.Pool | undefined, rounds: number, seconds: number): Promise<Row> {
  const servers = {} as Record<Impl, Server>
  const cookies = {} as Record<Impl, string>
  try {
    for (const impl of IMPLS) {
      servers[impl] = await start(impl, strategy, databaseUrl)
      cookies[impl] = await sessionCookie(impl, strategy, pool)
      await check(impl, servers[impl], cookies[impl])
      await load(`${servers[impl].url}/protected`, cookies[impl], WARM_UP_SECONDS) // JIT, Next's caches, the pool's connections
    }
    const rps: Record<Impl, number[]> = { authlib: [], "next-auth": [] }
    const cpu: Record<Impl, number[]> = { authlib: [], "next-auth": [] }
    const ratios: number[] = []
    const cpuRatios: number[] = []
    for (let round = 0; round < rounds; round++) {
      const order = round % 2 === 0 ? IMPLS : [...IMPLS].reverse()
      const got = {} as Record<Impl, { rps: number; cpu: number }>
      for (const impl of order) {
        const before = servers[impl].cpuMs()
        const { rps, requests } = await load(`${servers[impl].url}/protected`, cookies[impl], seconds)
        got[impl] = { rps, cpu: (servers[impl].cpuMs() - before) / requests }
      }
      for (const impl of IMPLS) {
        rps[impl].push(got[impl].rps)
        cpu[impl].push(got[impl].cpu)
      }
      ratios.push(got.authlib.rps / got["next-auth"].rps)
      cpuRatios.push(got["next-auth"].cpu / got.authlib.cpu)
      console.log(
        `  ${strategy} round ${round + 1}: authlib ${got.authlib.rps.toFixed(0)} req/s (${got.authlib.cpu.toFixed(2)} ms CPU/req), ` +
          `next-auth ${got["next-auth"].rps.toFixed(0)} req/s (${got["next-auth"].cpu.toFixed(2)} ms CPU/req), ratio ${ratios.at(-1)!.toFixed(2)}x (CPU ${cpuRatios.at(-1)!.toFixed(2)}x)`,
      )
    }
    return {
      strategy,
      rps: { authlib: median(rps.authlib), "next-auth": median(rps["next-auth"]) },
      ratios,
      cpu: { authlib: median(cpu.authlib), "next-auth": median(cpu["next-auth"]) },
      cpuRatios,
    }
  } finally {
    await Promise.all(Object.values(servers).map((s) => s.stop()))
  }
}

const nextjs: BenchModule = {
  name: "nextjs",
  async run() {
    const rounds = Number(process.env.BENCH_NEXT_ROUNDS ?? 6)
    const seconds = Number(process.env.BENCH_NEXT_SECONDS ?? 5)
    for (const impl of IMPLS) build(impl)
    const bin = findPgBin()
    let cluster: PgCluster | undefined
    let pool: pg.Pool | undefined
    const rows: Row[] = []
    try {
      rows.push(await measureStrategy("jwt", undefined, undefined, rounds, seconds))
      if (bin) {
        cluster = await startPgCluster(bin)
        pool = new pg.Pool({ connectionString: cluster.url, max: 2 })
        await migrate(pool)
        for (const statement of PG_ADAPTER_SCHEMA) await pool.query(statement)
        rows.push(await measureStrategy("database", cluster.url, pool, rounds, seconds))
      } else {
        console.log("database strategy skipped: no PostgreSQL server binaries (Debian: apt-get install postgresql, or PG_BIN)")
      }
    } finally {
      await pool?.end()
      cluster?.stop()
    }
    console.log(
      `\nGET /protected (proxy + auth() in a server component), next start (Next 16.4.6), autocannon 20 connections from a second process${hasTaskset ? " on core 1" : ""}, ${rounds} paired rounds of ${seconds} s`,
    )
    console.log(`| strategy | ${LABEL.authlib} req/s | ${LABEL["next-auth"]} req/s | ratio (median of rounds) | rounds min-max | >= ${TARGET}x | CPU ms/req authlib / next-auth | CPU ratio (median) |`)
    console.log("| --- | ---: | ---: | ---: | --- | --- | ---: | ---: |")
    for (const row of rows) {
      const ratio = median(row.ratios)
      const span = `${Math.min(...row.ratios).toFixed(2)}-${Math.max(...row.ratios).toFixed(2)}`
      console.log(
        `| ${row.strategy} | ${row.rps.authlib.toFixed(0)} | ${row.rps["next-auth"].toFixed(0)} | ${ratio.toFixed(2)}x | ${span} | ${ratio >= TARGET ? "met" : "NOT met"} | ` +
          `${row.cpu.authlib.toFixed(2)} / ${row.cpu["next-auth"].toFixed(2)} | ${median(row.cpuRatios).toFixed(2)}x |`,
      )
    }
    console.log("(CPU: the next start process only; PostgreSQL's own CPU is not in it. CPU ratio: next-auth's CPU per request over authlib's.)")
  },
}

export default nextjs
