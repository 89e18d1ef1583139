/**
 * The active organization, in both session strategies: `setActiveOrganization` (and `POST
 * /organizations` `set-active`) sets its cookie, and `GET /session` carries `activeOrganization:
 * { id, slug, role }` read from the store on every request: a changed role or slug shows at once;
 * a removed member, a deleted organization, a tampered cookie or another user's cookie read `null`
 * (and the cookie is cleared).
 */
import { describe, expect, it } from "vitest"
import { createOrganization, removeMember, setActiveOrganization, updateMemberRole, updateOrganization, deleteOrganization } from "../../../src/index.js"
import { Client } from "../../helpers/harness.js"
import { appRequest, join, kit, post, rejection, STRATEGIES } from "./helpers.js"

type SessionBody = { user?: unknown; activeOrganization?: unknown } | null

const cookieName = "authlib.active-organization"

describe.each(STRATEGIES)("the active organization (%s sessions)", (strategy) => {
  async function acme() {
    const k = kit(strategy)
    const alice = await k.signIn("alice")
    const org = await createOrganization(appRequest(alice), k.config, { name: "Acme", slug: "acme" })
    const bob = await join(k, alice, org.id, "bob", "admin")
    return { k, alice, bob, org }
  }
  /** Sets `id` active for `client` through the server function, the cookie kept by its browser. */
  async function activate(k: ReturnType<typeof kit>, client: Client, id: string | null) {
    const result = await setActiveOrganization(appRequest(client), k.config, id)
    client.jar.store(result.setCookie)
    return result
  }
  const session = async (client: Client) => (await client.session()) as SessionBody

  it("is null until set, then carried by the session with the role read now", async () => {
    const { k, alice, bob, org } = await acme()
    expect((await session(bob))?.activeOrganization).toBeNull()
    const result = await activate(k, bob, org.id)
    expect(result.activeOrganization).toEqual({ id: org.id, slug: "acme", role: "admin" })
    expect(result.setCookie).toEqual([expect.stringMatching(new RegExp(`^${cookieName}=.+; .*HttpOnly`))])
    expect((await session(bob))?.activeOrganization).toEqual({ id: org.id, slug: "acme", role: "admin" })
    await updateMemberRole(appRequest(alice), k.config, org.id, "bob", "member")
    await updateOrganization(appRequest(alice), k.config, org.id, { slug: "acme-2" })
    expect((await session(bob))?.activeOrganization).toEqual({ id: org.id, slug: "acme-2", role: "member" })
    await activate(k, bob, null)
    expect((await session(bob))?.activeOrganization).toBeNull()
  })

  it("costs one session look-up: the read's own answers the principal's question (database sessions: one getSessionAndUser)", async () => {
    const { k, bob, org } = await acme()
    await activate(k, bob, org.id)
    const before = k.adapter.calls.length
    expect((await session(bob))?.activeOrganization).toEqual({ id: org.id, slug: "acme", role: "admin" })
    const lookUps = k.adapter.calls.slice(before).filter((c) => c.method === "getSessionAndUser")
    expect(lookUps).toHaveLength(strategy === "database" ? 1 : 0)
  })

  it("reads null, and clears the cookie, on the very next request after the member is removed", async () => {
    const { k, alice, bob, org } = await acme()
    await activate(k, bob, org.id)
    await removeMember(appRequest(alice), k.config, org.id, "bob")
    const res = await bob.request("/auth/session")
    expect(((await res.json()) as SessionBody)?.activeOrganization).toBeNull()
    expect(res.headers.getSetCookie().some((c) => c.startsWith(`${cookieName}=;`) && /Max-Age=0/.test(c))).toBe(true)
  })

  it("reads null once the organization is deleted", async () => {
    const { k, alice, org } = await acme()
    await activate(k, alice, org.id)
    await deleteOrganization(appRequest(alice), k.config, org.id)
    expect((await session(alice))?.activeOrganization).toBeNull()
  })

  it("ignores a tampered cookie and one set for another user", async () => {
    const { k, alice, bob, org } = await acme()
    const erin = await k.signIn("erin")
    await activate(k, alice, org.id)
    const value = alice.jar.get(cookieName)!
    // Erin copies Alice's cookie: it names the organization for Alice only.
    erin.jar.set(cookieName, value)
    expect((await session(erin))?.activeOrganization).toBeNull()
    // Bob, a member, with Alice's cookie, or a forged MAC: not his either.
    bob.jar.set(cookieName, value)
    expect((await session(bob))?.activeOrganization).toBeNull()
    bob.jar.set(cookieName, `${org.id}.AAAAAAAAAAAAAAAAAAAAAA`)
    expect((await session(bob))?.activeOrganization).toBeNull()
    bob.jar.set(cookieName, "x".repeat(500))
    expect((await session(bob))?.activeOrganization).toBeNull()
  })

  it("refuses an organization the caller is not a member of, through the function and the route", async () => {
    const { k, org } = await acme()
    const erin = await k.signIn("erin")
    expect(await rejection(setActiveOrganization(appRequest(erin), k.config, org.id))).toMatchObject({ code: "ORGANIZATION_UNKNOWN" })
    const res = await post(erin, { action: "set-active", organizationId: org.id })
    expect([res.status, res.body.code]).toEqual([404, "ORGANIZATION_UNKNOWN"])
    expect(erin.jar.get(cookieName)).toBeUndefined()
    const ok = await post(await k.signIn("bob"), { action: "set-active", organizationId: org.id })
    expect(ok.body).toEqual({ activeOrganization: { id: org.id, slug: "acme", role: "admin" } })
  })

  it("is no field of the session without the organizations option, and the session is null without a session", async () => {
    const k = kit(strategy)
    const config = { ...k.config, organizations: undefined }
    const client = new Client(config)
    expect(await client.session()).toBeNull()
    expect((await client.signIn("alice", "pw")).status).toBe(302)
    const body = (await client.session()) as Record<string, unknown>
    expect(body.user).toBeDefined()
    expect("activeOrganization" in body).toBe(false)
  })
})
