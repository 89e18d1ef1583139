/**
 * Redis and PostgreSQL for the redis-session bench and its tools (`redis-ab.ts`, `redis-profile.ts`):
 * the servers started on every core (this process alone is pinned by its caller), a migrated
 * schema, a connected node-redis client, and one user with one stored session to read; and the
 * load that all three put on a server from the other core (`autocannonApart`).
 */
import { spawn, spawnSync, type ChildProcessByStdio, type SpawnOptionsWithStdioTuple } from "node:child_process"
import type { Readable } from "node:stream"
import { createHash } from "node:crypto"
import { createRequire } from "node:module"
import { cpus } from "node:os"
import { createClient } from "redis"
import type { Adapter, AdapterUser } from "@authlib/core"
import { migrate } from "@authlib/xata-adapter"
import { findRedisServer, startRedisServer } from "@authlib/e2e-kit/redis-server"
import { startPostgres } from "@authlib/e2e-kit/pg-cluster"
import { pgSchema } from "@authlib/e2e-kit/pg-schema"

const hasTaskset = spawnSync("taskset", ["-V"]).status === 0

/**
 * Runs `start` with this process on every core, so that the servers it starts (children inherit
 * the CPU affinity) are not squeezed onto the bench's core; puts the process's affinity back after.
 */
export async function unpinned<T>(start: () => Promise<T>): Promise<T> {
  if (!hasTaskset) return start()
  const mine = String(process.pid)
  const affinity = spawnSync("taskset", ["-p", mine], { encoding: "utf8" }).stdout.trim().split(" ").pop()
  spawnSync("taskset", ["-a", "-p", "-c", `0-${cpus().length - 1}`, mine], { stdio: "ignore" })
  try {
    return await start()
  } finally {
    if (affinity) spawnSync("taskset", ["-a", "-p", affinity, mine], { stdio: "ignore" })
  }
}

/** `command` on the last core when `taskset` is there (the server under test keeps core 0), its stdout piped. */
function onLastCore(command: string[]): ChildProcessByStdio<null, Readable, null> {
  const options = { stdio: ["ignore", "pipe", "ignore"] } satisfies SpawnOptionsWithStdioTuple<"ignore", "pipe", "ignore">
  return hasTaskset ? spawn("taskset", ["-c", String(cpus().length - 1), ...command], options) : spawn(command[0]!, command.slice(1), options)
}

const autocannonCli = createRequire(import.meta.url).resolve("autocannon/autocannon.js")

/**
 * One autocannon run against `url` (10 connections for `seconds`, the session `cookie`), its CLI a
 * child process on the last core; its requests per second and count. A run with a non-2xx answer
 * or an error is refused. Measure this process around the call: the load runs while it is awaited.
 */
export async function autocannonApart(url: string, cookie: string, seconds: number | string): Promise<{ rps: number; total: number }> {
  const child = onLastCore([process.execPath, autocannonCli, "-j", "-c", "10", "-d", String(seconds), "-H", `cookie=${cookie}`, url])
  let out = ""
  child.stdout.on("data", (chunk: Buffer) => (out += chunk))
  await new Promise((resolve) => child.on("close", resolve))
  const result = JSON.parse(out) as { requests: { average: number; total: number }; non2xx: number; errors: number }
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`bench: HTTP run had ${result.non2xx} non-2xx and ${result.errors} errors`)
  return { rps: result.requests.average, total: result.requests.total }
}

/** Redis and PostgreSQL with the schema `schemaName` migrated; null when a server binary is missing. */
export async function startSessionStores(schemaName: string) {
  const bin = findRedisServer()
  const postgres = await unpinned(() => startPostgres("the session stores bench"))
  if (!bin || !postgres) {
    postgres?.stop()
    return null
  }
  const redisServer = await unpinned(() => startRedisServer(bin))
  const schema = pgSchema(postgres.url, schemaName)
  await schema.create()
  await migrate(schema.pool)
  const redis = createClient({ url: redisServer.url })
  await redis.connect()
  return {
    schema,
    redis,
    redisUrl: redisServer.url,
    async stop() {
      await redis.quit()
      await schema.drop()
      postgres.stop()
      await redisServer.stop()
    },
  }
}

/** The session every bench reads: the user and the cookie value (the token; the adapter stores its SHA-256). */
export async function seedSession(db: Required<Pick<Adapter, "createUser" | "createSession">>): Promise<{ user: AdapterUser; token: string }> {
  const user = await db.createUser({ id: "u-bench", name: "Ada Lovelace", email: "ada@example.com", emailVerified: null })
  const token = "bench-session-token-0123456789abcdefghijklmnop"
  await db.createSession({ sessionToken: createHash("sha256").update(token).digest("base64url"), userId: user.id, expires: new Date(Date.now() + 30 * 86_400_000) })
  return { user, token }
}
