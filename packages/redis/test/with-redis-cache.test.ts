/**
 * The adapter `withRedisCache` answers: exactly the methods of the adapter it wraps (core decides
 * what to do from which methods exist), the cache's options checked at once, and a method this
 * release does not know treated as a write that may change anything.
 */
import { describe, expect, test, vi } from "vitest"
import { MemoryAdapter, createMemoryStore } from "@authlib/adapter-test"
import type { Adapter } from "@authlib/core"
import { AuthlibRedisError, withRedisCache } from "../src/index.js"
import { counted, makeUser, type Client, quiet, redisForFile } from "./helpers/app.js"

let client: Client
redisForFile((c) => (client = c))

describe("withRedisCache", () => {
  test("answers exactly the adapter's methods: none added (an Auth.js adapter without extendSession stays without)", () => {
    const { extendSession: _e, listSessionsByUserId: _l, ...authjsLike } = MemoryAdapter()
    const cached = withRedisCache(authjsLike as Adapter, { client })
    expect(Object.keys(cached).sort()).toStrictEqual(Object.keys(authjsLike).sort())
    expect("extendSession" in cached).toBe(false)
  })

  test("keeps the methods of a class adapter (inherited ones included)", async () => {
    class ClassAdapter {
      constructor(private readonly inner = MemoryAdapter(createMemoryStore())) {}
      getUser(id: string) {
        return this.inner.getUser(id)
      }
      createUser(user: Parameters<Required<Adapter>["createUser"]>[0]) {
        return this.inner.createUser(user)
      }
    }
    const cached = withRedisCache(new ClassAdapter() as Adapter, { client, logger: quiet })
    const id = crypto.randomUUID()
    await cached.createUser!({ id, email: `${id}@example.com`, emailVerified: null })
    expect((await cached.getUser!(id))?.id).toBe(id)
  })

  test("a method it does not know is called as it is, then a new era voids every entry (it may have changed anything)", async () => {
    const store = createMemoryStore()
    const base = MemoryAdapter(store)
    const user = await makeUser(base, "Before")
    const adapter = { ...base, renameEveryone: async (name: string) => void [...store.users.values()].forEach((u) => (u.name = name)) }
    const cached = withRedisCache(adapter as Adapter, { client, logger: quiet })
    expect((await cached.getUser!(user.id))?.name).toBe("Before")
    await (cached as typeof adapter).renameEveryone("After")
    expect((await cached.getUser!(user.id))?.name).toBe("After")
  })

  test("the two-factor port's methods are called as they are: counting, resetting and checking codes keep every cached entry", async () => {
    const store = createMemoryStore()
    const base = MemoryAdapter(store)
    const cached = withRedisCache(base, { client, logger: quiet })
    const user = await makeUser(base, "Cached")
    expect(await cached.getUser!(user.id)).toMatchObject({ name: "Cached" })
    store.users.get(user.id)!.name = "Changed behind the cache"
    expect(await cached.setTwoFactorPendingSecret!(user.id, "sealed")).toMatchObject({ failedAttempts: 0 })
    expect(await cached.enableTwoFactor!(user.id, { secret: "sealed", step: 1, backupCodeHashes: ["h"] })).toMatchObject({ enabled: true })
    expect(await cached.countTwoFactorAttempt!(user.id, 100)).toMatchObject({ failedAttempts: 1 })
    expect(await cached.recordTwoFactorStep!(user.id, 2)).toBe(true)
    expect(await cached.countTwoFactorAttempt!(user.id, 100)).toMatchObject({ failedAttempts: 1 })
    expect(await cached.resetTwoFactorFailures!(user.id)).toBe(true)
    expect(await cached.useTwoFactorBackupCode!(user.id, ["h"])).toBe(true)
    expect(await cached.replaceTwoFactorBackupCodes!(user.id, ["i"])).toBe(true)
    expect(await cached.getTwoFactor!(user.id)).toMatchObject({ failedAttempts: 0, backupCodesLeft: 1 })
    expect(await cached.deleteTwoFactor!(user.id)).toBe(true)
    // No write above renewed the cache: the entry read before them is still served.
    expect(await cached.getUser!(user.id)).toMatchObject({ name: "Cached" })
  })

  test("the organizations port's methods are called as they are: memberships are read from the store at each use, and no call renews the cache", async () => {
    const store = createMemoryStore()
    const base = MemoryAdapter(store)
    const cached = withRedisCache(base, { client, logger: quiet })
    const owner = await makeUser(base, "Owner")
    const member = await makeUser(base, "Member")
    expect(await cached.getUser!(owner.id)).toMatchObject({ name: "Owner" })
    store.users.get(owner.id)!.name = "Changed behind the cache"
    const org = await cached.createOrganization!({ id: crypto.randomUUID(), name: "Acme", slug: `acme-${crypto.randomUUID().slice(0, 8)}`, ownerId: owner.id })
    if (org === "slug-taken") throw new Error("a fresh slug was taken")
    expect(await cached.getOrganization!(org.id)).toStrictEqual(org)
    expect(await cached.getOrganizationBySlug!(org.slug)).toStrictEqual(org)
    expect(await cached.updateOrganization!(org.id, { name: "Acme 2" })).toMatchObject({ name: "Acme 2" })
    const sent = { id: crypto.randomUUID(), organizationId: org.id, email: member.email!, role: "admin", inviterId: owner.id, tokenHash: crypto.randomUUID(), expires: new Date(Date.now() + 60_000) }
    expect(await cached.createOrganizationInvitation!(sent, { now: new Date(), membershipLimit: 5 })).toMatchObject({ status: "pending" })
    expect(await cached.getOrganizationInvitation!(sent.id)).toMatchObject({ status: "pending" })
    expect(await cached.getOrganizationInvitationByTokenHash!(sent.tokenHash)).toMatchObject({ id: sent.id })
    expect(await cached.listOrganizationInvitations!(org.id)).toHaveLength(1)
    expect(await cached.acceptOrganizationInvitation!({ tokenHash: sent.tokenHash, userId: member.id, email: member.email!, now: new Date() })).toMatchObject({ role: "admin" })
    expect(await cached.getOrganizationMember!(org.id, member.id)).toMatchObject({ role: "admin" })
    // A membership changed behind the cache is seen by the very next read: nothing of it is cached.
    store.organizationMembers.get(store.memberKey(org.id, member.id))!.role = "member"
    expect(await cached.getOrganizationMember!(org.id, member.id)).toMatchObject({ role: "member" })
    expect(await cached.listOrganizationMembers!(org.id)).toHaveLength(2)
    expect(await cached.listOrganizationsByUserId!(member.id)).toMatchObject([{ id: org.id, role: "member" }])
    expect(await cached.updateOrganizationMemberRole!(org.id, member.id, "admin", { userId: owner.id, role: "owner" })).toMatchObject({ role: "admin" })
    expect(await cached.removeOrganizationMember!(org.id, member.id)).toMatchObject({ userId: member.id })
    store.organizationMembers.delete(store.memberKey(org.id, owner.id))
    expect(await cached.getOrganizationMember!(org.id, owner.id)).toBeNull()
    const revocable = { ...sent, id: crypto.randomUUID(), tokenHash: crypto.randomUUID() }
    await cached.createOrganizationInvitation!(revocable, { now: new Date() })
    expect(await cached.revokeOrganizationInvitation!(revocable.id)).toBe(true)
    expect(await cached.deleteOrganization!(org.id)).toBe(true)
    // No call above renewed the cache: the entry read before them is still served.
    expect(await cached.getUser!(owner.id)).toMatchObject({ name: "Owner" })
  })

  test("the SSO port's methods are called as they are, and no call renews the cache", async () => {
    const store = createMemoryStore()
    const base = MemoryAdapter(store)
    const cached = withRedisCache(base, { client, logger: quiet })
    const owner = await makeUser(base, "Owner")
    const joiner = await makeUser(base, "Joiner")
    expect(await cached.getUser(owner.id)).toMatchObject({ name: "Owner" })
    store.users.get(owner.id)!.name = "Changed behind the cache"
    const org = await base.createOrganization({ id: crypto.randomUUID(), name: "Acme", slug: `acme-${crypto.randomUUID().slice(0, 8)}`, ownerId: owner.id })
    if (org === "slug-taken") throw new Error("a fresh slug was taken")
    const connection = await cached.createSsoConnection({
      id: crypto.randomUUID(), organizationId: org.id, type: "oidc", defaultRole: "member", idpEntityId: null, idpSsoUrl: null, idpCertificates: [],
      spCertificate: null, spPrivateKeySealed: null, issuer: "https://idp.example", clientId: "c", clientSecretSealed: "sealed", requireIdpMfa: false, allowIdpInitiated: false,
    })
    expect(await cached.getSsoConnection(connection.id)).toMatchObject({ id: connection.id })
    expect(await cached.listSsoConnections(org.id)).toHaveLength(1)
    expect(await cached.updateSsoConnection(connection.id, { requireIdpMfa: true })).toMatchObject({ requireIdpMfa: true })
    const domain = `acme-${crypto.randomUUID().slice(0, 8)}.example`
    await cached.addSsoDomain({ id: crypto.randomUUID(), connectionId: connection.id, organizationId: org.id, domain, verificationToken: "t" })
    expect(await cached.listSsoDomains(connection.id)).toHaveLength(1)
    expect(await cached.verifySsoDomain(connection.id, domain, new Date())).toMatchObject({ domain })
    expect(await cached.getVerifiedSsoDomain(domain)).toMatchObject({ connectionId: connection.id })
    expect(await cached.addOrganizationMember(org.id, joiner.id, "member", { now: new Date(), membershipLimit: 5 })).toMatchObject({ userId: joiner.id })
    const record = { identifier: `sso:${connection.id}`, token: crypto.randomUUID(), expires: new Date(Date.now() + 60_000) }
    expect(await cached.claimVerificationToken(record)).toBe(true)
    expect(await cached.claimVerificationToken(record)).toBe(false)
    expect(await cached.deleteSsoConnection(connection.id)).toBe(true)
    // No call above renewed the cache: the entry read before them is still served.
    expect(await cached.getUser(owner.id)).toMatchObject({ name: "Owner" })
  })

  test("deleteUser of an organization's last owner passes the adapter's OrganizationError LAST_OWNER through and keeps the user", async () => {
    const base = MemoryAdapter(createMemoryStore())
    const cached = withRedisCache(base, { client, logger: quiet })
    const owner = await makeUser(base, "Owner")
    const member = await makeUser(base, "Member")
    const org = await base.createOrganization!({ id: crypto.randomUUID(), name: "Acme", slug: `acme-${crypto.randomUUID().slice(0, 8)}`, ownerId: owner.id })
    if (org === "slug-taken") throw new Error("a fresh slug was taken")
    const sent = { id: crypto.randomUUID(), organizationId: org.id, email: member.email!, role: "member", inviterId: owner.id, tokenHash: crypto.randomUUID(), expires: new Date(Date.now() + 60_000) }
    await base.createOrganizationInvitation!(sent, { now: new Date() })
    await base.acceptOrganizationInvitation!({ tokenHash: sent.tokenHash, userId: member.id, email: member.email!, now: new Date() })
    await expect(cached.deleteUser!(owner.id)).rejects.toMatchObject({ type: "OrganizationError", code: "LAST_OWNER" })
    expect(await cached.getUser!(owner.id)).toMatchObject({ id: owner.id })
  })

  test("createSessionForAccount drops only the new session's entry: other cached entries stay, a cached 'unknown' for its hash goes", async () => {
    const store = createMemoryStore()
    const base = MemoryAdapter(store)
    const adapter = {
      ...base,
      // What core calls for a returning credentials user: the account's owner and a new session in one call.
      async createSessionForAccount(account: { provider: string; providerAccountId: string }, session: { sessionToken: string; expires: Date }) {
        const user = await base.getUserByAccount(account)
        return user ? { session: await base.createSession({ ...session, userId: user.id }), user } : null
      },
    }
    const cached = withRedisCache(adapter as Adapter, { client, logger: quiet })
    const other = await makeUser(base, "Cached")
    const owner = await makeUser(base, "Owner")
    await base.linkAccount({ userId: owner.id, type: "credentials", provider: "credentials", providerAccountId: owner.id })
    const sessionToken = crypto.randomUUID()
    expect(await cached.getUser!(other.id)).toMatchObject({ name: "Cached" })
    expect(await cached.getSessionAndUser!(sessionToken)).toBeNull()
    store.users.get(other.id)!.name = "Changed behind the cache"
    await (cached as typeof adapter).createSessionForAccount({ provider: "credentials", providerAccountId: owner.id }, { sessionToken, expires: new Date(Date.now() + 60_000) })
    expect((await cached.getSessionAndUser!(sessionToken))?.user.id).toBe(owner.id)
    expect(await cached.getUser!(other.id)).toMatchObject({ name: "Cached" })
  })

  test("useVerificationTokenAndCreateSession drops only the new session's entry: other cached entries stay, a cached 'unknown' for its hash goes", async () => {
    const store = createMemoryStore()
    const base = MemoryAdapter(store)
    const cached = withRedisCache(base, { client, logger: quiet })
    const other = await makeUser(base, "Cached")
    const owner = await base.createUser({ id: crypto.randomUUID(), email: `${crypto.randomUUID()}@example.com`, emailVerified: new Date(), name: "Owner", image: null })
    await base.linkAccount({ userId: owner.id, type: "email", provider: "email", providerAccountId: owner.email! })
    const link = { identifier: owner.email!, token: crypto.randomUUID() }
    await base.createVerificationToken({ ...link, expires: new Date(Date.now() + 60_000) })
    const sessionToken = crypto.randomUUID()
    expect(await cached.getUser!(other.id)).toMatchObject({ name: "Cached" })
    expect(await cached.getSessionAndUser!(sessionToken)).toBeNull()
    store.users.get(other.id)!.name = "Changed behind the cache"
    // What core calls to complete a returning user's e-mail link: the link used and a new session in one call.
    const used = await cached.useVerificationTokenAndCreateSession!(link, { provider: "email", providerAccountId: owner.email! }, { sessionToken, expires: new Date(Date.now() + 60_000) })
    expect(used?.session?.userId).toBe(owner.id)
    expect((await cached.getSessionAndUser!(sessionToken))?.user.id).toBe(owner.id)
    expect(await cached.getUser!(other.id)).toMatchObject({ name: "Cached" })
  })

  test("options out of range and a missing client are refused at once, with INVALID_OPTION", () => {
    const adapter = MemoryAdapter()
    for (const options of [{ client: undefined }, { client: {} }, { client, ttl: 0 }, { client, ttl: 1.5 }, { client, negativeTtl: 0 }, { client, timeoutMs: -1 }]) {
      let thrown: unknown
      try {
        withRedisCache(adapter, options as never)
      } catch (err) {
        thrown = err
      }
      expect(thrown).toBeInstanceOf(AuthlibRedisError)
      expect((thrown as AuthlibRedisError).code).toBe("INVALID_OPTION")
    }
  })

  test("a corrupt entry (something else wrote under the prefix) reads as a miss: the database answers, nothing is thrown", async () => {
    const db = MemoryAdapter(createMemoryStore())
    const cached = withRedisCache(db, { client, logger: quiet, prefix: "corrupt:" })
    const user = await makeUser(db)
    const s = await db.createSession!({ sessionToken: crypto.randomUUID(), userId: user.id, expires: new Date(Date.now() + 60_000) })
    await cached.getSessionAndUser!(s.sessionToken)
    await cached.getUser!(user.id)
    await client.hSet(`corrupt:s:${s.sessionToken}`, "session", "{not json")
    await client.hSet(`corrupt:u:${user.id}`, "user", "{not json")
    expect((await cached.getSessionAndUser!(s.sessionToken))?.user.id).toBe(user.id)
    expect((await cached.getUser!(user.id))?.id).toBe(user.id)
  })

  test("sessions are stored under the hash core hands over, never anything else of the cookie", async () => {
    const db = MemoryAdapter(createMemoryStore())
    const cached = withRedisCache(db, { client, logger: quiet, prefix: "t:" })
    const user = await makeUser(db)
    const hash = "x".repeat(43)
    await db.createSession!({ sessionToken: hash, userId: user.id, expires: new Date(Date.now() + 60_000) })
    await cached.getSessionAndUser!(hash)
    const keys = (await client.keys("t:*")).sort()
    expect(keys).toStrictEqual(["t:era", `t:s:${hash}`, `t:u:${user.id}`])
  })

  test("sets no node-redis command timer: its commands carry { timeout: 0 }, and a hit creates no AbortSignal.timeout", async () => {
    // node-redis 5.x arms a 5 s `AbortSignal.timeout` per command (it only covers the wait before the
    // command is written, and fires after the reply all the same); the cache bounds its commands by
    // `timeoutMs` itself, so it asks for none. Measured: about a fifth of a hit's CPU over HTTP.
    const seen: unknown[] = []
    const recording = {
      sendCommand: (args: string[], options?: unknown) => (seen.push(options), client.sendCommand(args, options as never)),
      get isReady() {
        return client.isReady
      },
    }
    const { adapter, calls } = counted(MemoryAdapter(createMemoryStore()))
    const cached = withRedisCache(adapter, { client: recording, prefix: "notimer:", logger: quiet })
    const user = await makeUser(adapter)
    const hash = crypto.randomUUID()
    await cached.createSession!({ sessionToken: hash, userId: user.id, expires: new Date(Date.now() + 86_400_000) })
    expect((await cached.getSessionAndUser!(hash))?.user.id).toBe(user.id)
    expect(seen.length).toBeGreaterThan(0)
    expect(seen.every((o) => JSON.stringify(o) === JSON.stringify({ timeout: 0 }))).toBe(true)
    // The same client, straight: a hit arms no timer in node-redis.
    const direct = withRedisCache(adapter, { client, prefix: "notimer:", logger: quiet })
    const timers = vi.spyOn(AbortSignal, "timeout")
    try {
      expect((await direct.getSessionAndUser!(hash))?.user.id).toBe(user.id)
      expect(calls.getSessionAndUser).toBe(1)
      expect(timers).not.toHaveBeenCalled()
      await client.get("notimer:era")
      expect(timers).toHaveBeenCalled()
    } finally {
      timers.mockRestore()
    }
  })
})
