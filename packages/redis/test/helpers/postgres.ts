/**
 * PostgreSQL for the multi-instance test and the benchmark: `DATABASE_URL` when given, else a
 * throwaway cluster from the PostgreSQL binaries (the xata adapter's test helpers, reused rather
 * than copied: one way to start a server in the repository). Null when neither is available.
 */
import { findPgBin, startPgCluster } from "@authlib/e2e-kit/pg-cluster"
import { pgSchema, type PgSchema } from "../../../xata-adapter/test/helpers/pg-schema.js"

export { pgSchema, type PgSchema }

export interface Postgres {
  url: string
  stop(): void
}

export async function startPostgres(): Promise<Postgres | null> {
  if (process.env.DATABASE_URL) return { url: process.env.DATABASE_URL, stop() {} }
  const bin = findPgBin()
  if (!bin) {
    const message = "the multi-instance test needs DATABASE_URL or the PostgreSQL server binaries (Debian: apt-get install postgresql)"
    if (process.env.CI === "true" || process.env.CI === "1") throw new Error(message)
    console.warn(`\n[redis] SKIPPING: ${message}\n`)
    return null
  }
  return startPgCluster(bin)
}
