/**
 * Finds `redis-server` for the test run. Each test file starts its own server(s) with
 * `startRedisServer(inject("redisServer"))` (restart and eviction tests need one to themselves).
 * Without the binary the run stops at once, saying how to install it: a Redis test never passes
 * by not running (CI installs it with .ci/setup).
 */
import type { TestProject } from "vitest/node"
import { findRedisServer } from "@authlib/e2e-kit/redis-server"

declare module "vitest" {
  export interface ProvidedContext {
    /** The `redis-server` binary. */
    redisServer: string
  }
}

export default function setup(project: TestProject): void {
  const bin = findRedisServer()
  if (!bin) throw new Error("the Redis tests need redis-server (Debian: apt-get install redis-server, or set REDIS_SERVER_BIN)")
  project.provide("redisServer", bin)
}
