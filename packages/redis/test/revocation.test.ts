/**
 * Revocation through the cache: four app instances (each its own Redis connection and cache) in
 * front of one database. Whatever ends a session on one instance is refused by the very next
 * request on any other, though every other instance had the session cached (checked: its read
 * before did not reach the database).
 */
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest"
import { MemoryAdapter, createMemoryStore } from "@authlib/adapter-test"
import { revokeOtherSessions, revokeUserSessions, signOutEverywhere, type Adapter } from "@authlib/core"
import { startRedisServer, type RedisServer } from "@authlib/e2e-kit/redis-server"
import { Browser, closeClient, counted, instance, makeUser, type Instance } from "./helpers/app.js"

const bin = inject("redisServer")

let server: RedisServer
let db: Adapter
let calls: Record<string, number>
let apps: Instance[] = []
beforeAll(async () => {
  server = await startRedisServer(bin)
  ;({ adapter: db, calls } = counted(MemoryAdapter(createMemoryStore())))
  apps = await Promise.all([0, 1, 2, 3].map(() => instance(db, server.url)))
})
afterAll(async () => {
  await Promise.all(apps.map((a) => closeClient(a.client)))
  await server.stop()
})

/** Reads the session on every instance but `except`, twice: the second read of each must be a cache hit. */
async function cachedEverywhere(browser: Browser, except: number): Promise<void> {
  for (const [i, app] of apps.entries()) if (i !== except) expect(await browser.session(app)).not.toBeNull()
  const before = calls.getSessionAndUser ?? 0
  for (const [i, app] of apps.entries()) if (i !== except) expect(await browser.session(app)).not.toBeNull()
  expect(calls.getSessionAndUser ?? 0).toBe(before)
}

async function refusedEverywhere(browser: Browser): Promise<void> {
  for (const app of apps) expect(await new Browser().copy(browser).session(app)).toBeNull()
}

describe("a revocation on one instance is refused by the very next request on every other", () => {
  test("sign-in on one instance, read on the others: served from the cache after the first read", async () => {
    const user = await makeUser(db)
    const browser = new Browser()
    await browser.signIn(apps[0]!, user.email!)
    await cachedEverywhere(browser, 0)
    expect((await browser.session(apps[3]!))?.user.email).toBe(user.email)
  })

  test("sign-out (POST /auth/signout)", async () => {
    const user = await makeUser(db)
    const browser = new Browser()
    await browser.signIn(apps[0]!, user.email!)
    await cachedEverywhere(browser, 0)
    const copy = new Browser().copy(browser)
    expect((await browser.post(apps[0]!, "/auth/signout")).status).toBe(302)
    await refusedEverywhere(copy)
  })

  test("revoke the other sessions (revokeOtherSessions): the others refused, this one kept", async () => {
    const user = await makeUser(db)
    const laptop = new Browser()
    const phone = new Browser()
    await laptop.signIn(apps[0]!, user.email!)
    await phone.signIn(apps[1]!, user.email!)
    await cachedEverywhere(laptop, -1)
    await cachedEverywhere(phone, -1)
    await revokeOtherSessions(laptop.serverRequest(), apps[2]!.config)
    await refusedEverywhere(phone)
    for (const app of apps) expect(await laptop.session(app)).not.toBeNull()
  })

  test("sign out everywhere (signOutEverywhere)", async () => {
    const user = await makeUser(db)
    const laptop = new Browser()
    const phone = new Browser()
    await laptop.signIn(apps[0]!, user.email!)
    await phone.signIn(apps[1]!, user.email!)
    await cachedEverywhere(laptop, -1)
    await cachedEverywhere(phone, -1)
    await signOutEverywhere(laptop.serverRequest(), apps[3]!.config)
    await refusedEverywhere(laptop)
    await refusedEverywhere(phone)
  })

  test("an administrator ends a user's sessions (revokeUserSessions)", async () => {
    const user = await makeUser(db)
    const browser = new Browser()
    await browser.signIn(apps[0]!, user.email!)
    await cachedEverywhere(browser, -1)
    expect(await revokeUserSessions(apps[1]!.config, user.id)).toBe(1)
    await refusedEverywhere(browser)
  })

  test("the user is deleted (deleteUser)", async () => {
    const user = await makeUser(db)
    const browser = new Browser()
    await browser.signIn(apps[0]!, user.email!)
    await cachedEverywhere(browser, -1)
    await apps[2]!.adapter.deleteUser?.(user.id)
    await refusedEverywhere(browser)
    for (const app of apps) expect(await app.adapter.getUser?.(user.id)).toBeNull()
  })

  test("the user is changed (updateUser): every instance shows the new name at once", async () => {
    const user = await makeUser(db, "Before")
    const browser = new Browser()
    await browser.signIn(apps[0]!, user.email!)
    await cachedEverywhere(browser, -1)
    for (const app of apps) expect((await app.adapter.getUser?.(user.id))?.name).toBe("Before")
    await apps[1]!.adapter.updateUser?.({ id: user.id, name: "After" })
    for (const app of apps) expect((await browser.session(app))?.user.name).toBe("After")
    for (const app of apps) expect((await app.adapter.getUser?.(user.id))?.name).toBe("After")
  })

  test("JWT revocation: the session epoch bumped on one instance is read at once on the others", async () => {
    const user = await makeUser(db)
    for (const app of apps) expect(await app.adapter.getUserSessionEpoch?.(user.id)).toBe(0)
    const before = calls.getUserSessionEpoch ?? 0
    for (const app of apps) expect(await app.adapter.getUserSessionEpoch?.(user.id)).toBe(0)
    expect(calls.getUserSessionEpoch ?? 0).toBe(before) // cached
    expect(await apps[0]!.adapter.incrementUserSessionEpoch?.(user.id)).toBe(1)
    for (const app of apps) expect(await app.adapter.getUserSessionEpoch?.(user.id)).toBe(1)
  })
})
