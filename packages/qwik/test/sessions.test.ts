/** The session functions through the binding, against the real core (database sessions). */
import type { Adapter, AdapterSession, AdapterUser } from "@authlib/core"
import { describe, expect, it } from "vitest"
import { AccountManagementError, listLinkedAccounts, listSessions, listSignInMethods, revokeOtherSessions, revokeSession, SessionManagementError, signOutEverywhere, unlinkLinkedAccount } from "../src/index.js"
import { ada, ORIGIN, testConfig } from "./harness/config.js"
import { fakeEvent } from "./harness/fake-event.js"
import { handle, setup, signInThroughRoute } from "./harness/setup.js"

function memory() {
  const users = new Map<string, AdapterUser>([[ada.id, { ...ada, emailVerified: null }]])
  const sessions = new Map<string, AdapterSession>()
  const adapter: Adapter = {
    createUser: (u) => (users.set(u.id, { ...u }), u),
    getUser: (id) => users.get(id) ?? null,
    getUserByEmail: (email) => [...users.values()].find((u) => u.email === email) ?? null,
    getUserByAccount: () => users.get(ada.id) ?? null,
    updateUser: (u) => Object.assign(users.get(u.id)!, u),
    linkAccount: (a) => a,
    createSession: (s) => (sessions.set(s.sessionToken, { ...s }), s),
    getSessionAndUser: (t) => (sessions.get(t) ? { session: sessions.get(t)!, user: users.get(sessions.get(t)!.userId)! } : null),
    updateSession: (s) => Object.assign(sessions.get(s.sessionToken)!, s),
    deleteSession: (t) => {
      const s = sessions.get(t) ?? null
      sessions.delete(t)
      return s
    },
    listAccountsByUserId: (userId) => (userId === ada.id ? [{ userId, type: "credentials", provider: "password", providerAccountId: ada.id }] : []),
    unlinkAccount: () => undefined,
    listSessionsByUserId: (userId) => [...sessions.values()].filter((s) => s.userId === userId),
    deleteSessionsByUserId: (userId, keep) => {
      let n = 0
      for (const [t, s] of sessions) if (s.userId === userId && t !== keep) (sessions.delete(t), n++)
      return n
    },
  }
  return { adapter, sessions }
}

describe("session functions through the binding", () => {
  it("lists, ends one and ends the others, for the request's user", async () => {
    const { adapter, sessions } = memory()
    const { auth } = setup(testConfig({ adapter, session: { strategy: "database" } }))
    const first = await signInThroughRoute(auth)
    const second = await signInThroughRoute(auth)
    await signInThroughRoute(auth)
    expect(sessions.size).toBe(3)
    const ev = fakeEvent(`${ORIGIN}/account/`, { cookie: second.cookie })
    await handle(auth, ev)
    const listed = await listSessions(ev)
    expect(listed).toHaveLength(3)
    expect(listed.filter((s) => s.current)).toHaveLength(1)
    const firstEv = fakeEvent(`${ORIGIN}/account/`, { cookie: first.cookie })
    await handle(auth, firstEv)
    const firstId = (await listSessions(firstEv)).find((s) => s.current)!.id
    await revokeSession(ev, { id: firstId })
    expect(sessions.size).toBe(2)
    expect(await revokeSession(ev, { id: firstId }).catch((e: unknown) => e)).toBeInstanceOf(SessionManagementError)
    expect(await revokeOtherSessions(ev)).toBe(1)
    expect(sessions.size).toBe(1)
  })

  it("signs out everywhere: every session of the user ends, this one's cookie is cleared", async () => {
    const { adapter, sessions } = memory()
    const { auth } = setup(testConfig({ adapter, session: { strategy: "database" } }))
    await signInThroughRoute(auth)
    const { cookie } = await signInThroughRoute(auth)
    const ev = fakeEvent(`${ORIGIN}/account/`, { cookie })
    await handle(auth, ev)
    expect(await signOutEverywhere(ev)).toBe(2)
    expect(sessions.size).toBe(0)
    const cleared = ev.recorded.cookies.filter((c) => c.name === "authlib.session-token")
    expect(cleared.at(-1)).toMatchObject({ value: "" })
  })

  it("JWT sessions: ending the others re-issues this request's cookie; without an adapter that keeps epochs it says so", async () => {
    const epochs = new Map<string, number>()
    const { adapter } = memory()
    Object.assign(adapter, {
      getUserSessionEpoch: (id: string) => (id === ada.id ? epochs.get(id) ?? 0 : null),
      incrementUserSessionEpoch: (id: string) => (epochs.set(id, (epochs.get(id) ?? 0) + 1), epochs.get(id)!),
    })
    const { auth } = setup(testConfig({ adapter, session: { strategy: "jwt" } }))
    const { cookie } = await signInThroughRoute(auth)
    const ev = fakeEvent(`${ORIGIN}/account/`, { cookie })
    await handle(auth, ev)
    expect(await revokeOtherSessions(ev)).toBeNull()
    expect(epochs.get(ada.id)).toBe(1)
    expect(ev.recorded.cookies.filter((c) => c.name === "authlib.session-token").at(-1)?.value).toMatch(/^ey/)

    const { auth: plain } = setup(testConfig({ session: { strategy: "jwt" } }))
    const other = await signInThroughRoute(plain)
    const plainEv = fakeEvent(`${ORIGIN}/account/`, { cookie: other.cookie })
    await handle(plain, plainEv)
    expect(await revokeOtherSessions(plainEv).catch((e: unknown) => e)).toMatchObject({ type: "SessionManagementError", code: "REVOCATION_UNAVAILABLE" })
  })

  it("lists linked accounts and sign-in methods; a password's account is not unlinked (it would still sign in)", async () => {
    const { adapter } = memory()
    const { auth } = setup(testConfig({ adapter, session: { strategy: "database" } }))
    const { cookie } = await signInThroughRoute(auth)
    const ev = fakeEvent(`${ORIGIN}/account/`, { cookie })
    await handle(auth, ev)
    expect(await listLinkedAccounts(ev)).toEqual([{ provider: "password", name: "Password", type: "credentials", unlinkable: false }])
    expect(await listSignInMethods(ev)).toEqual([{ kind: "password", provider: "password", name: "Password", count: 1, removal: null }])
    const err = await unlinkLinkedAccount(ev, { provider: "password" }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(AccountManagementError)
    expect(err).toMatchObject({ code: "ACCOUNT_NOT_UNLINKABLE" })
  })
})
