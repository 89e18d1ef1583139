import { expect } from "vitest"
import type { AdapterOrganization } from "@authlib/core"
import { organizationFixtures } from "./organizations-fixtures.js"
import { organizationInvitationsSuite } from "./organizations-invitations.js"
import { organizationRacesSuite } from "./organizations-races.js"
import type { SuiteContext } from "./types.js"

/**
 * The organizations port (optional, registered when the adapter implements all of it): every
 * method's contract (unknown ids, unique slugs, cascades, invitations replaced rather than
 * duplicated, the membership limit counting pending unexpired invitations, the `actor` condition,
 * addresses compared case-insensitively with a `+tag` kept, used, revoked and expired invitations
 * refused, `deleteUser` refusing a last owner) and its race rules: two owners demoting or removing
 * each other at once leave exactly one owner, 20 parallel acceptances of one invitation give one
 * membership, parallel invitations never pass the limit, parallel re-invitations leave one.
 */
export function organizationsSuite(ctx: SuiteContext): void {
  const { adapter, test, concurrency } = ctx
  const { slug, user, organization, invite, join, roles } = organizationFixtures(ctx)

  test("createOrganization stores the organization with its creator as owner; getOrganization and getOrganizationBySlug read it back", async () => {
    const owner = await user()
    const before = Date.now()
    const id = crypto.randomUUID()
    const s = slug()
    const created = await adapter.createOrganization({ id, name: "Acme, Inc. — Zürich 🏔", slug: s, ownerId: owner.id })
    const expected: AdapterOrganization = { id, name: "Acme, Inc. — Zürich 🏔", slug: s, createdAt: expect.any(Date) }
    expect(created).toStrictEqual(expected)
    const createdAt = (created as AdapterOrganization).createdAt.getTime()
    expect(createdAt).toBeGreaterThanOrEqual(before - 1000)
    expect(createdAt).toBeLessThanOrEqual(Date.now() + 1000)
    expect(await adapter.getOrganization(id)).toStrictEqual(created)
    expect(await adapter.getOrganizationBySlug(s)).toStrictEqual(created)
    const member = await adapter.getOrganizationMember(id, owner.id)
    expect(member).toStrictEqual({ organizationId: id, userId: owner.id, role: "owner", joinedAt: expect.any(Date) })
  })

  test("getOrganization, getOrganizationBySlug and getOrganizationMember answer null for unknown ids", async () => {
    const { owner, organization: org } = await organization()
    const stranger = await user()
    expect(await adapter.getOrganization(crypto.randomUUID())).toBeNull()
    expect(await adapter.getOrganizationBySlug(slug())).toBeNull()
    expect(await adapter.getOrganizationMember(org.id, stranger.id)).toBeNull()
    expect(await adapter.getOrganizationMember(crypto.randomUUID(), owner.id)).toBeNull()
    expect(await adapter.getOrganizationMember(org.id, crypto.randomUUID())).toBeNull()
  })

  test("createOrganization with a taken slug answers slug-taken and writes nothing", async () => {
    const { organization: taken } = await organization()
    const owner = await user()
    const id = crypto.randomUUID()
    expect(await adapter.createOrganization({ id, name: "Copycat", slug: taken.slug, ownerId: owner.id })).toBe("slug-taken")
    expect(await adapter.getOrganization(id)).toBeNull()
    expect(await adapter.getOrganizationMember(id, owner.id)).toBeNull()
    expect(await adapter.listOrganizationsByUserId(owner.id)).toStrictEqual([])
    expect(await adapter.getOrganizationBySlug(taken.slug)).toStrictEqual(taken)
  })

  test(`race: ${concurrency} parallel createOrganization calls with one slug: exactly one gets it`, async () => {
    const s = slug()
    const creators = await Promise.all(Array.from({ length: concurrency }, () => user()))
    const answers = await Promise.all(creators.map((c) => adapter.createOrganization({ id: crypto.randomUUID(), name: "Race", slug: s, ownerId: c.id })))
    expect(answers.filter((a) => a !== "slug-taken")).toHaveLength(1)
    const winner = answers.find((a) => a !== "slug-taken") as AdapterOrganization
    expect(await adapter.getOrganizationBySlug(s)).toStrictEqual(winner)
    const memberships = await Promise.all(creators.map((c) => adapter.listOrganizationsByUserId(c.id)))
    expect(memberships.flat()).toHaveLength(1)
  })

  test("updateOrganization changes the name and/or slug; null for an unknown organization; slug-taken writes nothing", async () => {
    const { organization: org } = await organization()
    const { organization: other } = await organization()
    const renamed = await adapter.updateOrganization(org.id, { name: "Renamed" })
    expect(renamed).toStrictEqual({ ...org, name: "Renamed" })
    const s = slug()
    expect(await adapter.updateOrganization(org.id, { slug: s })).toStrictEqual({ ...org, name: "Renamed", slug: s })
    // Its own slug is not taken from itself.
    expect(await adapter.updateOrganization(org.id, { name: "Again", slug: s })).toStrictEqual({ ...org, name: "Again", slug: s })
    expect(await adapter.updateOrganization(org.id, { name: "Thief", slug: other.slug })).toBe("slug-taken")
    expect(await adapter.getOrganization(org.id)).toStrictEqual({ ...org, name: "Again", slug: s })
    expect(await adapter.getOrganizationBySlug(org.slug)).toBeNull()
    expect(await adapter.getOrganization(other.id)).toStrictEqual(other)
    expect(await adapter.updateOrganization(crypto.randomUUID(), { name: "Ghost" })).toBeNull()
    expect(await adapter.updateOrganization(crypto.randomUUID(), { slug: other.slug })).toBeNull()
  })

  test("deleteOrganization removes it with its members and invitations, answers whether there was one, and leaves other organizations alone", async () => {
    const { owner, organization: org } = await organization()
    const { user: member } = await join(org.id, owner.id)
    const pending = await invite(org.id, owner.id, "later@example.com")
    const { owner: otherOwner, organization: other } = await organization()
    const otherInvitation = await invite(other.id, otherOwner.id, "later@example.com")
    expect(await adapter.deleteOrganization(org.id)).toBe(true)
    expect(await adapter.getOrganization(org.id)).toBeNull()
    expect(await adapter.getOrganizationBySlug(org.slug)).toBeNull()
    expect(await adapter.getOrganizationMember(org.id, owner.id)).toBeNull()
    expect(await adapter.getOrganizationMember(org.id, member.id)).toBeNull()
    expect(await adapter.listOrganizationMembers(org.id)).toStrictEqual([])
    expect(await adapter.getOrganizationInvitation(pending.id)).toBeNull()
    expect(await adapter.getOrganizationInvitationByTokenHash(pending.tokenHash)).toBeNull()
    expect(await adapter.listOrganizationInvitations(org.id)).toStrictEqual([])
    expect(await adapter.listOrganizationsByUserId(member.id)).toStrictEqual([])
    expect(await adapter.deleteOrganization(org.id)).toBe(false)
    expect(await adapter.deleteOrganization(crypto.randomUUID())).toBe(false)
    expect(await adapter.getOrganization(other.id)).toStrictEqual(other)
    expect(await adapter.getOrganizationInvitation(otherInvitation.id)).toStrictEqual(otherInvitation)
    // The users stay.
    expect(await adapter.getUser(owner.id)).not.toBeNull()
  })

  test("listOrganizationsByUserId lists the user's organizations with their role, oldest membership first; [] for a user without any", async () => {
    const { owner, organization: first } = await organization("First")
    const { owner: otherOwner, organization: second } = await organization("Second")
    const { organization: notMine } = await organization("Not mine")
    const { tokenHash } = await invite(second.id, otherOwner.id, owner.email!, { role: "admin" })
    await adapter.acceptOrganizationInvitation({ tokenHash, userId: owner.id, email: owner.email!, now: new Date() })
    expect(await adapter.listOrganizationsByUserId(owner.id)).toStrictEqual([
      { ...first, role: "owner" },
      { ...second, role: "admin" },
    ])
    expect((await adapter.listOrganizationsByUserId(owner.id)).map((o) => o.id)).not.toContain(notMine.id)
    expect(await adapter.listOrganizationsByUserId((await user()).id)).toStrictEqual([])
    expect(await adapter.listOrganizationsByUserId(crypto.randomUUID())).toStrictEqual([])
  })

  test("listOrganizationMembers gives each member with the user's name and address, oldest first; [] for an unknown organization", async () => {
    const { owner, organization: org } = await organization()
    const nameless = await user({ name: null })
    const { tokenHash } = await invite(org.id, owner.id, nameless.email!, { role: "admin" })
    const admin = await adapter.acceptOrganizationInvitation({ tokenHash, userId: nameless.id, email: nameless.email!, now: new Date() })
    const { user: member, member: membership } = await join(org.id, owner.id)
    const ownerMembership = await adapter.getOrganizationMember(org.id, owner.id)
    expect(await adapter.listOrganizationMembers(org.id)).toStrictEqual([
      { ...ownerMembership, name: owner.name, email: owner.email },
      { ...admin, name: null, email: nameless.email },
      { ...membership, name: member.name, email: member.email },
    ])
    expect(await adapter.listOrganizationMembers(crypto.randomUUID())).toStrictEqual([])
  })

  test("updateOrganizationMemberRole sets the role and answers the membership; null for someone who is not a member or an unknown organization", async () => {
    const { owner, organization: org } = await organization()
    const { user: member, member: membership } = await join(org.id, owner.id)
    expect(await adapter.updateOrganizationMemberRole(org.id, member.id, "admin")).toStrictEqual({ ...membership, role: "admin" })
    expect(await adapter.getOrganizationMember(org.id, member.id)).toStrictEqual({ ...membership, role: "admin" })
    // An app's own role is stored as given (core validates role names).
    expect(await adapter.updateOrganizationMemberRole(org.id, member.id, "billing")).toStrictEqual({ ...membership, role: "billing" })
    const stranger = await user()
    expect(await adapter.updateOrganizationMemberRole(org.id, stranger.id, "admin")).toBeNull()
    expect(await adapter.getOrganizationMember(org.id, stranger.id)).toBeNull()
    expect(await adapter.updateOrganizationMemberRole(crypto.randomUUID(), member.id, "admin")).toBeNull()
  })

  test("updateOrganizationMemberRole refuses to demote the only owner (last-owner, nothing written) and demotes one of two owners", async () => {
    const { owner, organization: org } = await organization()
    const { user: member } = await join(org.id, owner.id)
    expect(await adapter.updateOrganizationMemberRole(org.id, owner.id, "admin")).toBe("last-owner")
    expect(await adapter.getOrganizationMember(org.id, owner.id)).toMatchObject({ role: "owner" })
    // Owner to owner is no demotion.
    expect(await adapter.updateOrganizationMemberRole(org.id, owner.id, "owner")).toMatchObject({ role: "owner" })
    expect(await adapter.updateOrganizationMemberRole(org.id, member.id, "owner")).toMatchObject({ role: "owner" })
    expect(await adapter.updateOrganizationMemberRole(org.id, owner.id, "member")).toMatchObject({ userId: owner.id, role: "member" })
    expect(await adapter.updateOrganizationMemberRole(org.id, member.id, "admin")).toBe("last-owner")
    expect(await roles(org.id)).toStrictEqual({ [owner.id]: "member", [member.id]: "owner" })
  })

  test("updateOrganizationMemberRole with an actor writes only while the actor is a member with that role", async () => {
    const { owner, organization: org } = await organization()
    const { user: admin } = await join(org.id, owner.id, "admin")
    const { user: member } = await join(org.id, owner.id)
    const { owner: outsider } = await organization()
    expect(await adapter.updateOrganizationMemberRole(org.id, member.id, "admin", { userId: admin.id, role: "owner" })).toBeNull()
    expect(await adapter.updateOrganizationMemberRole(org.id, member.id, "admin", { userId: outsider.id, role: "owner" })).toBeNull()
    expect(await adapter.updateOrganizationMemberRole(org.id, member.id, "admin", { userId: crypto.randomUUID(), role: "admin" })).toBeNull()
    expect(await roles(org.id)).toMatchObject({ [member.id]: "member" })
    expect(await adapter.updateOrganizationMemberRole(org.id, member.id, "admin", { userId: admin.id, role: "admin" })).toMatchObject({ role: "admin" })
    // The admin, demoted meanwhile, acts no more with the role it had.
    await adapter.updateOrganizationMemberRole(org.id, admin.id, "member", { userId: owner.id, role: "owner" })
    expect(await adapter.updateOrganizationMemberRole(org.id, member.id, "member", { userId: admin.id, role: "admin" })).toBeNull()
    expect(await roles(org.id)).toStrictEqual({ [owner.id]: "owner", [admin.id]: "member", [member.id]: "admin" })
  })

  test("removeOrganizationMember removes the membership and answers it; null when there is none; the last owner stays (last-owner)", async () => {
    const { owner, organization: org } = await organization()
    const { user: member, member: membership } = await join(org.id, owner.id)
    expect(await adapter.removeOrganizationMember(org.id, owner.id)).toBe("last-owner")
    expect(await adapter.getOrganizationMember(org.id, owner.id)).toMatchObject({ role: "owner" })
    expect(await adapter.removeOrganizationMember(org.id, member.id)).toStrictEqual(membership)
    expect(await adapter.getOrganizationMember(org.id, member.id)).toBeNull()
    expect(await adapter.listOrganizationsByUserId(member.id)).toStrictEqual([])
    expect(await adapter.removeOrganizationMember(org.id, member.id)).toBeNull()
    expect(await adapter.removeOrganizationMember(crypto.randomUUID(), owner.id)).toBeNull()
    // A sole member who is the owner cannot leave either: the organization is deleted instead.
    expect(await adapter.removeOrganizationMember(org.id, owner.id)).toBe("last-owner")
    // One of two owners can go.
    const { user: second } = await join(org.id, owner.id, "owner")
    expect(await adapter.removeOrganizationMember(org.id, owner.id)).toMatchObject({ userId: owner.id, role: "owner" })
    expect(await roles(org.id)).toStrictEqual({ [second.id]: "owner" })
  })

  test("removeOrganizationMember with an actor removes only while the actor is a member with that role", async () => {
    const { owner, organization: org } = await organization()
    const { user: admin } = await join(org.id, owner.id, "admin")
    const { user: member } = await join(org.id, owner.id)
    expect(await adapter.removeOrganizationMember(org.id, member.id, { userId: admin.id, role: "owner" })).toBeNull()
    expect(await adapter.removeOrganizationMember(org.id, member.id, { userId: crypto.randomUUID(), role: "admin" })).toBeNull()
    expect(await adapter.getOrganizationMember(org.id, member.id)).not.toBeNull()
    await adapter.removeOrganizationMember(org.id, admin.id, { userId: owner.id, role: "owner" })
    expect(await adapter.removeOrganizationMember(org.id, member.id, { userId: admin.id, role: "admin" })).toBeNull()
    expect(await roles(org.id)).toStrictEqual({ [owner.id]: "owner", [member.id]: "member" })
    expect(await adapter.removeOrganizationMember(org.id, member.id, { userId: owner.id, role: "owner" })).toMatchObject({ userId: member.id })
  })

  organizationInvitationsSuite(ctx)
  organizationRacesSuite(ctx)
}
