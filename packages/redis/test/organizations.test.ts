/**
 * Organizations behind the cache: two app instances (each its own Redis connection and cache) in
 * front of one database, both session strategies. A member removed (or demoted) on one instance acts
 * no more on the very next request on the other, though that instance serves the member's session
 * from its cache: memberships are never cached, and reading one does not renew the cache.
 */
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest"
import { MemoryAdapter, createMemoryStore } from "@authlib/adapter-test"
import { createOrganization, hasPermission, inviteMember, acceptInvitation, removeMember, setActiveOrganization, updateMemberRole, type Adapter, type AdapterUser, type AuthConfig, type InvitationMessage } from "@authlib/core"
import { startRedisServer, type RedisServer } from "@authlib/e2e-kit/redis-server"
import { Browser, ORIGIN, closeClient, counted, instance, type Instance } from "./helpers/app.js"

let server: RedisServer
beforeAll(async () => {
  server = await startRedisServer(inject("redisServer"))
})
afterAll(async () => {
  await server.stop()
})

describe.each(["database", "jwt"] as const)("a member removed on one instance (%s sessions)", (strategy) => {
  let db: Adapter
  let calls: Record<string, number>
  let apps: Instance[] = []
  const sent: InvitationMessage[] = []
  beforeAll(async () => {
    ;({ adapter: db, calls } = counted(MemoryAdapter(createMemoryStore())))
    const over: Partial<AuthConfig> = {
      url: ORIGIN,
      session: { strategy },
      organizations: { sendInvitation: (message) => void sent.push(message) },
    }
    apps = await Promise.all([0, 1].map(() => instance(db, server.url, over)))
  })
  afterAll(async () => {
    await Promise.all(apps.map((a) => closeClient(a.client)))
  })

  /** A stored user with a verified address, signed in on `on`. */
  async function member(name: string, on: Instance): Promise<{ browser: Browser; user: AdapterUser }> {
    const id = crypto.randomUUID()
    const user = await db.createUser!({ id, email: `${name}-${id}@example.com`, emailVerified: new Date(), name })
    const browser = new Browser()
    await browser.signIn(on, user.email!)
    return { browser, user }
  }
  const sessionReads = () => (calls.getSessionAndUser ?? 0) + (calls.getUser ?? 0) + (calls.getUserSessionEpoch ?? 0)

  test("acts no more on the very next request on the other instance, whose cache still serves the session", async () => {
    const [a, b] = apps as [Instance, Instance]
    const { browser: alice } = await member("alice", a)
    const { browser: bob, user: bobUser } = await member("bob", b)
    const org = await createOrganization(alice.serverRequest(), a.config, { name: "Acme" })
    await inviteMember(alice.serverRequest(), a.config, org.id, { email: bobUser.email!, role: "admin" })
    await acceptInvitation(bob.serverRequest(), b.config, new URL(sent.at(-1)!.url).searchParams.get("token")!)
    const active = await setActiveOrganization(bob.serverRequest(), b.config, org.id)
    bob.jar.store(active.setCookie)

    // Bob on instance b: his session comes from b's cache; each check reads his membership from the database.
    expect(await hasPermission(bob.serverRequest(), b.config, org.id, "member:invite")).toBe(true)
    const before = sessionReads()
    const membershipReads = calls.getOrganizationMember ?? 0
    expect(await hasPermission(bob.serverRequest(), b.config, org.id, "member:invite")).toBe(true)
    expect(((await bob.session(b)) as { activeOrganization?: unknown } | null)?.activeOrganization).toEqual({ id: org.id, slug: org.slug, role: "admin" })
    expect(sessionReads()).toBe(before)
    expect(calls.getOrganizationMember ?? 0).toBeGreaterThan(membershipReads)

    // Demoted on instance a: his next request on b no longer holds the permission.
    await updateMemberRole(alice.serverRequest(), a.config, org.id, bobUser.id, "member")
    expect(await hasPermission(bob.serverRequest(), b.config, org.id, "member:invite")).toBe(false)

    // Removed on instance a: his next request on b is refused, and his session shows no active organization.
    await removeMember(alice.serverRequest(), a.config, org.id, bobUser.id)
    await expect(hasPermission(bob.serverRequest(), b.config, org.id, "member:invite")).rejects.toMatchObject({ type: "OrganizationError", code: "ORGANIZATION_UNKNOWN" })
    const session = (await bob.session(b)) as { user: unknown; activeOrganization?: unknown } | null
    expect(session?.user).toBeDefined()
    expect(session?.activeOrganization).toBeNull()
    // All of it without touching the cached session: no organization call renewed the cache.
    expect(sessionReads()).toBe(before)
  })
})
