/**
 * Four app instances in four Node processes, serving HTTP through `@authlib/core/node`, in front of
 * one PostgreSQL and one Redis, as behind a load balancer: a session signed in on one is read on the
 * others (from the cache after the first read); a sign-out on one is refused by the next request on
 * every other; 200 failed sign-ins for one identifier spread over the four let exactly the limit
 * (10) reach `authorize`.
 */
import { spawn, type ChildProcess } from "node:child_process"
import { fileURLToPath } from "node:url"
import { createClient } from "redis"
import { afterAll, beforeAll, expect, inject, test } from "vitest"
import { CookieJar } from "@authlib/e2e-kit/cookie-jar"
import { XataAdapter, migrate } from "@authlib/xata-adapter"
import { startRedisServer, type RedisServer } from "@authlib/e2e-kit/redis-server"
import { startPostgres, type Postgres } from "@authlib/e2e-kit/pg-cluster"
import { pgSchema, type PgSchema } from "@authlib/e2e-kit/pg-schema"

const bin = inject("redisServer")
const packageDir = fileURLToPath(new URL("..", import.meta.url))

interface Child {
  process: ChildProcess
  origin: string
  output: () => string
}

function startInstance(databaseUrl: string, redisUrl: string): Promise<Child> {
  const child = spawn(process.execPath, ["--import", "tsx", "test/helpers/instance-server.ts", databaseUrl, redisUrl], { cwd: packageDir, stdio: ["ignore", "pipe", "pipe"] })
  let out = ""
  child.stderr!.on("data", (chunk: Buffer) => (out += chunk.toString()))
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => (child.kill(), reject(new Error(`instance did not start: ${out}`))), 30_000)
    child.stdout!.on("data", (chunk: Buffer) => {
      out += chunk.toString()
      const port = /listening (\d+)/.exec(out)?.[1]
      if (port) (clearTimeout(timer), resolve({ process: child, origin: `http://127.0.0.1:${port}`, output: () => out }))
    })
    child.once("exit", (code) => (clearTimeout(timer), reject(new Error(`instance exited with ${code}: ${out}`))))
  })
}

/** A browser over HTTP: one cookie jar for every instance (they share the secret). */
class HttpBrowser {
  /** Cookies do not tell ports apart: every instance on 127.0.0.1 gets them. */
  readonly jar = new CookieJar("http://127.0.0.1/")
  async request(origin: string, path: string, init: { method?: string; form?: Record<string, string> } = {}): Promise<Response> {
    const headers: Record<string, string> = {}
    const cookie = this.jar.header(origin + path)
    if (cookie) headers.cookie = cookie
    if (init.form) (headers["content-type"] = "application/x-www-form-urlencoded"), (headers.origin = origin)
    const res = await fetch(origin + path, { method: init.method ?? (init.form ? "POST" : "GET"), headers, redirect: "manual", ...(init.form ? { body: new URLSearchParams(init.form) } : {}) })
    return this.jar.keep(res)
  }
  async post(origin: string, path: string, form: Record<string, string>): Promise<Response> {
    const { csrfToken } = (await (await this.request(origin, "/auth/csrf")).json()) as { csrfToken: string }
    return this.request(origin, path, { form: { csrfToken, ...form } })
  }
  async session(origin: string): Promise<{ user: { email: string } } | null> {
    return (await (await this.request(origin, "/auth/session")).json()) as never
  }
}

let redis: RedisServer | undefined
let postgres: Postgres | null = null
let schema: PgSchema | undefined
let instances: Child[] = []
let email = ""
beforeAll(async () => {
  ;[redis, postgres] = await Promise.all([startRedisServer(bin), startPostgres("the multi-instance test")])
  if (!postgres) return
  schema = pgSchema(postgres.url, "redis_multi")
  await schema.create()
  await migrate(schema.pool)
  const id = crypto.randomUUID()
  email = `${id}@example.com`
  await XataAdapter(schema.pool).createUser!({ id, email, emailVerified: null, name: "Multi" })
  instances = await Promise.all([0, 1, 2, 3].map(() => startInstance(schema!.url, redis!.url)))
}, 90_000)
afterAll(async () => {
  await Promise.all(instances.map((c) => new Promise<void>((resolve) => (c.process.exitCode !== null ? resolve() : (c.process.once("exit", () => resolve()), c.process.kill("SIGTERM"))))))
  await schema?.drop()
  postgres?.stop()
  await redis?.stop()
}, 60_000)

test("sign-in on one instance, read on the others; a sign-out on one is refused by the next request on every other", async (ctx) => {
  if (!postgres) return ctx.skip()
  const [a, b, c, d] = instances.map((i) => i.origin) as [string, string, string, string]
  const browser = new HttpBrowser()
  const signIn = await browser.post(a, "/auth/callback/password", { email, password: "correct" })
  expect(signIn.status).toBe(302)
  const token = browser.jar.get("authlib.session-token")
  expect(token).toBeTruthy()
  for (const origin of [b, c, d, b, c, d]) expect((await browser.session(origin))?.user.email).toBe(email)
  const client = createClient({ url: redis!.url })
  await client.connect()
  try {
    expect((await client.keys("authlib:c:s:*")).length).toBeGreaterThan(0) // served from the cache after the first read
  } finally {
    await client.quit()
  }
  const kept = new HttpBrowser()
  kept.jar.set("authlib.session-token", token!)
  expect((await browser.post(c, "/auth/signout", {})).status).toBe(302)
  for (const origin of [a, b, d, c]) expect(await kept.session(origin)).toBeNull()
})

test("200 failed sign-ins for one identifier spread over the four instances: exactly 10 reach authorize", async (ctx) => {
  if (!postgres) return ctx.skip()
  const identifier = `${crypto.randomUUID()}@example.com`
  const browsers = instances.map(() => new HttpBrowser())
  const tokens = await Promise.all(instances.map(async (i, n) => ((await (await browsers[n]!.request(i.origin, "/auth/csrf")).json()) as { csrfToken: string }).csrfToken))
  const before = await Promise.all(instances.map(async (i) => ((await (await fetch(`${i.origin}/stats`)).json()) as { reached: number }).reached))
  const statuses: number[] = []
  // 200 attempts, 20 in flight at a time, round-robin over the instances.
  for (let round = 0; round < 10; round++) {
    statuses.push(...(await Promise.all(Array.from({ length: 20 }, (_, k) => {
      const n = k % 4
      return browsers[n]!.request(instances[n]!.origin, "/auth/callback/password", { form: { csrfToken: tokens[n]!, email: identifier, password: "wrong" } }).then((r) => r.status)
    }))))
  }
  const after = await Promise.all(instances.map(async (i) => ((await (await fetch(`${i.origin}/stats`)).json()) as { reached: number }).reached))
  expect(after.reduce((s, n) => s + n, 0) - before.reduce((s, n) => s + n, 0)).toBe(10)
  expect(statuses.filter((s) => s === 429)).toHaveLength(190)
  expect(statuses.filter((s) => s !== 429 && s !== 302)).toEqual([])
})
