/**
 * The JSON routes of organizations through `Auth()`, in both session strategies: `GET
 * /organizations`, `POST /organizations` with each `action` (CSRF token and Origin checked by the
 * kernel), the invitation link `GET /organizations/accept?token=` (accepted for a signed-in user,
 * else sign-in first and back), the active organization in `GET /session`, and clear refusals of
 * hostile input (never a 500, nothing stored).
 */
import { describe, expect, it } from "vitest"
import { Client, ORIGIN } from "../../helpers/harness.js"
import { kit, lastToken, post, STRATEGIES } from "./helpers.js"

describe.each(STRATEGIES)("organizations routes (%s sessions)", (strategy) => {
  const state = (k: ReturnType<typeof kit>) => JSON.stringify([[...k.adapter.organizations.values()], k.adapter.members, k.adapter.invitations])

  it("runs every action through POST /organizations and lists through GET", async () => {
    const k = kit(strategy)
    const alice = await k.signIn("alice")
    const created = await post(alice, { action: "create", name: "Acme", slug: "acme" })
    expect(created.status).toBe(200)
    const organization = created.body.organization as { id: string }
    expect(organization).toMatchObject({ name: "Acme", slug: "acme" })
    const id = organization.id
    expect((await post(alice, { action: "update", organizationId: id, name: "Acme Ltd" })).body).toMatchObject({ organization: { name: "Acme Ltd", slug: "acme" } })
    const invited = await post(alice, { action: "invite", organizationId: id, email: "bob@example.com", role: "admin" })
    expect(invited.body.invitation).toMatchObject({ organizationId: id, email: "bob@example.com", role: "admin" })
    const bob = await k.signIn("bob")
    expect((await post(bob, { action: "accept-invitation", token: lastToken(k.sent) })).body).toEqual({ membership: { organizationId: id, role: "admin" } })
    const dave = await post(alice, { action: "invite", organizationId: id, email: "dave@example.com", role: "member" })
    expect((await post(bob, { action: "revoke-invitation", invitationId: (dave.body.invitation as { id: string }).id })).body).toEqual({ revoked: true })
    expect((await post(alice, { action: "update-member-role", organizationId: id, userId: "bob", role: "member" })).body).toMatchObject({ member: { userId: "bob", role: "member" } })
    const listed = await alice.request("/auth/organizations")
    expect(listed.status).toBe(200)
    expect(await listed.json()).toEqual({ organizations: [{ id, name: "Acme Ltd", slug: "acme", createdAt: expect.any(String), role: "owner" }] })
    expect((await post(bob, { action: "leave", organizationId: id })).body).toEqual({ left: true })
    await k.signIn("carol")
    const carol = await k.signIn("carol")
    await post(alice, { action: "invite", organizationId: id, email: "carol@example.com", role: "member" })
    await post(carol, { action: "accept-invitation", token: lastToken(k.sent) })
    expect((await post(alice, { action: "remove-member", organizationId: id, userId: "carol" })).body).toEqual({ removed: true })
    expect((await post(alice, { action: "delete", organizationId: id })).body).toEqual({ deleted: true })
    expect(k.adapter.organizations.size).toBe(0)
  })

  it("answers OrganizationError as JSON with its code and status", async () => {
    const k = kit(strategy)
    const alice = await k.signIn("alice")
    const erin = await k.signIn("erin")
    const { body } = await post(alice, { action: "create", name: "Acme", slug: "acme" })
    const id = (body.organization as { id: string }).id
    const cases: Array<[Client, Record<string, string>, number, string]> = [
      [erin, { action: "update", organizationId: id, name: "x" }, 404, "ORGANIZATION_UNKNOWN"],
      [alice, { action: "update", organizationId: "nope", name: "x" }, 400, "ID_INVALID"],
      [alice, { action: "create", name: "Again", slug: "acme" }, 409, "SLUG_TAKEN"],
      [alice, { action: "leave", organizationId: id }, 409, "LAST_OWNER"],
      [alice, { action: "invite", organizationId: id, email: "x@example.com", role: "root" }, 400, "ROLE_UNKNOWN"],
      [alice, { action: "accept-invitation", token: "x".repeat(43) }, 410, "INVITATION_INVALID"],
      [alice, { action: "remove-member", organizationId: id, userId: "bob" }, 404, "NOT_A_MEMBER"],
      [alice, { action: "explode" }, 400, "ORGANIZATION_ACTION_INVALID"],
      [alice, {}, 400, "ORGANIZATION_ACTION_INVALID"],
    ]
    for (const [client, form, status, code] of cases) {
      const res = await post(client, form)
      expect([res.status, res.body.error, res.body.code], JSON.stringify(form)).toEqual([status, "OrganizationError", code])
      expect(JSON.stringify(res.body)).not.toMatch(/stack|at \//)
    }
  })

  it("refuses without a session (401), without a CSRF token and from another site (403); nothing changes", async () => {
    const k = kit(strategy)
    const visitor = new Client(k.config)
    expect((await visitor.request("/auth/organizations")).status).toBe(401)
    expect((await post(visitor, { action: "create", name: "Acme" })).status).toBe(401)
    const alice = await k.signIn("alice")
    const { body } = await post(alice, { action: "create", name: "Acme" })
    const id = (body.organization as { id: string }).id
    const before = state(k)
    const noToken = await alice.request("/auth/organizations", { form: { action: "delete", organizationId: id } })
    expect([noToken.status, await noToken.json()]).toEqual([403, { error: "MissingCSRF" }])
    const crossSite = await alice.post("/auth/organizations", { action: "invite", organizationId: id, email: "x@evil.example", role: "admin" }, { headers: { origin: "https://evil.example" } })
    expect(crossSite.status).toBe(403)
    const fetchMetadata = await alice.post("/auth/organizations", { action: "update", organizationId: id, name: "Pwned" }, { headers: { "x-no-origin": "1", "sec-fetch-site": "cross-site" } })
    expect(fetchMetadata.status).toBe(403)
    expect(state(k)).toBe(before)
    expect(k.sent).toEqual([])
  })

  it("answers hostile bodies with clear errors, never a 500, and stores nothing", async () => {
    const k = kit(strategy)
    const alice = await k.signIn("alice")
    const before = state(k)
    const csrfToken = await alice.csrfToken()
    const bodies: unknown[] = [
      { csrfToken, action: "create", name: { $ne: null } },
      { csrfToken, action: "create", name: ["a", "b"] },
      { csrfToken, action: "update", organizationId: { toString: 1 }, name: "x" },
      { csrfToken, action: "set-active", organizationId: 12 },
      { csrfToken, action: "invite", organizationId: crypto.randomUUID(), email: ["a@b.c"], role: "member" },
      { csrfToken, action: "accept-invitation", token: { length: 43 } },
      { csrfToken, action: ["create"] },
      { csrfToken, action: "__proto__" },
    ]
    for (const json of bodies) {
      const res = await alice.request("/auth/organizations", { json })
      expect(res.status, JSON.stringify(json)).toBeGreaterThanOrEqual(400)
      expect(res.status, JSON.stringify(json)).toBeLessThan(500)
    }
    const wrongPath = await alice.request("/auth/organizations/members")
    expect(wrongPath.status).toBe(404)
    expect(state(k)).toBe(before)
  })

  it("accepts an invitation link for a signed-in user and goes on to the app", async () => {
    const k = kit(strategy)
    const alice = await k.signIn("alice")
    const { body } = await post(alice, { action: "create", name: "Acme" })
    const id = (body.organization as { id: string }).id
    await post(alice, { action: "invite", organizationId: id, email: "bob@example.com", role: "member" })
    const link = new URL(k.sent[0]!.url)
    const bob = await k.signIn("bob")
    const res = await bob.request(`${link.pathname}${link.search}`)
    expect(res.status).toBe(302)
    expect(res.headers.get("location")).toBe(`${ORIGIN}/`)
    expect(k.adapter.members.map((m) => m.userId)).toEqual(["alice", "bob"])
    // Used: the link refuses a second time, on the error page (a person follows it in a browser), with its code.
    const again = await bob.request(`${link.pathname}${link.search}`)
    expect(again.status).toBe(302)
    expect(again.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=OrganizationError&code=INVITATION_INVALID`)
    const page = await bob.request("/auth/error?error=OrganizationError&code=INVITATION_INVALID")
    expect(await page.text()).toContain("This invitation cannot be used")
    expect(k.adapter.members.map((m) => m.userId)).toEqual(["alice", "bob"])
  })

  it("keeps the link's callbackUrl across the sign-in detour, checked by the redirect rule when it is used", async () => {
    const k = kit(strategy)
    const alice = await k.signIn("alice")
    const { body } = await post(alice, { action: "create", name: "Acme" })
    await post(alice, { action: "invite", organizationId: (body.organization as { id: string }).id, email: "bob@example.com", role: "member" })
    const link = new URL(k.sent[0]!.url)
    link.searchParams.set("callbackUrl", `${ORIGIN}/organizations`)
    const visitor = new Client(k.config)
    const res = await visitor.request(`${link.pathname}${link.search}`)
    const back = new URL(new URL(res.headers.get("location")!).searchParams.get("callbackUrl")!)
    expect(back.searchParams.get("callbackUrl")).toBe(`${ORIGIN}/organizations`)
    expect((await visitor.signIn("bob", "pw")).status).toBe(302)
    const accepted = await visitor.request(`${back.pathname}${back.search}`)
    expect(accepted.headers.get("location")).toBe(`${ORIGIN}/organizations`)
    // Another site as the landing page: the default redirect rule sends the user to the app instead.
    const carol = await k.signIn("carol")
    await post(alice, { action: "invite", organizationId: (body.organization as { id: string }).id, email: "carol@example.com", role: "member" })
    const offsite = new URL(k.sent[1]!.url)
    offsite.searchParams.set("callbackUrl", "https://evil.example/")
    const landed = await carol.request(`${offsite.pathname}${offsite.search}`)
    expect(new URL(landed.headers.get("location")!).origin).toBe(ORIGIN)
    expect(k.adapter.members.map((m) => m.userId)).toEqual(["alice", "bob", "carol"])
  })

  it("sends a signed-out visitor of the link to sign in, with a callback URL back to it", async () => {
    const k = kit(strategy)
    const alice = await k.signIn("alice")
    const { body } = await post(alice, { action: "create", name: "Acme" })
    await post(alice, { action: "invite", organizationId: (body.organization as { id: string }).id, email: "bob@example.com", role: "member" })
    const link = new URL(k.sent[0]!.url)
    const visitor = new Client(k.config)
    const res = await visitor.request(`${link.pathname}${link.search}`)
    expect(res.status).toBe(302)
    const location = new URL(res.headers.get("location")!)
    expect(`${location.origin}${location.pathname}`).toBe(`${ORIGIN}/auth/signin`)
    expect(location.searchParams.get("callbackUrl")).toBe(link.toString())
    expect(k.adapter.members).toHaveLength(1)
    // Signed in (as the invited user), the same link accepts.
    expect((await visitor.signIn("bob", "pw")).status).toBe(302)
    expect((await visitor.request(`${link.pathname}${link.search}`)).status).toBe(302)
    expect(k.adapter.members.map((m) => m.userId)).toEqual(["alice", "bob"])
  })

  it("refuses a malformed token on the link before anything else", async () => {
    const k = kit(strategy)
    const visitor = new Client(k.config)
    for (const query of ["", "?token=", "?token=abc", `?token=${"%00".repeat(43)}`]) {
      const res = await visitor.request(`/auth/organizations/accept${query}`)
      expect([res.status, res.headers.get("location")], query).toEqual([302, `${ORIGIN}/auth/error?error=OrganizationError&code=INVITATION_INVALID`])
    }
  })
})
