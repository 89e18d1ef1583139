/**
 * How long entries live: nothing negative ("no such session", "no such user") longer than
 * `negativeTtl`; a session never cached past its own expiry; sliding extension still writes the
 * database once per `updateAge` across instances, and the cached expiry follows it.
 */
import { createHash } from "node:crypto"
import { afterAll, beforeAll, describe, expect, test } from "vitest"
import { MemoryAdapter, createMemoryStore } from "@authlib/adapter-test"
import type { Adapter } from "@authlib/core"
import { withRedisCache } from "../src/index.js"
import { Browser, closeClient, counted, instance, makeUser, type Client, type Instance, quiet, redisForFile } from "./helpers/app.js"

let client: Client
let redisUrl: string
redisForFile((c, server) => ((client = c), (redisUrl = server.url)))

describe("negative entries are short-lived", () => {
  test("an unknown session is cached as such for at most negativeTtl, and a new one replaces it at once", async () => {
    const db = MemoryAdapter(createMemoryStore())
    const a = withRedisCache(db, { client, logger: quiet, negativeTtl: 2 })
    const b = withRedisCache(db, { client, logger: quiet, negativeTtl: 2 })
    const token = crypto.randomUUID()
    expect(await a.getSessionAndUser!(token)).toBeNull()
    const ttl = await client.pTTL(`authlib:c:s:${token}`)
    expect(ttl).toBeGreaterThan(0)
    expect(ttl).toBeLessThanOrEqual(2_000)
    const user = await makeUser(db)
    await b.createSession!({ sessionToken: token, userId: user.id, expires: new Date(Date.now() + 60_000) })
    expect((await a.getSessionAndUser!(token))?.user.id).toBe(user.id)
  })

  test("an unknown user is cached as such for at most negativeTtl; created behind the cache's back, it is found once that passed", async () => {
    const db = MemoryAdapter(createMemoryStore())
    const a = withRedisCache(db, { client, logger: quiet, negativeTtl: 1 })
    const id = crypto.randomUUID()
    expect(await a.getUser!(id)).toBeNull()
    expect(await a.getUserSessionEpoch!(id)).toBeNull()
    const ttl = await client.pTTL(`authlib:c:u:${id}`)
    expect(ttl).toBeGreaterThan(0)
    expect(ttl).toBeLessThanOrEqual(1_000)
    await db.createUser!({ id, email: `${id}@example.com`, emailVerified: null }) // another app writing the database directly
    await new Promise((r) => setTimeout(r, 1_100))
    expect((await a.getUser!(id))?.id).toBe(id)
    expect(await a.getUserSessionEpoch!(id)).toBe(0)
  })

  test("an entry expiring in Redis signs nobody out: the next read comes from the database and fills again", async () => {
    const db = MemoryAdapter(createMemoryStore())
    const a = withRedisCache(db, { client, logger: quiet, ttl: 1 })
    const user = await makeUser(db)
    const s = await db.createSession!({ sessionToken: crypto.randomUUID(), userId: user.id, expires: new Date(Date.now() + 86_400_000) })
    expect(await a.getSessionAndUser!(s.sessionToken)).not.toBeNull()
    await new Promise((r) => setTimeout(r, 1_100))
    expect(await client.exists(`authlib:c:s:${s.sessionToken}`)).toBe(0)
    expect((await a.getSessionAndUser!(s.sessionToken))?.user.id).toBe(user.id)
    expect(await client.exists(`authlib:c:s:${s.sessionToken}`)).toBe(1)
  })

  test("negativeTtl above 60 seconds is refused", () => {
    expect(() => withRedisCache(MemoryAdapter(), { client, negativeTtl: 61 })).toThrow(/negativeTtl/)
  })

  test("a session is never cached past its own expiry, nor longer than ttl", async () => {
    const db = MemoryAdapter(createMemoryStore())
    const a = withRedisCache(db, { client, logger: quiet, ttl: 120 })
    const user = await makeUser(db)
    const soon = await db.createSession!({ sessionToken: crypto.randomUUID(), userId: user.id, expires: new Date(Date.now() + 3_000) })
    const later = await db.createSession!({ sessionToken: crypto.randomUUID(), userId: user.id, expires: new Date(Date.now() + 86_400_000) })
    await a.getSessionAndUser!(soon.sessionToken)
    await a.getSessionAndUser!(later.sessionToken)
    expect(await client.pTTL(`authlib:c:s:${soon.sessionToken}`)).toBeLessThanOrEqual(3_000)
    expect(await client.pTTL(`authlib:c:s:${later.sessionToken}`)).toBeLessThanOrEqual(120_000)
    expect(await client.pTTL(`authlib:c:u:${user.id}`)).toBeLessThanOrEqual(120_000)
  })
})

