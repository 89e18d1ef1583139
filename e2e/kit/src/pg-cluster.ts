/**
 * A throwaway PostgreSQL cluster for the tests: initdb into a temp dir, start on a free loopback port
 * with its unix socket inside the temp dir, stop and delete it at the end. As root, the server runs as
 * the `postgres` user (Postgres refuses to run as root). Every step is bounded in time.
 *
 * Binaries: `PG_BIN`, else the newest `/usr/lib/postgresql/<version>/bin` (Debian's `postgresql`).
 */
import { execFileSync } from "node:child_process"
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { freePort } from "./free-port.js"

export interface PgCluster {
  url: string
  stop(): void
}

/** Finds initdb/pg_ctl, or returns null when PostgreSQL is not installed. */
export function findPgBin(env: NodeJS.ProcessEnv = process.env): string | null {
  if (env.PG_BIN) return existsSync(join(env.PG_BIN, "initdb")) ? env.PG_BIN : null
  const root = "/usr/lib/postgresql"
  if (!existsSync(root)) return null
  const versions = readdirSync(root)
    .filter((v) => existsSync(join(root, v, "bin", "initdb")))
    .sort((a, b) => Number(b) - Number(a))
  return versions[0] ? join(root, versions[0], "bin") : null
}

const isRoot = () => typeof process.getuid === "function" && process.getuid() === 0

/** Runs a PostgreSQL binary, as `postgres` when we are root, failing after `timeoutMs`. */
function run(bin: string, args: string[], timeoutMs: number): void {
  const [file, argv] = isRoot() ? ["runuser", ["-u", "postgres", "--", bin, ...args]] : [bin, args]
  execFileSync(file, argv, { stdio: "pipe", timeout: timeoutMs })
}

/**
 * Starts a cluster; resolves when it accepts connections (at most ~40 s). `settings` are extra
 * server settings (`name=value`, e.g. `shared_preload_libraries=pg_stat_statements` for the bench).
 */
export async function startPgCluster(binDir: string, settings: readonly string[] = []): Promise<PgCluster> {
  const dir = mkdtempSync(join(tmpdir(), "authlib-pg-"))
  const data = join(dir, "data")
  const log = join(dir, "server.log")
  if (isRoot()) {
    const uid = Number(execFileSync("id", ["-u", "postgres"]).toString().trim())
    const gid = Number(execFileSync("id", ["-g", "postgres"]).toString().trim())
    chownSync(dir, uid, gid)
  }
  const port = await freePort()
  const options = `-p ${port} -h 127.0.0.1 -k ${dir} -c fsync=off -c synchronous_commit=off -c full_page_writes=off${settings.map((s) => ` -c ${s}`).join("")}`
  try {
    run(join(binDir, "initdb"), ["-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-locale", "--no-sync"], 60_000)
    run(join(binDir, "pg_ctl"), ["-D", data, "-l", log, "-o", options, "-w", "-t", "30", "start"], 40_000)
  } catch (err) {
    const serverLog = existsSync(log) ? readFileSync(log, "utf8") : "(no server log)"
    rmSync(dir, { recursive: true, force: true })
    throw new Error(`could not start PostgreSQL from ${binDir}: ${(err as Error).message}\n${serverLog}`)
  }
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop() {
      try {
        run(join(binDir, "pg_ctl"), ["-D", data, "-m", "immediate", "-w", "-t", "20", "stop"], 25_000)
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    },
  }
}

/** A PostgreSQL server for a test or a bench: `DATABASE_URL`'s, or a throwaway cluster. */
export type Postgres = PgCluster

/**
 * `DATABASE_URL` when given, else a throwaway cluster from the PostgreSQL binaries; null when
 * neither is available, after a warning naming `purpose`. Under CI, where `.ci/setup` installs the
 * binaries, their absence is an error, never a silent skip.
 */
export async function startPostgres(purpose: string): Promise<Postgres | null> {
  if (process.env.DATABASE_URL) return { url: process.env.DATABASE_URL, stop() {} }
  const bin = findPgBin()
  if (!bin) {
    const message = `${purpose} needs DATABASE_URL or the PostgreSQL server binaries (Debian: apt-get install postgresql)`
    if (process.env.CI === "true" || process.env.CI === "1") throw new Error(message)
    console.warn(`\n[postgres] SKIPPING: ${message}\n`)
    return null
  }
  return startPgCluster(bin)
}
