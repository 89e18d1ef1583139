/**
 * The server functions of organizations through the public API, in both session strategies:
 * create, list, read, update and delete an organization; members, roles, leaving; permissions
 * (built-in and the app's); events.
 */
import { afterEach, describe, expect, it, vi } from "vitest"
import {
  createOrganization, deleteOrganization, getOrganization, hasPermission, inviteMember, leaveOrganization, listMembers, listOrganizations,
  removeMember, requirePermission, updateMemberRole, updateOrganization,
} from "../../../src/index.js"
import { serverFunctions } from "../../../src/internal.js"
import type { Client } from "../../helpers/harness.js"
import { appRequest, join, kit, rejection, STRATEGIES } from "./helpers.js"

afterEach(() => void vi.useRealTimers())

describe.each(STRATEGIES)("organizations (%s sessions)", (strategy) => {
  it("creates an organization with the creator as owner and lists it with the role", async () => {
    const k = kit(strategy)
    const alice = await k.signIn("alice")
    const org = await createOrganization(appRequest(alice), k.config, { name: "Acme Inc." })
    expect(org).toMatchObject({ name: "Acme Inc.", slug: "acme-inc" })
    expect(org.createdAt).toBeInstanceOf(Date)
    expect(await listOrganizations(appRequest(alice), k.config)).toEqual([{ ...org, role: "owner" }])
    expect(await getOrganization(appRequest(alice), k.config, org.id)).toEqual({ ...org, role: "owner" })
    expect(await listMembers(appRequest(alice), k.config, org.id)).toEqual([{ userId: "alice", name: "Alice", email: "alice@example.com", role: "owner", joinedAt: expect.any(Date) }])
  })

  it("takes a slug given, refuses a taken one, and makes a free one from a name whose slug is taken", async () => {
    const k = kit(strategy)
    const alice = await k.signIn("alice")
    const first = await createOrganization(appRequest(alice), k.config, { name: "Acme", slug: "acme" })
    expect(first.slug).toBe("acme")
    expect(await rejection(createOrganization(appRequest(alice), k.config, { name: "Other", slug: "acme" }))).toMatchObject({ type: "OrganizationError", code: "SLUG_TAKEN" })
    const second = await createOrganization(appRequest(alice), k.config, { name: "Acme" })
    expect(second.slug).toMatch(/^acme-[a-z0-9x]{6}$/)
    const accents = await createOrganization(appRequest(alice), k.config, { name: "Ünïcode Café!" })
    expect(accents.slug).toBe("unicode-cafe")
    const symbols = await createOrganization(appRequest(alice), k.config, { name: "日本" })
    expect(symbols.slug).toMatch(/^org-[a-z0-9x]{6}$/)
  })

  it("refuses malformed names and slugs before any store call", async () => {
    const k = kit(strategy)
    const alice = await k.signIn("alice")
    const before = k.adapter.calls.length
    for (const name of ["", "   ", "\u202e\u200b", "x".repeat(101), 42, null]) {
      expect(await rejection(createOrganization(appRequest(alice), k.config, { name } as never))).toMatchObject({ code: "NAME_INVALID" })
    }
    for (const slug of ["A", "a", "-ab", "ab-", "a--b", "a b", "ab/../cd", "x".repeat(49), ["ab"]]) {
      expect(await rejection(createOrganization(appRequest(alice), k.config, { name: "Fine", slug } as never))).toMatchObject({ code: "SLUG_INVALID" })
    }
    expect(k.adapter.calls.slice(before).map((c) => c.method)).toEqual([])
    expect(k.adapter.organizations.size).toBe(0)
  })

  it("cleans a name of control and bidi characters", async () => {
    const k = kit(strategy)
    const alice = await k.signIn("alice")
    const org = await createOrganization(appRequest(alice), k.config, { name: "  Ac\u202eme\u0000 " })
    expect(org.name).toBe("Acme")
  })

  it("asks allowUserToCreate, as a boolean or a function of the stored user", async () => {
    const off = kit(strategy, { allowUserToCreate: false })
    expect(await rejection(createOrganization(appRequest(await off.signIn("alice")), off.config, { name: "A" + "cme" }))).toMatchObject({ code: "CREATE_NOT_ALLOWED" })
    const seen: string[] = []
    const fn = kit(strategy, { allowUserToCreate: (user) => (seen.push(user.id), user.email === "bob@example.com") })
    expect(await rejection(createOrganization(appRequest(await fn.signIn("alice")), fn.config, { name: "Acme" }))).toMatchObject({ code: "CREATE_NOT_ALLOWED" })
    expect(await createOrganization(appRequest(await fn.signIn("bob")), fn.config, { name: "Acme" })).toMatchObject({ name: "Acme" })
    expect(seen).toEqual(["alice", "bob"])
    expect(fn.adapter.organizations.size).toBe(1)
  })

  it("updates the name and slug with organization:update; a plain member may not", async () => {
    const k = kit(strategy)
    const alice = await k.signIn("alice")
    const org = await createOrganization(appRequest(alice), k.config, { name: "Acme", slug: "acme" })
    await createOrganization(appRequest(alice), k.config, { name: "Taken", slug: "taken" })
    expect(await updateOrganization(appRequest(alice), k.config, org.id, { name: "Acme 2", slug: "acme-2" })).toMatchObject({ id: org.id, name: "Acme 2", slug: "acme-2" })
    expect(await rejection(updateOrganization(appRequest(alice), k.config, org.id, { slug: "taken" }))).toMatchObject({ code: "SLUG_TAKEN" })
    const bob = await join(k, alice, org.id, "bob", "member")
    expect(await rejection(updateOrganization(appRequest(bob), k.config, org.id, { name: "Mine" }))).toMatchObject({ code: "FORBIDDEN" })
    const carol = await join(k, alice, org.id, "carol", "admin")
    expect(await updateOrganization(appRequest(carol), k.config, org.id, { name: "By admin" })).toMatchObject({ name: "By admin" })
  })

  it("deletes an organization for its owner after a fresh authentication only, with its members and invitations", async () => {
    vi.useFakeTimers({ toFake: ["Date"] })
    const k = kit(strategy)
    const alice = await k.signIn("alice")
    const org = await createOrganization(appRequest(alice), k.config, { name: "Acme" })
    const bob = await join(k, alice, org.id, "bob", "admin")
    await inviteMember(appRequest(alice), k.config, org.id, { email: "carol@example.com", role: "member" })
    expect(await rejection(deleteOrganization(appRequest(bob), k.config, org.id))).toMatchObject({ code: "FORBIDDEN" })
    vi.setSystemTime(Date.now() + 601_000)
    expect(await rejection(deleteOrganization(appRequest(alice), k.config, org.id))).toMatchObject({ type: "ReauthenticationRequired", code: "AUTHENTICATION_TOO_OLD" })
    expect(k.adapter.organizations.has(org.id)).toBe(true)
    const fresh = await k.signIn("alice")
    await deleteOrganization(appRequest(fresh), k.config, org.id)
    expect(k.adapter.organizations.size).toBe(0)
    expect(k.adapter.members).toEqual([])
    expect(k.adapter.invitations).toEqual([])
    expect(await listOrganizations(appRequest(bob), k.config)).toEqual([])
    expect(await rejection(getOrganization(appRequest(fresh), k.config, org.id))).toMatchObject({ code: "ORGANIZATION_UNKNOWN" })
  })

  it("honours organizations.freshAge", async () => {
    vi.useFakeTimers({ toFake: ["Date"] })
    const k = kit(strategy, { freshAge: 3600 })
    const alice = await k.signIn("alice")
    const org = await createOrganization(appRequest(alice), k.config, { name: "Acme" })
    vi.setSystemTime(Date.now() + 1800_000)
    await deleteOrganization(appRequest(alice), k.config, org.id)
    expect(k.adapter.organizations.size).toBe(0)
  })

  it("changes roles and removes members, and a member leaves", async () => {
    const k = kit(strategy)
    const alice = await k.signIn("alice")
    const org = await createOrganization(appRequest(alice), k.config, { name: "Acme" })
    const bob = await join(k, alice, org.id, "bob", "member")
    await join(k, alice, org.id, "carol", "member")
    expect(await updateMemberRole(appRequest(alice), k.config, org.id, "bob", "admin")).toEqual({ organizationId: org.id, userId: "bob", role: "admin", joinedAt: expect.any(Date) })
    await removeMember(appRequest(bob), k.config, org.id, "carol")
    expect((await listMembers(appRequest(alice), k.config, org.id)).map((m) => [m.userId, m.role])).toEqual([["alice", "owner"], ["bob", "admin"]])
    await leaveOrganization(appRequest(bob), k.config, org.id)
    expect(await listOrganizations(appRequest(bob), k.config)).toEqual([])
    expect(await rejection(removeMember(appRequest(alice), k.config, org.id, "bob"))).toMatchObject({ code: "NOT_A_MEMBER" })
    expect(await rejection(updateMemberRole(appRequest(alice), k.config, org.id, "nobody", "admin"))).toMatchObject({ code: "NOT_A_MEMBER" })
  })

  it("answers hasPermission and requirePermission from the role table, the app's own permissions included", async () => {
    const k = kit(strategy, { roles: { billing: ["invoice:approve", "member:invite"], member: ["project:read"] } })
    const alice = await k.signIn("alice")
    const org = await createOrganization(appRequest(alice), k.config, { name: "Acme" })
    const bob = await join(k, alice, org.id, "bob", "billing")
    const carol = await join(k, alice, org.id, "carol", "member")
    const dave = await join(k, alice, org.id, "dave", "admin")
    const can = (c: Client, p: string) => hasPermission(appRequest(c), k.config, org.id, p)
    expect(await can(alice, "invoice:approve")).toBe(true)
    expect(await can(alice, "anything:at-all")).toBe(true)
    expect(await can(alice, "organization:delete")).toBe(true)
    expect(await can(bob, "invoice:approve")).toBe(true)
    expect(await can(bob, "member:remove")).toBe(false)
    expect(await can(carol, "project:read")).toBe(true)
    expect(await can(carol, "member:invite")).toBe(false)
    expect(await can(dave, "member:remove")).toBe(true)
    expect(await can(dave, "organization:delete")).toBe(false)
    expect(await can(dave, "invoice:approve")).toBe(false)
    expect(await can(alice, "Not A Permission")).toBe(false)
    await requirePermission(appRequest(bob), k.config, org.id, "invoice:approve")
    expect(await rejection(requirePermission(appRequest(carol), k.config, org.id, "invoice:approve"))).toMatchObject({ type: "OrganizationError", code: "FORBIDDEN" })
    expect(await rejection(hasPermission(appRequest(await k.signIn("erin")), k.config, org.id, "project:read"))).toMatchObject({ code: "ORGANIZATION_UNKNOWN" })
  })

  it("fires organizationCreated, memberAdded, memberRoleChanged, memberRemoved and invitationSent", async () => {
    const events: Array<[string, unknown]> = []
    const record = (name: string) => (message: unknown) => void events.push([name, message])
    const k = kit(strategy, {}, {})
    k.config.events = {
      organizationCreated: record("organizationCreated"), memberAdded: record("memberAdded"), memberRemoved: record("memberRemoved"),
      memberRoleChanged: record("memberRoleChanged"), invitationSent: record("invitationSent"),
    }
    const alice = await k.signIn("alice")
    const org = await createOrganization(appRequest(alice), k.config, { name: "Acme" })
    const bob = await join(k, alice, org.id, "bob", "member")
    await updateMemberRole(appRequest(alice), k.config, org.id, "bob", "admin")
    await leaveOrganization(appRequest(bob), k.config, org.id)
    await join(k, alice, org.id, "carol", "member")
    await removeMember(appRequest(alice), k.config, org.id, "carol")
    expect(events.map(([name]) => name)).toEqual([
      "organizationCreated", "memberAdded", "invitationSent", "memberAdded", "memberRoleChanged", "memberRemoved", "invitationSent", "memberAdded", "memberRemoved",
    ])
    expect(events[0]![1]).toMatchObject({ organization: { id: org.id, name: "Acme", slug: "acme" }, user: { id: "alice" } })
    expect(events[2]![1]).toMatchObject({ organizationId: org.id, email: "bob@example.com", role: "member", inviterId: "alice" })
    expect(events[3]![1]).toEqual({ organizationId: org.id, userId: "bob", role: "member", via: "invitation" })
    expect(events[4]![1]).toEqual({ organizationId: org.id, userId: "bob", role: "admin", previousRole: "member", by: "alice" })
    expect(events[5]![1]).toEqual({ organizationId: org.id, userId: "bob", role: "admin", by: "bob", reason: "left" })
    expect(events[8]![1]).toEqual({ organizationId: org.id, userId: "carol", role: "member", by: "alice", reason: "removed" })
  })

  it("answers SessionRequired without a session", async () => {
    const k = kit(strategy)
    const anonymous = new Request("http://localhost:3000/app")
    expect(await rejection(listOrganizations(anonymous, k.config))).toMatchObject({ type: "SessionRequired" })
    expect(await rejection(createOrganization(anonymous, k.config, { name: "Acme" }))).toMatchObject({ type: "SessionRequired" })
    expect(k.adapter.organizations.size).toBe(0)
  })

  it("is in the map of server functions, each the root's export", () => {
    for (const name of ["createOrganization", "listOrganizations", "getOrganization", "updateOrganization", "deleteOrganization", "inviteMember", "listInvitations",
      "revokeInvitation", "acceptInvitation", "listMembers", "updateMemberRole", "removeMember", "leaveOrganization", "setActiveOrganization", "hasPermission", "requirePermission"])
      expect(typeof (serverFunctions as Record<string, unknown>)[name], name).toBe("function")
    expect(serverFunctions.createOrganization).toBe(createOrganization)
  })
})

describe("organizations off", () => {
  it("answer as an action this configuration lacks", async () => {
    const k = kit("jwt")
    const config = { ...k.config, organizations: undefined }
    const alice = await k.signIn("alice")
    expect(await rejection(listOrganizations(appRequest(alice), config))).toMatchObject({ type: "UnknownAction" })
  })
})