describe("sliding expiry through the cache", () => {
  const maxAge = 3_600
  const updateAge = 60
  let db: Adapter
  let calls: Record<string, number>
  let apps: Instance[]
  beforeAll(async () => {
    ;({ adapter: db, calls } = counted(MemoryAdapter(createMemoryStore())))
    apps = await Promise.all([0, 1, 2, 3].map(() => instance(db, redisUrl, { session: { strategy: "database", maxAge, updateAge } })))
  })
  afterAll(() => Promise.all(apps.map((a) => closeClient(a.client))))

  test("a due session read on four instances at once is extended once; every later read answers the new expiry, from the cache", async () => {
    const user = await makeUser(db)
    const token = crypto.randomUUID() + crypto.randomUUID()
    const hash = createHash("sha256").update(token).digest("base64url")
    // Last written two minutes ago: due (updateAge is one minute).
    const old = new Date(Date.now() + (maxAge - 120) * 1000)
    await db.createSession!({ sessionToken: hash, userId: user.id, expires: old })
    const browser = new Browser()
    browser.jar.set("authlib.session-token", token)
    expect(new Date((await browser.session(apps[0]!))!.expires).getTime()).toBeGreaterThan(old.getTime())
    expect(calls["extendSession:answered"]).toBe(1)
    const stored = (await db.getSessionAndUser!(hash))!.session.expires
    expect(stored.getTime()).toBeGreaterThan(old.getTime())
    const answers = await Promise.all(apps.flatMap((app) => [browser.session(app), browser.session(app)]))
    for (const answer of answers) expect(answer?.expires).toBe(stored.toISOString())
    expect(calls["extendSession:answered"]).toBe(1)
    const reads = calls.getSessionAndUser
    for (const app of apps) expect((await browser.session(app))?.expires).toBe(stored.toISOString())
    expect(calls.getSessionAndUser).toBe(reads) // cache hits, with the new expiry
    expect(await client.hGet(`authlib:c:s:${hash}`, "session")).toContain(stored.toISOString())
  })

  test("concurrent first reads of a due session on four instances write the database once", async () => {
    const user = await makeUser(db)
    const token = crypto.randomUUID() + crypto.randomUUID()
    const hash = createHash("sha256").update(token).digest("base64url")
    await db.createSession!({ sessionToken: hash, userId: user.id, expires: new Date(Date.now() + (maxAge - 120) * 1000) })
    const before = calls["extendSession:answered"] ?? 0
    const browser = new Browser()
    browser.jar.set("authlib.session-token", token)
    const answers = await Promise.all(apps.map((app) => browser.session(app)))
    expect(answers.every((a) => a !== null)).toBe(true)
    // Each instance may find it due (each loaded it before the write): the conditional update lets one through.
    expect(calls["extendSession:answered"]! - before).toBe(1)
    const stored = (await db.getSessionAndUser!(hash))!.session.expires.toISOString()
    for (const app of apps) expect((await browser.session(app))?.expires).toBe(stored)
  })
})

describe("session.absoluteMaxAge through the cache", () => {
  const cap = 60
  let db: Adapter
  let calls: Record<string, number>
  let app: Instance
  beforeAll(async () => {
    ;({ adapter: db, calls } = counted(MemoryAdapter(createMemoryStore())))
    app = await instance(db, redisUrl, { session: { strategy: "database", absoluteMaxAge: cap } }, { ttl: 300 })
  })
  afterAll(() => closeClient(app.client))

  test("a session signed in under the option is cached no longer than its absolute end", async () => {
    const user = await makeUser(db)
    const browser = new Browser()
    await browser.signIn(app, user.email!)
    const end = Date.now() + cap * 1000
    expect(new Date((await browser.session(app))!.expires).getTime()).toBeLessThanOrEqual(end)
    const hash = createHash("sha256").update(browser.jar.get("authlib.session-token")!).digest("base64url")
    expect(await client.pTTL(`authlib:c:s:${hash}`)).toBeGreaterThan(0)
    expect(await client.pTTL(`authlib:c:s:${hash}`)).toBeLessThanOrEqual(cap * 1000)
  })

  test("a cached session past its absolute end reads as no session (the cache still holds it), and is deleted with its entry", async () => {
    const user = await makeUser(db)
    const token = crypto.randomUUID() + crypto.randomUUID()
    const hash = createHash("sha256").update(token).digest("base64url")
    // Stored before the option was on: a long sliding expiry, signed in almost `cap` ago.
    await db.createSession!({ sessionToken: hash, userId: user.id, expires: new Date(Date.now() + 86_400_000), createdAt: new Date(Date.now() - (cap - 2) * 1000) })
    const browser = new Browser()
    browser.jar.set("authlib.session-token", token)
    expect(await browser.session(app)).not.toBeNull()
    expect(await client.exists(`authlib:c:s:${hash}`)).toBe(1)
    const reads = calls.getSessionAndUser
    await new Promise((r) => setTimeout(r, 2_100))
    expect(await client.exists(`authlib:c:s:${hash}`)).toBe(1)
    expect(await browser.session(app)).toBeNull()
    expect(calls.getSessionAndUser).toBe(reads) // answered from the cache, and refused all the same
    expect(await db.getSessionAndUser!(hash)).toBeNull()
    expect(await client.exists(`authlib:c:s:${hash}`)).toBe(0)
  })
})
