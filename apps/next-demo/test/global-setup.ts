/**
 * One `next build` of the demo for the whole run (reused while its sources and the packages' dist
 * are unchanged), and one throwaway PostgreSQL cluster (Debian's server, as the xata-adapter tests
 * start it) for the database-strategy and two-instance tests, unless `DATABASE_URL` names one.
 */
import type { TestProject } from "vitest/node"
import { findPgBin, startPgCluster } from "@authlib/e2e-kit/pg-cluster"
import { buildDemo } from "./harness/app.js"

declare module "vitest" {
  export interface ProvidedContext {
    databaseUrl: string
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  buildDemo()
  if (process.env.DATABASE_URL) {
    project.provide("databaseUrl", process.env.DATABASE_URL)
    return () => {}
  }
  const bin = findPgBin()
  if (!bin) throw new Error("The next-demo tests need the PostgreSQL server binaries (Debian: apt-get install postgresql) or DATABASE_URL")
  const cluster = await startPgCluster(bin)
  project.provide("databaseUrl", cluster.url)
  return () => cluster.stop()
}
