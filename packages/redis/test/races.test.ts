/**
 * The revoke-vs-read race, interleaved deterministically: a read on one instance loads the row from
 * the database, then waits (a gate) while another instance writes; when the read goes on, it must
 * not store what it loaded. Its own answer is the row as it was when it began (it started before
 * the write); the very next read, anywhere, sees the write. The same for every write the cache
 * knows, and for negative answers (a user or session created while a "none" was in flight).
 */
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest"
import { MemoryAdapter, createMemoryStore } from "@authlib/adapter-test"
import type { Adapter, AdapterSession, AdapterUser } from "@authlib/core"
import { withRedisCache } from "../src/index.js"
import { startRedisServer, type RedisServer } from "@authlib/e2e-kit/redis-server"
import { closeClient, connectClient, gated, makeUser, type Client } from "./helpers/app.js"

const bin = inject("redisServer")
const quiet = { warn: () => {}, error: () => {} }

let server: RedisServer
let clients: Client[] = []
const db = MemoryAdapter(createMemoryStore())
/** The reader: its database calls can be paused after they loaded. */
let reader: Adapter
let gates: Record<string, ReturnType<typeof gated>> = {}
/** The writer, and a third instance that only reads. */
let writer: Adapter
let other: Adapter
beforeAll(async () => {
  server = await startRedisServer(bin)
  clients = await Promise.all([0, 1, 2].map(() => connectClient(server.url)))
  let inner: Adapter = db
  for (const method of ["getSessionAndUser", "getUser", "getUserSessionEpoch"] as const) {
    gates[method] = gated(inner, method)
    inner = gates[method]!.adapter
  }
  reader = withRedisCache(inner, { client: clients[0]!, logger: quiet })
  writer = withRedisCache(db, { client: clients[1]!, logger: quiet })
  other = withRedisCache(db, { client: clients[2]!, logger: quiet })
})
afterAll(async () => {
  await Promise.all(clients.map(closeClient))
  await server.stop()
})

async function session(user: AdapterUser, expiresInMs = 3_600_000): Promise<AdapterSession> {
  return db.createSession!({ sessionToken: crypto.randomUUID(), userId: user.id, expires: new Date(Date.now() + expiresInMs) })
}

/** Starts `read` on the reader, runs `write` once the read has loaded, then lets the read finish. */
async function interleave<T>(method: string, read: () => T | PromiseLike<T>, write: () => unknown): Promise<T> {
  const gate = gates[method]!.arm()
  const pending = Promise.resolve(read())
  await gate.loaded
  await write()
  gate.release()
  return pending
}

describe("a read that loaded before a write cannot store what it loaded after it", () => {
  test("sign-out (deleteSession) while a session read is in flight: the next read on every instance is refused", async () => {
    const user = await makeUser(db)
    const s = await session(user)
    const raced = await interleave("getSessionAndUser", () => reader.getSessionAndUser!(s.sessionToken), () => writer.deleteSession!(s.sessionToken))
    expect(raced?.session.sessionToken).toBe(s.sessionToken) // read began before the sign-out
    expect(await other.getSessionAndUser!(s.sessionToken)).toBeNull()
    expect(await reader.getSessionAndUser!(s.sessionToken)).toBeNull()
  })

  test("ending all of a user's sessions (deleteSessionsByUserId) while a session read is in flight", async () => {
    const user = await makeUser(db)
    const s = await session(user)
    await interleave("getSessionAndUser", () => reader.getSessionAndUser!(s.sessionToken), () => writer.deleteSessionsByUserId!(user.id))
    expect(await other.getSessionAndUser!(s.sessionToken)).toBeNull()
  })

  test("the session is cached already, then a re-read races a deleteUser", async () => {
    const user = await makeUser(db)
    const s = await session(user)
    expect(await other.getSessionAndUser!(s.sessionToken)).not.toBeNull()
    await writer.updateSession!({ sessionToken: s.sessionToken, error: null }) // drops the entry: the reader's next read loads again
    await interleave("getSessionAndUser", () => reader.getSessionAndUser!(s.sessionToken), () => writer.deleteUser!(user.id))
    expect(await other.getSessionAndUser!(s.sessionToken)).toBeNull()
    expect(await other.getUser!(user.id)).toBeNull()
  })

  test("a user changed (updateUser) while a session read is in flight: the next read shows the change", async () => {
    const user = await makeUser(db, "Before")
    const s = await session(user)
    await interleave("getSessionAndUser", () => reader.getSessionAndUser!(s.sessionToken), () => writer.updateUser!({ id: user.id, name: "After" }))
    expect((await other.getSessionAndUser!(s.sessionToken))?.user.name).toBe("After")
  })

  test("the epoch bumped (incrementUserSessionEpoch) while an epoch read is in flight", async () => {
    const user = await makeUser(db)
    const raced = await interleave("getUserSessionEpoch", () => reader.getUserSessionEpoch!(user.id), () => writer.incrementUserSessionEpoch!(user.id))
    expect(raced).toBe(0)
    expect(await other.getUserSessionEpoch!(user.id)).toBe(1)
    expect(await reader.getUserSessionEpoch!(user.id)).toBe(1)
  })

  test("a user changed while a getUser is in flight", async () => {
    const user = await makeUser(db, "Before")
    await interleave("getUser", () => reader.getUser!(user.id), () => writer.updateUser!({ id: user.id, name: "After" }))
    expect((await other.getUser!(user.id))?.name).toBe("After")
  })

  test("negative answers: a session created while its 'none' was in flight is found at once", async () => {
    const user = await makeUser(db)
    const token = crypto.randomUUID()
    const raced = await interleave("getSessionAndUser", () => reader.getSessionAndUser!(token), () =>
      writer.createSession!({ sessionToken: token, userId: user.id, expires: new Date(Date.now() + 60_000) }))
    expect(raced).toBeNull()
    expect((await other.getSessionAndUser!(token))?.user.id).toBe(user.id)
  })

  test("negative answers: a user created while its 'none' was in flight is found at once", async () => {
    const id = crypto.randomUUID()
    const raced = await interleave("getUser", () => reader.getUser!(id), () => writer.createUser!({ id, email: `${id}@example.com`, emailVerified: null }))
    expect(raced).toBeNull()
    expect((await other.getUser!(id))?.id).toBe(id)
  })
})
