/**
 * Starts one throwaway PostgreSQL cluster for the whole test run unless `DATABASE_URL` is given.
 * Test files get its URL through `inject("databaseUrl")` and isolate themselves in their own schema.
 */
import type { TestProject } from "vitest/node"
import { findPgBin, startPgCluster } from "@authlib/e2e-kit/pg-cluster"

declare module "vitest" {
  export interface ProvidedContext {
    /** A PostgreSQL URL, or null when none is available outside CI (those tests are then skipped, loudly). */
    databaseUrl: string | null
  }
}

export default async function setup(project: TestProject): Promise<(() => void) | undefined> {
  if (process.env.DATABASE_URL) {
    project.provide("databaseUrl", process.env.DATABASE_URL)
    return undefined
  }
  const bin = findPgBin()
  if (!bin) {
    const message =
      "PostgreSQL tests need DATABASE_URL or the PostgreSQL server binaries " +
      "(Debian: apt-get install postgresql, or set PG_BIN to the directory holding initdb and pg_ctl)"
    if (process.env.CI === "true" || process.env.CI === "1") throw new Error(message)
    console.warn(`\n[xata-adapter] SKIPPING the PostgreSQL server tests: ${message}\n`)
    project.provide("databaseUrl", null)
    return undefined
  }
  const started = Date.now()
  const cluster = await startPgCluster(bin)
  console.info(`[xata-adapter] throwaway PostgreSQL cluster from ${bin} ready in ${Date.now() - started} ms`)
  project.provide("databaseUrl", cluster.url)
  return () => cluster.stop()
}
