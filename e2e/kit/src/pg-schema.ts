/**
 * One schema per test file on the shared PostgreSQL server, so files never see each other's rows
 * and a given DATABASE_URL is left as it was found (the schema is dropped at the end).
 */
import pg from "pg"

export interface PgSchema {
  /** A connection URL whose sessions use the file's schema (for the CLI). */
  url: string
  /** A pool whose connections all use the file's schema. */
  pool: pg.Pool
  query: (statement: string, params?: unknown[]) => Promise<Record<string, unknown>[]>
  create(): Promise<void>
  drop(): Promise<void>
}

export function pgSchema(url: string, label: string): PgSchema {
  const name = `authlib_${label}_${crypto.randomUUID().replace(/-/g, "").slice(0, 12)}`
  const admin = new pg.Pool({ connectionString: url, max: 1 })
  const pool = new pg.Pool({ connectionString: url, max: 10, options: `-c search_path=${name}` })
  const scoped = new URL(url)
  scoped.searchParams.set("options", `-c search_path=${name}`)
  return {
    url: scoped.toString(),
    pool,
    query: async (statement, params) => (await pool.query(statement, params)).rows,
    async create() {
      await admin.query(`CREATE SCHEMA ${name}`)
    },
    async drop() {
      await pool.end()
      await admin.query(`DROP SCHEMA IF EXISTS ${name} CASCADE`)
      await admin.end()
    },
  }
}
