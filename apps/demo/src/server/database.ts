/**
 * The demo's database: PGlite (Postgres in WASM, in-process) persisted to `.data/pglite` by
 * default, or a PostgreSQL server when `DATABASE_URL` is set. The adapter's schema is applied on
 * start either way, so there is nothing to set up.
 *
 * Rate limits: with `DATABASE_URL`, counters live in the server's `authlib_rate_limits` table, so
 * every instance of the demo shares them; with the embedded database (one process) core's default
 * in-memory store does the job.
 */
import type { RateLimitStore } from "@authlib/core"
import { migrate, PostgresRateLimitStore, XataAdapter } from "@authlib/xata-adapter"
import { mkdirSync } from "node:fs"
import { join } from "node:path"
import { dataDir } from "./secret"

type Env = { get(name: string): string | undefined }
type Client = Parameters<typeof XataAdapter>[0]

/** The demo's database as authlib uses it. */
export interface DemoDatabase {
  adapter: ReturnType<typeof XataAdapter>
  /** The shared rate-limit store, or undefined for core's in-memory default. */
  rateLimitStore: RateLimitStore | undefined
}

let opened: Promise<DemoDatabase> | undefined

async function embedded(env: Env): Promise<Client> {
  const { PGlite } = await import("@electric-sql/pglite")
  const dir = join(dataDir(env), "pglite")
  mkdirSync(dir, { recursive: true })
  const db = new PGlite(dir)
  await db.waitReady
  return db
}

async function server(url: string): Promise<Client> {
  const { default: pg } = await import("pg")
  return new pg.Pool({ connectionString: url, max: 5 })
}

async function open(env: Env): Promise<DemoDatabase> {
  const url = env.get("DATABASE_URL")
  const client = url ? await server(url) : await embedded(env)
  await migrate(client)
  return { adapter: XataAdapter(client), rateLimitStore: url ? PostgresRateLimitStore(client) : undefined }
}

/** The demo's database, opened (and migrated) once per process. */
export function demoDatabase(env: Env): Promise<DemoDatabase> {
  // A failed start is not kept: the next request tries again.
  opened ??= open(env).catch((err: unknown) => {
    opened = undefined
    throw err
  })
  return opened
}
