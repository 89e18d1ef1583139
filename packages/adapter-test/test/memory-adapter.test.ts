import { describe, expect, test } from "vitest"
import { MemoryAdapter, createMemoryStore, dumpStore, runBasicTests } from "../src/index.js"
import type { MemoryStore, SkipTest, TestDb } from "../src/index.js"
import { createContext } from "../src/context.js"

function memoryDb(store: MemoryStore): TestDb {
  const read = <T>(value: T | undefined): T | null => (value === undefined ? null : structuredClone(value))
  return {
    user: (id) => read(store.users.get(id)),
    session: (token) => read(store.sessions.get(token)),
    account: ({ provider, providerAccountId }) => read(store.accounts.get(store.accountKey(provider, providerAccountId))),
    verificationToken: ({ identifier, token }) => read(store.verificationTokens.get(store.tokenKey(identifier, token))),
    authenticator: (id) => read(store.authenticators.get(id)),
    dump: () => dumpStore(store),
  }
}

const store = createMemoryStore()
runBasicTests({ adapter: MemoryAdapter(store), db: memoryDb(store), testWebAuthnMethods: true })

describe("runBasicTests options", () => {
  const base = { adapter: MemoryAdapter(), db: memoryDb(createMemoryStore()) }

  test("a skipTests entry without a reason is rejected at run time", () => {
    const skip = [{ name: "getUser returns the stored user", reason: " " }]
    expect(() => runBasicTests({ ...base, skipTests: skip })).toThrow(/needs a non-empty reason/)
  })

  test("a skipTests entry without a reason does not type-check", () => {
    // @ts-expect-error reason is required
    const skip: SkipTest[] = [{ name: "getUser returns the stored user" }]
    expect(skip).toHaveLength(1)
  })

  test("a skipped test is registered as skipped with its reason, the others run", () => {
    const calls: string[] = []
    const registrar = { run: (name: string) => calls.push(`run ${name}`), skip: (name: string) => calls.push(`skip ${name}`) }
    const ctx = createContext({ ...base, skipTests: [{ name: "b", reason: "no b here" }] }, registrar)
    ctx.test("a", async () => {})
    ctx.test("b", async () => {})
    expect(calls).toStrictEqual(["run a", "skip b (skipped: no b here)"])
    expect(() => ctx.assertSkipsUsed()).not.toThrow()
  })

  test("a skipTests entry naming no test fails the run", () => {
    const registrar = { run: () => {}, skip: () => {} }
    const ctx = createContext({ ...base, skipTests: [{ name: "getUsr typo", reason: "x" }] }, registrar)
    ctx.test("getUser returns the stored user", async () => {})
    expect(() => ctx.assertSkipsUsed()).toThrow('skipTests names no test: "getUsr typo"')
  })

  test("testWebAuthnMethods without db.authenticator is rejected", () => {
    const { authenticator: _, ...db } = base.db
    expect(() => runBasicTests({ ...base, db, testWebAuthnMethods: true })).toThrow(/db.authenticator/)
  })

  test("an adapter with the two-factor port without db.dump is rejected (the plain-text check needs it)", () => {
    const { dump: _, ...db } = base.db
    expect(() => runBasicTests({ ...base, db })).toThrow(/two-factor port needs db.dump/)
  })

  test("an odd concurrency is rejected", () => {
    expect(() => runBasicTests({ ...base, concurrency: 3 })).toThrow(/even integer/)
  })
})

