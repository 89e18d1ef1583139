/**
 * `RedisRateLimitStore` on a real `redis-server`: the conformance suite of rate-limit stores, keys
 * stored hashed, one round trip per hit, and core's fail-closed / fail-open policy while Redis is down.
 */
import { createClient } from "redis"
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest"
import { Auth, type AuthConfig } from "@authlib/core"
import { runRateLimitStoreTests } from "@authlib/adapter-test"
import { AuthlibRedisError, RedisRateLimitStore } from "../src/index.js"
import { startRedisServer, type RedisServer } from "@authlib/e2e-kit/redis-server"

const bin = inject("redisServer")

let server: RedisServer
const ready = (async () => {
  server = await startRedisServer(bin)
})()
let connected: ReturnType<typeof createClient>
beforeAll(async () => {
  await ready
  connected = createClient({ url: server.url, socket: { reconnectStrategy: 50 } })
  connected.on("error", () => {})
  await connected.connect()
})
afterAll(async () => {
  await connected?.quit().catch(() => {})
  await server?.stop()
})

runRateLimitStoreTests({
  name: "RedisRateLimitStore on redis-server",
  store: async () => {
    await ready
    const c = createClient({ url: server.url })
    c.on("error", () => {})
    await c.connect()
    afterAll(() => c.quit())
    return new RedisRateLimitStore({ client: c })
  },
})

describe("RedisRateLimitStore", () => {
  test("stores the key as its SHA-256, never the key itself (core's keys may hold an e-mail address)", async () => {
    const store = new RedisRateLimitStore({ client: connected })
    const key = `signin:email:${crypto.randomUUID()}@example.com`
    await store.hit(key, 60_000)
    const keys = (await connected.keys("authlib:rl:*")) as string[]
    expect(keys).toContain(store.keyOf(key))
    expect(keys.some((k) => k.includes("example.com"))).toBe(false)
    expect(store.keyOf(key)).toMatch(/^authlib:rl:[0-9a-f]{64}$/)
  })

  test("one round trip per hit: a single script call (EVALSHA) per hit", async () => {
    const sent: string[] = []
    const counting = { sendCommand: (args: string[]) => (sent.push(args[0]!), connected.sendCommand(args)) }
    const store = new RedisRateLimitStore({ client: counting })
    const key = crypto.randomUUID()
    await store.hit(key, 60_000) // loads the script if Redis did not know it yet
    sent.length = 0
    await store.hit(key, 60_000)
    await store.hit(key, 60_000, 0)
    expect(sent).toStrictEqual(["EVALSHA", "EVALSHA"])
  })

  test("rejects a bad window or cost without touching Redis", async () => {
    const store = new RedisRateLimitStore({ client: connected })
    await expect(store.hit("k", 0)).rejects.toMatchObject({ code: "INVALID_INPUT" })
    await expect(store.hit("k", 1000, -1)).rejects.toMatchObject({ code: "INVALID_INPUT" })
    await expect(store.hit("k", 1000, 1.5)).rejects.toBeInstanceOf(AuthlibRedisError)
    expect(() => new RedisRateLimitStore({ client: {} as never })).toThrow(/sendCommand/)
  })

  test("Redis down: hits fail at once with UNAVAILABLE; core answers 503 to sign-ins (fail closed) or lets them through (failOpen)", async () => {
    const own = await startRedisServer(bin)
    const c = createClient({ url: own.url, socket: { reconnectStrategy: 50 } })
    c.on("error", () => {})
    await c.connect()
    try {
      const store = new RedisRateLimitStore({ client: c, timeoutMs: 500 })
      expect((await store.hit("k", 60_000)).count).toBe(1)
      await own.kill()
      await waitUntil(() => !c.isReady)
      await expect(store.hit("k", 60_000)).rejects.toMatchObject({ code: "UNAVAILABLE" })
      let reached = 0
      const config = (failOpen: boolean): AuthConfig => ({
        secret: "redis-rate-limit-test-secret-0123456789abcdef",
        trustHost: true,
        session: { strategy: "jwt" },
        logger: { error: () => {}, warn: () => {}, debug: () => {} },
        rateLimit: { store, failOpen, credentials: { perIdentifier: { limit: 5, window: 60 }, perClient: false } },
        providers: [{ id: "password", name: "Password", type: "credentials", credentials: { email: {} }, authorize: () => (reached++, null) }],
      })
      const closed = await signInAttempt(config(false))
      expect(closed.status).toBe(503) // RateLimited / STORE_UNAVAILABLE
      expect(reached).toBe(0)
      const open = await signInAttempt(config(true))
      expect(open.status).toBe(302)
      expect(reached).toBe(1)
      await own.start()
      await waitUntil(() => c.isReady)
      expect((await store.hit("k", 60_000)).count).toBe(1) // the restarted server kept nothing (no persistence)
    } finally {
      if (c.isReady) await c.quit()
      else c.destroy()
      await own.stop()
    }
  })
})

async function commandCalls(c: ReturnType<typeof createClient>): Promise<{ total: number; evalsha: number }> {
  const info = (await c.info("commandstats")) as string
  let total = 0
  let evalsha = 0
  for (const m of info.matchAll(/cmdstat_([a-z|]+):calls=(\d+)/g)) {
    total += Number(m[2])
    if (m[1] === "evalsha") evalsha = Number(m[2])
  }
  return { total, evalsha }
}

export async function waitUntil(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met in time")
    await new Promise((r) => setTimeout(r, 10))
  }
}

async function signInAttempt(config: AuthConfig): Promise<Response> {
  const origin = "http://app.test"
  const csrf = await Auth(new Request(`${origin}/auth/csrf`), config)
  const cookie = csrf.headers.getSetCookie()[0]!.split(";")[0]!
  const { csrfToken } = (await csrf.json()) as { csrfToken: string }
  return Auth(
    new Request(`${origin}/auth/callback/password`, {
      method: "POST",
      headers: { cookie, origin, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrfToken, email: "a@example.com", password: "x" }),
    }),
    config,
  )
}
