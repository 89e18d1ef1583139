/**
 * The PostgreSQL side of the database bench: a throwaway PostgreSQL 15 cluster
 * (`@authlib/e2e-kit/pg-cluster`: temp data dir, free loopback port, stopped at the end) with
 * `pg_stat_statements` preloaded when the server has it, pools whose statements are counted in
 * node, and the CPU time of the one backend that serves a pool (`/proc/<pid>/schedstat`, in
 * nanoseconds).
 *
 * The server is started from the pinned bench process, so it runs on the same core as node (as in
 * the measurement of issue 27): one request at a time, the latency is node's CPU plus the server's.
 */
import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import pg from "pg"
import { findPgBin, startPgCluster } from "@authlib/e2e-kit/pg-cluster"

export interface DbServer {
  url: string
  /** Whether `pg_stat_statements` is loaded (counts statements on the server side too). */
  statStatements: boolean
  admin: pg.Pool
  /** Top-level statements run since the last `resetStatements`, the bench's own queries left out. */
  statements(): Promise<number>
  resetStatements(): Promise<void>
  stop(): Promise<void>
}

/** Starts the server, or returns null when no PostgreSQL binaries are installed (the module skips). */
export async function startDbServer(): Promise<DbServer | null> {
  const bin = process.env.DATABASE_URL ? null : findPgBin()
  if (!process.env.DATABASE_URL && !bin) return null
  const withStats = bin !== null && existsSync(join(bin, "..", "lib", "pg_stat_statements.so"))
  const cluster = bin ? await startPgCluster(bin, withStats ? ["shared_preload_libraries=pg_stat_statements", "pg_stat_statements.track=top"] : []) : null
  const url = cluster?.url ?? process.env.DATABASE_URL!
  const admin = new pg.Pool({ connectionString: url, max: 1 })
  let statStatements = false
  try {
    await admin.query("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
    await admin.query("SELECT pg_stat_statements_reset()")
    statStatements = true
  } catch {
    // Not preloaded (a given DATABASE_URL): node's count stands alone.
  }
  return {
    url,
    statStatements,
    admin,
    async statements() {
      if (!statStatements) return Number.NaN
      const { rows } = await admin.query(
        `SELECT coalesce(sum(calls), 0)::bigint AS n FROM pg_stat_statements
         WHERE query NOT ILIKE '%pg_stat_statements%' AND query NOT ILIKE '%bench-setup%' AND query NOT ILIKE '%pg_backend_pid%'`,
      )
      return Number(rows[0].n)
    },
    async resetStatements() {
      if (statStatements) await admin.query("SELECT pg_stat_statements_reset()")
    },
    async stop() {
      await admin.end()
      cluster?.stop()
    },
  }
}

/** A one-connection pool whose statements are counted, and the CPU time of its backend. */
export interface CountedPool {
  pool: pg.Pool
  /** What the implementations get: the pool itself, its `query` counted in place (so it stays a node-postgres `Pool`). */
  client: pg.Pool
  count: number
  /** When set, each statement's text and values are appended (`bench/db-scale.ts` explains them). */
  record?: Array<{ text: string; values: unknown[] }>
  /** The backend's CPU time in microseconds (NaN where /proc cannot tell). */
  backendCpu(): number
  end(): Promise<void>
}

export async function countedPool(url: string, searchPath: string): Promise<CountedPool> {
  // One connection: every statement of the implementation runs on the backend whose CPU is read.
  const pool = new pg.Pool({ connectionString: url, max: 1, idleTimeoutMillis: 0, options: `-c search_path=${searchPath}` })
  const { rows } = await pool.query("SELECT pg_backend_pid() AS pid")
  const pid = Number(rows[0].pid)
  const query = pool.query.bind(pool) as (...a: unknown[]) => unknown
  const counted: CountedPool = {
    pool,
    count: 0,
    client: pool,
    backendCpu() {
      try {
        return Number(readFileSync(`/proc/${pid}/schedstat`, "utf8").split(" ")[0]) / 1000
      } catch {
        return Number.NaN
      }
    },
    end: () => pool.end(),
  }
  pool.query = ((...args: unknown[]) => {
    counted.count++
    if (counted.record) {
      const [first, values] = args as [string | { text: string; values?: unknown[] }, unknown[] | undefined]
      counted.record.push(typeof first === "string" ? { text: first, values: values ?? [] } : { text: first.text, values: first.values ?? [] })
    }
    return query(...args)
  }) as pg.Pool["query"]
  return counted
}
