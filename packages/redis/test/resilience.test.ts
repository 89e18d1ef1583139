/**
 * Redis losing what it holds signs out nobody: `FLUSHALL`, eviction under `maxmemory` with an LRU
 * policy, a restart, and Redis down for a while (with a revocation made meanwhile, then a restart
 * that brings the old entries back from disk). The database answers, the trouble is logged, and the
 * cache fills again afterwards.
 */
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest"
import { MemoryAdapter, createMemoryStore } from "@authlib/adapter-test"
import type { Adapter, AdapterSession, AdapterUser } from "@authlib/core"
import { withRedisCache } from "../src/index.js"
import { startRedisServer, type RedisServer } from "@authlib/e2e-kit/redis-server"
import { closeClient, connectClient, makeUser, type Client } from "./helpers/app.js"

const bin = inject("redisServer")

async function waitUntil(condition: () => boolean | Promise<boolean>, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error("condition not met in time")
    await new Promise((r) => setTimeout(r, 20))
  }
}

/** A few instances in front of one database, on a server of their own (started with `args`). */
async function cluster(bin: string, args: string[] = [], instances = 2) {
  const server = await startRedisServer(bin, args)
  const db = MemoryAdapter(createMemoryStore())
  const clients = await Promise.all(Array.from({ length: instances }, () => connectClient(server.url)))
  const logs: string[] = []
  const logger = { warn: (_code: string, ...m: unknown[]) => void logs.push(String(m[0])), error: (_code: string, ...m: unknown[]) => void logs.push(String(m[0])) }
  const apps = clients.map((client) => withRedisCache(db, { client, logger }))
  const session = async (user: AdapterUser): Promise<AdapterSession> =>
    db.createSession!({ sessionToken: crypto.randomUUID(), userId: user.id, expires: new Date(Date.now() + 3_600_000) })
  const close = async () => {
    await Promise.all(clients.map(closeClient))
    await server.stop()
  }
  return { server, db, clients, apps, logs, session, close }
}

const sessionKey = (token: string) => `authlib:c:s:${token}`

describe("Redis losing entries signs out nobody", () => {
  let c: Awaited<ReturnType<typeof cluster>>
  beforeAll(async () => void (c = await cluster(bin)))
  afterAll(() => c.close())

  test("FLUSHALL: every session is served from the database, then cached again", async () => {
    const user = await makeUser(c.db)
    const sessions = await Promise.all([1, 2, 3].map(() => c.session(user)))
    for (const app of c.apps) for (const s of sessions) expect((await app.getSessionAndUser!(s.sessionToken))?.user.id).toBe(user.id)
    await c.clients[0]!.flushAll()
    for (const app of c.apps) for (const s of sessions) expect((await app.getSessionAndUser!(s.sessionToken))?.user.id).toBe(user.id)
    for (const s of sessions) expect(await c.clients[0]!.exists(sessionKey(s.sessionToken))).toBe(1)
    // A revocation after the flush still applies at once.
    await c.apps[0]!.deleteSession!(sessions[0]!.sessionToken)
    expect(await c.apps[1]!.getSessionAndUser!(sessions[0]!.sessionToken)).toBeNull()
  })

  test("a restart (no persistence): served from the database, then cached again", async () => {
    const user = await makeUser(c.db)
    const s = await c.session(user)
    expect(await c.apps[1]!.getSessionAndUser!(s.sessionToken)).not.toBeNull()
    await c.server.kill()
    await c.server.start()
    await waitUntil(() => c.clients.every((client) => client.isReady))
    for (const app of c.apps) expect((await app.getSessionAndUser!(s.sessionToken))?.user.id).toBe(user.id)
    expect(await c.clients[0]!.exists(sessionKey(s.sessionToken))).toBe(1)
  })
})

