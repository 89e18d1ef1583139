/**
 * Finds `redis-server` for the test run. Each test file starts its own server(s) with
 * `startRedisServer(inject("redisServer"))` (restart and eviction tests need one to themselves);
 * without the binary the Redis tests are skipped loudly, and fail in CI.
 */
import type { TestProject } from "vitest/node"
import { findRedisServer } from "./helpers/redis-server.js"

declare module "vitest" {
  export interface ProvidedContext {
    /** The `redis-server` binary, or null when none is installed outside CI. */
    redisServer: string | null
  }
}

export default function setup(project: TestProject): void {
  const bin = findRedisServer()
  if (!bin) {
    const message = "the Redis tests need redis-server (Debian: apt-get install redis-server, or set REDIS_SERVER_BIN)"
    if (process.env.CI === "true" || process.env.CI === "1") throw new Error(message)
    console.warn(`\n[redis] SKIPPING the Redis tests: ${message}\n`)
  }
  project.provide("redisServer", bin)
}
