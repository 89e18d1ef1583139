import { expect } from "vitest"
import type { AdapterSession } from "@authlib/core"
import type { SuiteContext } from "./types.js"

/**
 * listSessionsByUserId and deleteSessionsByUserId (optional): core lists a user's sessions and ends
 * the others, or all of them. Registered only when the adapter has both methods (see `runBasicTests`).
 */
export function userSessionsSuite(ctx: SuiteContext): void {
  const { adapter, db, make, test } = ctx

  async function sessionsOf(count: number) {
    const user = await adapter.createUser(make.user())
    const sessions: AdapterSession[] = []
    for (let i = 0; i < count; i++) sessions.push(await adapter.createSession(make.session(user.id)))
    return { user, sessions }
  }

  const byToken = (list: readonly AdapterSession[]) => [...list].sort((a, b) => a.sessionToken.localeCompare(b.sessionToken))

  test("listSessionsByUserId answers exactly the user's sessions, with their expiry", async () => {
    const mine = await sessionsOf(3)
    const other = await sessionsOf(1)
    const listed = await adapter.listSessionsByUserId(mine.user.id)
    expect(byToken(listed)).toStrictEqual(byToken(mine.sessions))
    expect(await adapter.listSessionsByUserId(other.user.id)).toStrictEqual(other.sessions)
    expect(await adapter.listSessionsByUserId(crypto.randomUUID())).toStrictEqual([])
  })

  test("deleteSessionsByUserId deletes all the user's sessions, or all but the one to keep, and answers how many", async () => {
    const mine = await sessionsOf(4)
    const other = await sessionsOf(2)
    const keep = mine.sessions[1]!
    expect(await adapter.deleteSessionsByUserId(mine.user.id, keep.sessionToken)).toBe(3)
    expect(await adapter.listSessionsByUserId(mine.user.id)).toStrictEqual([keep])
    expect(await db.session(mine.sessions[0]!.sessionToken)).toBeNull()
    expect(await adapter.deleteSessionsByUserId(mine.user.id)).toBe(1)
    expect(await adapter.listSessionsByUserId(mine.user.id)).toStrictEqual([])
    expect(byToken(await adapter.listSessionsByUserId(other.user.id))).toStrictEqual(byToken(other.sessions))
    expect(await adapter.deleteSessionsByUserId(crypto.randomUUID())).toBe(0)
  })

  test("session metadata given to createSession is stored and read back by getSessionAndUser and listSessionsByUserId", async () => {
    const user = await adapter.createUser(make.user())
    const createdAt = new Date(Math.floor(Date.now() / 1000) * 1000 - 60_000)
    const authTime = Math.floor(Date.now() / 1000) - 60
    const metadata = { createdAt, clientDescription: "Firefox on Linux", clientNetwork: "203.0.113.0/24", error: null, authTime, amr: ["pwd", "otp", "mfa"] }
    const created = await adapter.createSession({ ...make.session(user.id), ...metadata })
    const expected = { ...created, createdAt, clientDescription: "Firefox on Linux", clientNetwork: "203.0.113.0/24", authTime, amr: ["pwd", "otp", "mfa"] }
    expect(created).toStrictEqual(expected)
    expect((await adapter.getSessionAndUser(created.sessionToken))?.session).toStrictEqual(expected)
    expect(await adapter.listSessionsByUserId(user.id)).toStrictEqual([expected])
  })

  test("a session created without metadata reads back without the metadata keys", async () => {
    const user = await adapter.createUser(make.user())
    const plain = make.session(user.id)
    const created = await adapter.createSession(plain)
    expect(created).toStrictEqual(plain)
    expect((await adapter.getSessionAndUser(plain.sessionToken))?.session).toStrictEqual(plain)
    expect(await adapter.listSessionsByUserId(user.id)).toStrictEqual([plain])
  })

  test("updateSession sets a metadata field, keeps the ones left out, and clears one given as null", async () => {
    const user = await adapter.createUser(make.user())
    const created = await adapter.createSession({ ...make.session(user.id), clientDescription: "Safari on iOS" })
    const marked = await adapter.updateSession({ sessionToken: created.sessionToken, error: "RefreshTokenError" })
    expect(marked).toStrictEqual({ ...created, error: "RefreshTokenError" })
    expect((await adapter.getSessionAndUser(created.sessionToken))?.session).toStrictEqual({ ...created, error: "RefreshTokenError" })
    const cleared = await adapter.updateSession({ sessionToken: created.sessionToken, error: null })
    expect(cleared).toStrictEqual(created)
    expect((await adapter.getSessionAndUser(created.sessionToken))?.session).toStrictEqual(created)
  })

  test("updateSession records a step-up: authTime and amr replaced (amr order kept), null clears them", async () => {
    const user = await adapter.createUser(make.user())
    const created = await adapter.createSession({ ...make.session(user.id), authTime: 1_700_000_000, amr: ["fed"] })
    const stepped = await adapter.updateSession({ sessionToken: created.sessionToken, authTime: 1_700_000_600, amr: ["fed", "otp", "mfa"] })
    expect(stepped).toStrictEqual({ ...created, authTime: 1_700_000_600, amr: ["fed", "otp", "mfa"] })
    expect((await adapter.getSessionAndUser(created.sessionToken))?.session).toStrictEqual(stepped)
    const cleared = await adapter.updateSession({ sessionToken: created.sessionToken, authTime: null, amr: null })
    const { authTime: _t, amr: _a, ...plain } = created
    expect(cleared).toStrictEqual(plain)
    expect(await adapter.listSessionsByUserId(user.id)).toStrictEqual([plain])
  })

  test("a deleted session no longer finds its user", async () => {
    const mine = await sessionsOf(2)
    await adapter.deleteSessionsByUserId(mine.user.id)
    for (const s of mine.sessions) expect(await adapter.getSessionAndUser(s.sessionToken)).toBeNull()
  })
}