test("eviction under maxmemory (allkeys-lru): every read is right, every revocation applies", async () => {
  const c = await cluster(bin, ["--maxmemory-policy", "allkeys-lru"])
  try {
    const used = Number(/used_memory:(\d+)/.exec(await c.clients[0]!.info("memory"))![1])
    await c.clients[0]!.configSet("maxmemory", String(used + 256 * 1024))
    const pad = "x".repeat(2048)
    const users = await Promise.all(Array.from({ length: 150 }, (_, i) => makeUser(c.db, `${pad}${i}`)))
    const sessions = await Promise.all(users.map((u) => c.session(u)))
    for (let round = 0; round < 2; round++) {
      for (const [i, s] of sessions.entries()) expect((await c.apps[round % 2]!.getSessionAndUser!(s.sessionToken))?.user.name).toBe(`${pad}${i}`)
    }
    const evicted = Number(/evicted_keys:(\d+)/.exec(await c.clients[0]!.info("stats"))![1])
    expect(evicted).toBeGreaterThan(0)
    const revoked = sessions.filter((_, i) => i % 3 === 0)
    for (const s of revoked) await c.apps[0]!.deleteSession!(s.sessionToken)
    await c.apps[0]!.updateUser!({ id: users[1]!.id, name: "renamed" })
    for (const [i, s] of sessions.entries()) {
      const found = await c.apps[1]!.getSessionAndUser!(s.sessionToken)
      if (i % 3 === 0) expect(found).toBeNull()
      else expect(found?.user.name).toBe(i === 1 ? "renamed" : `${pad}${i}`)
    }
  } finally {
    await c.close()
  }
})

test("Redis down for a while: the database answers (logged), a sign-out meanwhile holds after a restart from disk, the cache fills again", async () => {
  const c = await cluster(bin, ["--appendonly", "yes", "--appendfsync", "always"])
  try {
    const user = await makeUser(c.db)
    const [kept, ended] = [await c.session(user), await c.session(user)]
    for (const app of c.apps) for (const s of [kept, ended]) expect(await app.getSessionAndUser!(s.sessionToken)).not.toBeNull()
    await c.server.kill()
    await waitUntil(() => c.clients.every((client) => !client.isReady))
    for (const app of c.apps) for (const s of [kept, ended]) expect((await app.getSessionAndUser!(s.sessionToken))?.user.id).toBe(user.id)
    expect(c.logs.some((m) => /unavailable/.test(m))).toBe(true)
    // Signed out while Redis is away: the cache cannot be told.
    await c.apps[0]!.deleteSession!(ended.sessionToken)
    expect(await c.apps[1]!.getSessionAndUser!(ended.sessionToken)).toBeNull()
    // Back from its append-only file, the stale entry included.
    await c.server.start()
    await waitUntil(() => c.clients.every((client) => client.isReady))
    expect(await c.clients[0]!.exists(sessionKey(ended.sessionToken))).toBe(1)
    for (const app of c.apps) {
      expect(await app.getSessionAndUser!(ended.sessionToken)).toBeNull()
      expect((await app.getSessionAndUser!(kept.sessionToken))?.user.id).toBe(user.id)
    }
    expect(c.logs.some((m) => /answers again/.test(m))).toBe(true)
    // Refilled in the new era: the next reads are hits (the entry names the current era).
    const era = await c.clients[0]!.get("authlib:c:era")
    expect(await c.clients[0]!.hGet(sessionKey(kept.sessionToken), "era")).toBe(era)
  } finally {
    await c.close()
  }
})

test("Redis too slow (CLIENT PAUSE): reads answer from the database after timeoutMs, a sign-out meanwhile holds afterwards", async () => {
  const c = await cluster(bin)
  const admin = await connectClient(c.server.url)
  try {
    const user = await makeUser(c.db)
    const [kept, ended] = [await c.session(user), await c.session(user)]
    for (const app of c.apps) for (const s of [kept, ended]) expect(await app.getSessionAndUser!(s.sessionToken)).not.toBeNull()
    // Paused for a minute, longer than the test may take: only answering without Redis lets it pass.
    await admin.sendCommand(["CLIENT", "PAUSE", "60000", "WRITE"]) // scripts and DEL wait; UNPAUSE does not
    // The cache's commands wait (timeoutMs 250): each call answers from the database.
    await c.apps[0]!.deleteSession!(ended.sessionToken)
    expect(await c.apps[1]!.getSessionAndUser!(ended.sessionToken)).toBeNull()
    expect((await c.apps[1]!.getSessionAndUser!(kept.sessionToken))?.user.id).toBe(user.id)
    expect(c.logs.some((m) => /unavailable/.test(m))).toBe(true)
    await admin.sendCommand(["CLIENT", "UNPAUSE"])
    for (const app of c.apps) {
      expect(await app.getSessionAndUser!(ended.sessionToken)).toBeNull()
      expect((await app.getSessionAndUser!(kept.sessionToken))?.user.id).toBe(user.id)
    }
  } finally {
    await closeClient(admin)
    await c.close()
  }
})