describe("MemoryAdapter", () => {
  test("returns copies, so mutating a result never changes the store", async () => {
    const adapter = MemoryAdapter()
    const user = await adapter.createUser({ id: "u1", email: "a@example.com", emailVerified: null })
    user.email = "mallory@example.com"
    expect((await adapter.getUser("u1"))?.email).toBe("a@example.com")
  })

  test("createUser rejects a duplicate email with a typed error", async () => {
    const adapter = MemoryAdapter()
    await adapter.createUser({ id: "u1", email: "a@example.com", emailVerified: null })
    await expect(async () => adapter.createUser({ id: "u2", email: "a@example.com", emailVerified: null })).rejects.toMatchObject({
      type: "MemoryAdapterError",
      code: "DUPLICATE_EMAIL",
    })
  })

  test("linkAccount rejects an account already linked", async () => {
    const adapter = MemoryAdapter()
    await adapter.createUser({ id: "u1", email: "a@example.com", emailVerified: null })
    const account = { userId: "u1", type: "oauth", provider: "github", providerAccountId: "1" } as const
    await adapter.linkAccount(account)
    await expect(async () => adapter.linkAccount(account)).rejects.toMatchObject({ code: "DUPLICATE_ACCOUNT" })
  })

  test("rejects a taken user id, session token or credential ID with DUPLICATE_KEY and keeps the first record", async () => {
    const store = createMemoryStore()
    const adapter = MemoryAdapter(store)
    const ada = await adapter.createUser({ id: "u1", email: "a@example.com", emailVerified: null })
    await adapter.createUser({ id: "u2", email: "m@example.com", emailVerified: null })
    const duplicateKey = { type: "MemoryAdapterError", code: "DUPLICATE_KEY" }
    await expect(async () => adapter.createUser({ id: "u1", email: "x@example.com", emailVerified: null })).rejects.toMatchObject(duplicateKey)
    const session = { sessionToken: "t", userId: "u1", expires: new Date(2_000_000_000_000) }
    await adapter.createSession(session)
    await expect(async () => adapter.createSession({ ...session, userId: "u2" })).rejects.toMatchObject(duplicateKey)
    const passkey = {
      credentialID: "c",
      userId: "u1",
      providerAccountId: "p1",
      counter: 0,
      credentialBackedUp: false,
      credentialPublicKey: "k",
      credentialDeviceType: "singleDevice",
      transports: null,
    }
    await adapter.createAuthenticator(passkey)
    await expect(async () => adapter.createAuthenticator({ ...passkey, userId: "u2" })).rejects.toMatchObject(duplicateKey)
    expect(store.users.get("u1")).toStrictEqual(ada)
    expect(store.sessions.get("t")).toStrictEqual(session)
    expect(store.authenticators.get("c")).toMatchObject(passkey)
    expect(store.users.size).toBe(2)
  })

  test("organizations: an unknown owner is UNKNOWN_USER and a taken organization id or invitation token hash DUPLICATE_KEY, writing nothing", async () => {
    const store = createMemoryStore()
    const adapter = MemoryAdapter(store)
    await adapter.createUser({ id: "u1", email: "a@example.com", emailVerified: null })
    await expect(async () => adapter.createOrganization({ id: "o0", name: "Ghost", slug: "ghost", ownerId: "nobody" })).rejects.toMatchObject({ code: "UNKNOWN_USER" })
    await adapter.createOrganization({ id: "o1", name: "Acme", slug: "acme", ownerId: "u1" })
    await expect(async () => adapter.createOrganization({ id: "o1", name: "Twin", slug: "twin", ownerId: "u1" })).rejects.toMatchObject({ code: "DUPLICATE_KEY" })
    const invitation = { id: "i1", organizationId: "o1", email: "b@example.com", role: "member", inviterId: "u1", tokenHash: "h", expires: new Date(Date.now() + 60_000) }
    await adapter.createOrganizationInvitation(invitation, { now: new Date() })
    await expect(async () => adapter.createOrganizationInvitation({ ...invitation, id: "i2", email: "c@example.com" }, { now: new Date() })).rejects.toMatchObject({ code: "DUPLICATE_KEY" })
    expect([...store.organizations.keys()]).toStrictEqual(["o1"])
    expect([...store.organizationInvitations.keys()]).toStrictEqual(["i1"])
    expect(store.organizationMembers.size).toBe(1)
  })
})
