import { expect } from "vitest"
import type { SuiteContext } from "./types.js"
import { expectDate, storedUser } from "./shapes.js"
import { randomToken } from "./context.js"

/** createSession, getSessionAndUser, updateSession, deleteSession. */
export function sessionsSuite(ctx: SuiteContext): void {
  const { adapter, db, make, test } = ctx

  test("createSession returns the stored session with exact shape", async () => {
    const user = await adapter.createUser(make.user())
    const input = make.session(user.id)
    const session = await adapter.createSession(input)
    expect(session).toStrictEqual(input)
    expect(await db.session(input.sessionToken)).toStrictEqual(input)
  })

  test("createSession stores the (already hashed) token exactly as given", async () => {
    const user = await adapter.createUser(make.user())
    const input = make.session(user.id, { sessionToken: `${randomToken()}-_~.${"Z".repeat(200)}` })
    await adapter.createSession(input)
    expect((await db.session(input.sessionToken))?.sessionToken).toBe(input.sessionToken)
    expect(await db.session(input.sessionToken.toLowerCase())).toBeNull()
  })

  test("getSessionAndUser returns the session and its user", async () => {
    const input = make.user({ name: null, image: null, emailVerified: null })
    const user = await adapter.createUser(input)
    const session = make.session(user.id)
    await adapter.createSession(session)
    const found = await adapter.getSessionAndUser(session.sessionToken)
    expect(found).toStrictEqual({ session, user: storedUser(input, user.id) })
    expectDate(found?.session.expires, session.expires)
  })

  test("getSessionAndUser returns null for an unknown token", async () => {
    expect(await adapter.getSessionAndUser(randomToken())).toBeNull()
  })

  test("updateSession persists the new expiry", async () => {
    const user = await adapter.createUser(make.user())
    const session = make.session(user.id)
    await adapter.createSession(session)
    const expires = make.sessionUpdateExpires()
    const updated = await adapter.updateSession({ sessionToken: session.sessionToken, expires })
    expect(updated).toStrictEqual({ ...session, expires })
    expect(await db.session(session.sessionToken)).toStrictEqual({ ...session, expires })
    expect((await adapter.getSessionAndUser(session.sessionToken))?.session).toStrictEqual({ ...session, expires })
  })

  test("updateSession of an unknown token returns nothing and creates nothing", async () => {
    const sessionToken = randomToken()
    const result = await adapter.updateSession({ sessionToken, expires: make.sessionUpdateExpires() })
    expect(result ?? null).toBeNull()
    expect(await db.session(sessionToken)).toBeNull()
  })

  test("deleteSession removes the session and keeps the user", async () => {
    const user = await adapter.createUser(make.user())
    const session = make.session(user.id)
    await adapter.createSession(session)
    await adapter.deleteSession(session.sessionToken)
    expect(await db.session(session.sessionToken)).toBeNull()
    expect(await adapter.getSessionAndUser(session.sessionToken)).toBeNull()
    expect(await db.user(user.id)).toStrictEqual(user)
  })

  test("deleteSession of an unknown token does not throw or touch others", async () => {
    const user = await adapter.createUser(make.user())
    const session = make.session(user.id)
    await adapter.createSession(session)
    await adapter.deleteSession(randomToken())
    expect(await db.session(session.sessionToken)).toStrictEqual(session)
  })

  test("a user can hold several sessions, each found by its own token", async () => {
    const user = await adapter.createUser(make.user())
    const first = make.session(user.id)
    const second = make.session(user.id)
    await adapter.createSession(first)
    await adapter.createSession(second)
    expect((await adapter.getSessionAndUser(first.sessionToken))?.session).toStrictEqual(first)
    expect((await adapter.getSessionAndUser(second.sessionToken))?.session).toStrictEqual(second)
    await adapter.deleteSession(first.sessionToken)
    expect(await db.session(second.sessionToken)).toStrictEqual(second)
  })

  test("an expired session is still returned, with its stored expiry, for core to judge", async () => {
    const user = await adapter.createUser(make.user())
    const expires = new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000)
    const session = make.session(user.id, { expires })
    await adapter.createSession(session)
    const found = await adapter.getSessionAndUser(session.sessionToken)
    expectDate(found?.session.expires, expires)
  })
}
