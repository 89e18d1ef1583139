import { expect } from "vitest"
import type { AdapterOrganization, AdapterOrganizationInvitation, AdapterOrganizationMember, AdapterUser } from "@authlib/core"
import { fromNow, randomToken } from "./context.js"
import type { SuiteContext } from "./types.js"

const DAY_MS = 24 * 60 * 60 * 1000
/** How many parallel acceptances of one invitation the race case makes (issue 35 names 20). */
const ACCEPTANCES = 20

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
  const { adapter, make, test, concurrency } = ctx

  const slug = () => `org-${crypto.randomUUID().slice(0, 8)}`

  /** A stored user; `email` replaces the generated address. */
  const user = (overrides: Partial<AdapterUser> = {}) => adapter.createUser(make.user(overrides as never))

  /** A new organization with a new user as its owner. */
  async function organization(name = "Acme") {
    const owner = await user()
    const created = await adapter.createOrganization({ id: crypto.randomUUID(), name, slug: slug(), ownerId: owner.id })
    if (created === "slug-taken") throw new Error("a fresh slug was taken")
    return { owner, organization: created }
  }

  /** The invitation as `createOrganizationInvitation` receives it. */
  const invitation = (organizationId: string, inviterId: string, email: string, overrides: Partial<AdapterOrganizationInvitation> = {}) => ({
    id: crypto.randomUUID(),
    organizationId,
    email,
    role: "member",
    inviterId,
    tokenHash: randomToken(),
    expires: fromNow(7 * DAY_MS),
    ...overrides,
  })

  /** Stores an invitation that must be accepted by the port (not refused). */
  async function invite(organizationId: string, inviterId: string, email: string, overrides: Partial<AdapterOrganizationInvitation> = {}, membershipLimit?: number) {
    const stored = await adapter.createOrganizationInvitation(invitation(organizationId, inviterId, email, overrides), { now: new Date(), membershipLimit })
    if (typeof stored === "string") throw new Error(`the invitation was refused: ${stored}`)
    return stored
  }

  /** A new user made a member with `role`, the way core does it: invited, then accepting. */
  async function join(organizationId: string, inviterId: string, role = "member") {
    const joiner = await user()
    const { tokenHash } = await invite(organizationId, inviterId, joiner.email!, { role })
    const member = await adapter.acceptOrganizationInvitation({ tokenHash, userId: joiner.id, email: joiner.email!, now: new Date() })
    expect(member).toMatchObject({ organizationId, userId: joiner.id, role })
    return { user: joiner, member: member! }
  }

  const roles = async (organizationId: string) =>
    Object.fromEntries((await adapter.listOrganizationMembers(organizationId)).map((m) => [m.userId, m.role]))
  const owners = async (organizationId: string) => (await adapter.listOrganizationMembers(organizationId)).filter((m) => m.role === "owner")
  const pendingFor = async (organizationId: string) => (await adapter.listOrganizationInvitations(organizationId)).filter((i) => i.status === "pending")

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

  test("createOrganizationInvitation stores a pending invitation; getOrganizationInvitation and getOrganizationInvitationByTokenHash read it back; null for unknown ones", async () => {
    const { owner, organization: org } = await organization()
    const sent = invitation(org.id, owner.id, "Grace.Hopper+acme@Example.com", { role: "admin" })
    const now = new Date()
    const stored = await adapter.createOrganizationInvitation(sent, { now })
    const expected: AdapterOrganizationInvitation = { ...sent, status: "pending", createdAt: expect.any(Date) }
    expect(stored).toStrictEqual(expected)
    expect(Math.abs((stored as AdapterOrganizationInvitation).createdAt.getTime() - now.getTime())).toBeLessThan(5000)
    expect(await adapter.getOrganizationInvitation(sent.id)).toStrictEqual(stored)
    expect(await adapter.getOrganizationInvitationByTokenHash(sent.tokenHash)).toStrictEqual(stored)
    expect(await adapter.getOrganizationInvitation(crypto.randomUUID())).toBeNull()
    expect(await adapter.getOrganizationInvitationByTokenHash(randomToken())).toBeNull()
    expect(await adapter.listOrganizationInvitations(org.id)).toStrictEqual([stored])
  })

  test("createOrganizationInvitation refuses an address a member has, compared case-insensitively (member-exists, nothing written); a +tag is another address", async () => {
    const { owner, organization: org } = await organization()
    const member = await user({ email: `Lin.${crypto.randomUUID()}@Example.com` })
    const { tokenHash } = await invite(org.id, owner.id, member.email!)
    await adapter.acceptOrganizationInvitation({ tokenHash, userId: member.id, email: member.email!, now: new Date() })
    const before = await adapter.listOrganizationInvitations(org.id)
    for (const email of [member.email!.toUpperCase(), member.email!.toLowerCase(), owner.email!.toUpperCase()]) {
      expect(await adapter.createOrganizationInvitation(invitation(org.id, owner.id, email), { now: new Date() })).toBe("member-exists")
    }
    expect(await adapter.listOrganizationInvitations(org.id)).toStrictEqual(before)
    const tagged = member.email!.replace("@", "+work@")
    expect(await invite(org.id, owner.id, tagged)).toMatchObject({ email: tagged, status: "pending" })
    // A member of another organization is no member here.
    const { owner: elsewhere } = await organization()
    expect(await invite(org.id, owner.id, elsewhere.email!)).toMatchObject({ status: "pending" })
  })

  test("createOrganizationInvitation replaces a pending invitation for the same address (any case) instead of adding one; used and revoked ones stay", async () => {
    const { owner, organization: org } = await organization()
    const first = await invite(org.id, owner.id, "kay@example.com")
    const second = await invite(org.id, owner.id, "KAY@Example.COM", { role: "admin" })
    expect(await adapter.getOrganizationInvitation(first.id)).toBeNull()
    expect(await adapter.getOrganizationInvitationByTokenHash(first.tokenHash)).toBeNull()
    expect(await pendingFor(org.id)).toStrictEqual([second])
    expect(await adapter.revokeOrganizationInvitation(second.id)).toBe(true)
    const third = await invite(org.id, owner.id, "kay@example.com")
    expect(await adapter.listOrganizationInvitations(org.id)).toStrictEqual([third, { ...second, status: "revoked" }])
    // Another organization's invitation for the same address is not touched.
    const { owner: otherOwner, organization: other } = await organization()
    const elsewhere = await invite(other.id, otherOwner.id, "kay@example.com")
    await invite(org.id, owner.id, "kay@example.com")
    expect(await adapter.getOrganizationInvitation(elsewhere.id)).toStrictEqual(elsewhere)
    expect(await pendingFor(org.id)).toHaveLength(1)
  })

  test("membershipLimit counts members and pending unexpired invitations, not expired, used or revoked ones, nor the one replaced (limit-reached, nothing written)", async () => {
    const { owner, organization: org } = await organization()
    await join(org.id, owner.id)
    const now = new Date()
    const limited = (email: string, overrides: Partial<AdapterOrganizationInvitation> = {}) =>
      adapter.createOrganizationInvitation(invitation(org.id, owner.id, email, overrides), { now, membershipLimit: 4 })
    expect(await limited("expired@example.com", { expires: new Date(now.getTime() - 1000) })).toMatchObject({ status: "pending" })
    expect(await limited("ends-now@example.com", { expires: new Date(now.getTime()) })).toMatchObject({ status: "pending" })
    const revoked = await limited("revoked@example.com")
    await adapter.revokeOrganizationInvitation((revoked as AdapterOrganizationInvitation).id)
    // Two members; the expired, ended and revoked invitations hold no seat.
    expect(await limited("third@example.com")).toMatchObject({ status: "pending" })
    expect(await limited("fourth@example.com")).toMatchObject({ status: "pending" })
    const before = await adapter.listOrganizationInvitations(org.id)
    expect(await limited("fifth@example.com")).toBe("limit-reached")
    expect(await adapter.listOrganizationInvitations(org.id)).toStrictEqual(before)
    // Replacing a pending one takes its seat, not another.
    expect(await limited("FOURTH@example.com", { role: "admin" })).toMatchObject({ status: "pending", role: "admin" })
    // Renewing an expired one needs a seat.
    expect(await limited("expired@example.com")).toBe("limit-reached")
    // Without a limit nothing is counted.
    expect(await adapter.createOrganizationInvitation(invitation(org.id, owner.id, "sixth@example.com"), { now })).toMatchObject({ status: "pending" })
  })

  test("listOrganizationInvitations lists every status of the organization's invitations, newest first; [] for an unknown organization", async () => {
    const { owner, organization: org } = await organization()
    const { owner: otherOwner, organization: other } = await organization()
    const guest = await user()
    const at = (ms: number) => new Date(Date.now() + ms)
    const a = await adapter.createOrganizationInvitation(invitation(org.id, owner.id, "a@example.com"), { now: at(-3000) })
    const b = await adapter.createOrganizationInvitation(invitation(org.id, owner.id, guest.email!), { now: at(-2000) })
    const c = await adapter.createOrganizationInvitation(invitation(org.id, owner.id, "c@example.com"), { now: at(-1000) })
    await invite(other.id, otherOwner.id, "a@example.com")
    await adapter.revokeOrganizationInvitation((a as AdapterOrganizationInvitation).id)
    await adapter.acceptOrganizationInvitation({ tokenHash: (b as AdapterOrganizationInvitation).tokenHash, userId: guest.id, email: guest.email!, now: new Date() })
    const listed = await adapter.listOrganizationInvitations(org.id)
    expect(listed.map((i) => [i.id, i.status])).toStrictEqual([
      [(c as AdapterOrganizationInvitation).id, "pending"],
      [(b as AdapterOrganizationInvitation).id, "accepted"],
      [(a as AdapterOrganizationInvitation).id, "revoked"],
    ])
    expect(await adapter.listOrganizationInvitations(crypto.randomUUID())).toStrictEqual([])
  })

  test("revokeOrganizationInvitation revokes a pending invitation once; false for a used, revoked or unknown one; a revoked invitation cannot be accepted", async () => {
    const { owner, organization: org } = await organization()
    const guest = await user()
    const pending = await invite(org.id, owner.id, guest.email!)
    expect(await adapter.revokeOrganizationInvitation(pending.id)).toBe(true)
    expect(await adapter.revokeOrganizationInvitation(pending.id)).toBe(false)
    expect(await adapter.getOrganizationInvitation(pending.id)).toStrictEqual({ ...pending, status: "revoked" })
    expect(await adapter.acceptOrganizationInvitation({ tokenHash: pending.tokenHash, userId: guest.id, email: guest.email!, now: new Date() })).toBeNull()
    expect(await adapter.getOrganizationMember(org.id, guest.id)).toBeNull()
    const used = await invite(org.id, owner.id, guest.email!)
    await adapter.acceptOrganizationInvitation({ tokenHash: used.tokenHash, userId: guest.id, email: guest.email!, now: new Date() })
    expect(await adapter.revokeOrganizationInvitation(used.id)).toBe(false)
    expect(await adapter.getOrganizationInvitation(used.id)).toMatchObject({ status: "accepted" })
    expect(await adapter.revokeOrganizationInvitation(crypto.randomUUID())).toBe(false)
  })

  test("acceptOrganizationInvitation makes the user a member with the invitation's role, joined at now, and uses the invitation once", async () => {
    const { owner, organization: org } = await organization()
    const guest = await user()
    const sent = await invite(org.id, owner.id, guest.email!, { role: "admin" })
    const now = new Date()
    const member = await adapter.acceptOrganizationInvitation({ tokenHash: sent.tokenHash, userId: guest.id, email: guest.email!, now })
    const expected: AdapterOrganizationMember = { organizationId: org.id, userId: guest.id, role: "admin", joinedAt: expect.any(Date) }
    expect(member).toStrictEqual(expected)
    expect(Math.abs(member!.joinedAt.getTime() - now.getTime())).toBeLessThan(5000)
    expect(await adapter.getOrganizationMember(org.id, guest.id)).toStrictEqual(member)
    expect(await adapter.getOrganizationInvitation(sent.id)).toStrictEqual({ ...sent, status: "accepted" })
    expect(await adapter.acceptOrganizationInvitation({ tokenHash: sent.tokenHash, userId: guest.id, email: guest.email!, now: new Date() })).toBeNull()
    const other = await user()
    expect(await adapter.acceptOrganizationInvitation({ tokenHash: sent.tokenHash, userId: other.id, email: guest.email!, now: new Date() })).toBeNull()
    expect(await adapter.getOrganizationMember(org.id, other.id)).toBeNull()
  })

  test("acceptOrganizationInvitation compares the address case-insensitively and otherwise exactly: another address or a +tag gets null and nothing is written", async () => {
    const { owner, organization: org } = await organization()
    const guest = await user({ email: `Alan.${crypto.randomUUID()}@Example.com` })
    const sent = await invite(org.id, owner.id, guest.email!.toLowerCase())
    const accept = (email: string) => adapter.acceptOrganizationInvitation({ tokenHash: sent.tokenHash, userId: guest.id, email, now: new Date() })
    for (const email of [guest.email!.replace("@", "+tag@"), `x${guest.email!}`, guest.email!.replace("Example.com", "example.org"), ""]) {
      expect(await accept(email)).toBeNull()
    }
    expect(await adapter.getOrganizationInvitation(sent.id)).toMatchObject({ status: "pending" })
    expect(await adapter.getOrganizationMember(org.id, guest.id)).toBeNull()
    expect(await accept(guest.email!.toUpperCase())).toMatchObject({ userId: guest.id, role: "member" })
    // An invitation to a +tag address is accepted with exactly that address.
    const { owner: otherOwner, organization: other } = await organization()
    const tagged = guest.email!.replace("@", "+acme@")
    const taggedInvitation = await invite(other.id, otherOwner.id, tagged)
    const acceptTagged = (email: string) => adapter.acceptOrganizationInvitation({ tokenHash: taggedInvitation.tokenHash, userId: guest.id, email, now: new Date() })
    expect(await acceptTagged(guest.email!)).toBeNull()
    expect(await acceptTagged(tagged)).toMatchObject({ organizationId: other.id })
  })

  test("acceptOrganizationInvitation refuses an expired invitation (expires at or before now), an unknown token and an unknown user, writing nothing", async () => {
    const { owner, organization: org } = await organization()
    const guest = await user()
    const expires = fromNow(DAY_MS)
    const sent = await invite(org.id, owner.id, guest.email!, { expires })
    const accept = (params: Partial<{ tokenHash: string; userId: string; now: Date }>) =>
      adapter.acceptOrganizationInvitation({ tokenHash: sent.tokenHash, userId: guest.id, email: guest.email!, now: new Date(), ...params })
    expect(await accept({ now: new Date(expires.getTime()) })).toBeNull()
    expect(await accept({ now: new Date(expires.getTime() + 60_000) })).toBeNull()
    expect(await accept({ tokenHash: randomToken() })).toBeNull()
    expect(await accept({ userId: crypto.randomUUID() })).toBeNull()
    expect(await adapter.getOrganizationInvitation(sent.id)).toStrictEqual(sent)
    expect(await adapter.listOrganizationMembers(org.id)).toHaveLength(1)
    expect(await accept({ now: new Date(expires.getTime() - 1000) })).toMatchObject({ userId: guest.id })
  })

  test("acceptOrganizationInvitation by a user who is already a member uses the invitation and keeps their role", async () => {
    const { owner, organization: org } = await organization()
    const { user: admin, member } = await join(org.id, owner.id, "admin")
    // An invitation to another address of theirs (the adapter compares with the address core passes).
    const sent = await invite(org.id, owner.id, "second-address@example.com", { role: "member" })
    const answer = await adapter.acceptOrganizationInvitation({ tokenHash: sent.tokenHash, userId: admin.id, email: "second-address@example.com", now: new Date() })
    expect(answer).toStrictEqual(member)
    expect(await adapter.getOrganizationInvitation(sent.id)).toMatchObject({ status: "accepted" })
    expect(await roles(org.id)).toStrictEqual({ [owner.id]: "owner", [admin.id]: "admin" })
  })

  test("deleteUser of the last owner of an organization with other members throws OrganizationError LAST_OWNER and changes nothing", async () => {
    const { owner, organization: org } = await organization()
    const { user: member } = await join(org.id, owner.id)
    const { organization: solo } = await (async () => {
      const created = await adapter.createOrganization({ id: crypto.randomUUID(), name: "Solo", slug: slug(), ownerId: owner.id })
      return { organization: created as AdapterOrganization }
    })()
    const session = await adapter.createSession(make.session(owner.id))
    await expect(Promise.resolve().then(() => adapter.deleteUser(owner.id))).rejects.toMatchObject({ type: "OrganizationError", code: "LAST_OWNER" })
    expect(await adapter.getUser(owner.id)).toMatchObject({ id: owner.id })
    expect(await adapter.getSessionAndUser(session.sessionToken)).not.toBeNull()
    expect(await roles(org.id)).toStrictEqual({ [owner.id]: "owner", [member.id]: "member" })
    expect(await adapter.getOrganization(solo.id)).toStrictEqual(solo)
    expect(await adapter.getOrganizationMember(solo.id, owner.id)).toMatchObject({ role: "owner" })
  })

  test("deleteUser removes the user's memberships, deletes the organizations they were the only member of, and keeps those with another owner", async () => {
    const { owner, organization: solo } = await organization()
    const soloInvitation = await invite(solo.id, owner.id, "pending@example.com")
    const { owner: otherOwner, organization: shared } = await organization()
    const { tokenHash } = await invite(shared.id, otherOwner.id, owner.email!, { role: "owner" })
    await adapter.acceptOrganizationInvitation({ tokenHash, userId: owner.id, email: owner.email!, now: new Date() })
    const { user: member } = await join(shared.id, otherOwner.id)
    const { owner: thirdOwner, organization: third } = await organization()
    const { tokenHash: asMember } = await invite(third.id, thirdOwner.id, owner.email!)
    await adapter.acceptOrganizationInvitation({ tokenHash: asMember, userId: owner.id, email: owner.email!, now: new Date() })
    expect(await adapter.deleteUser(owner.id)).toMatchObject({ id: owner.id })
    expect(await adapter.getOrganization(solo.id)).toBeNull()
    expect(await adapter.getOrganizationInvitation(soloInvitation.id)).toBeNull()
    expect(await adapter.listOrganizationMembers(solo.id)).toStrictEqual([])
    expect(await roles(shared.id)).toStrictEqual({ [otherOwner.id]: "owner", [member.id]: "member" })
    expect(await roles(third.id)).toStrictEqual({ [thirdOwner.id]: "owner" })
    expect(await adapter.listOrganizationsByUserId(owner.id)).toStrictEqual([])
  })

  test("createOrganizationInvitation for an organization that no longer exists throws OrganizationError ORGANIZATION_UNKNOWN and stores nothing", async () => {
    const { owner, organization: org } = await organization()
    await adapter.deleteOrganization(org.id)
    const sent = invitation(org.id, owner.id, "late@example.com")
    await expect(Promise.resolve().then(() => adapter.createOrganizationInvitation(sent, { now: new Date() }))).rejects.toMatchObject({ type: "OrganizationError", code: "ORGANIZATION_UNKNOWN" })
    expect(await adapter.getOrganizationInvitation(sent.id)).toBeNull()
  })

  /** `n` organizations, each with two owners (the creator and a second one). */
  async function twoOwnerOrganizations(n: number) {
    return Promise.all(
      Array.from({ length: n }, async () => {
        const { owner, organization: org } = await organization()
        const { user: second } = await join(org.id, owner.id, "owner")
        return { org, a: owner, b: second }
      }),
    )
  }

  /** Runs `act` on `concurrency / 2` two-owner organizations at once, then checks each kept exactly one owner. */
  async function eachKeepsOneOwner(act: (o: Awaited<ReturnType<typeof twoOwnerOrganizations>>[number]) => Promise<unknown>[]) {
    const orgs = await twoOwnerOrganizations(concurrency / 2)
    const answers = await Promise.all(orgs.map(async (o) => Promise.all(act(o))))
    for (const o of orgs) expect(await owners(o.org.id)).toHaveLength(1)
    return answers
  }

  const won = (answer: unknown) => answer !== null && typeof answer === "object"

  test("race: two owners demoting each other at once (each as actor) leave exactly one owner", async () => {
    const answers = await eachKeepsOneOwner(({ org, a, b }) => [
      Promise.resolve(adapter.updateOrganizationMemberRole(org.id, b.id, "admin", { userId: a.id, role: "owner" })),
      Promise.resolve(adapter.updateOrganizationMemberRole(org.id, a.id, "admin", { userId: b.id, role: "owner" })),
    ])
    for (const pair of answers) expect(pair.filter(won)).toHaveLength(1)
  })

  test("race: two owners demoting each other at once without an actor leave exactly one owner (the other answer is last-owner)", async () => {
    const answers = await eachKeepsOneOwner(({ org, a, b }) => [
      Promise.resolve(adapter.updateOrganizationMemberRole(org.id, b.id, "member")),
      Promise.resolve(adapter.updateOrganizationMemberRole(org.id, a.id, "member")),
    ])
    for (const pair of answers) expect(pair.filter((x) => x === "last-owner")).toHaveLength(1)
  })

  test("race: one owner demoting the other while that one removes the first leaves exactly one owner", async () => {
    await eachKeepsOneOwner(({ org, a, b }) => [
      Promise.resolve(adapter.updateOrganizationMemberRole(org.id, b.id, "admin", { userId: a.id, role: "owner" })),
      Promise.resolve(adapter.removeOrganizationMember(org.id, a.id, { userId: b.id, role: "owner" })),
    ])
    await eachKeepsOneOwner(({ org, a, b }) => [
      Promise.resolve(adapter.updateOrganizationMemberRole(org.id, b.id, "admin")),
      Promise.resolve(adapter.removeOrganizationMember(org.id, a.id)),
    ])
  })

  test("race: two owners removing each other (or both leaving) at once leave exactly one owner", async () => {
    const crossed = await eachKeepsOneOwner(({ org, a, b }) => [
      Promise.resolve(adapter.removeOrganizationMember(org.id, b.id, { userId: a.id, role: "owner" })),
      Promise.resolve(adapter.removeOrganizationMember(org.id, a.id, { userId: b.id, role: "owner" })),
    ])
    for (const pair of crossed) expect(pair.filter(won)).toHaveLength(1)
    const leaving = await eachKeepsOneOwner(({ org, a, b }) => [
      Promise.resolve(adapter.removeOrganizationMember(org.id, a.id)),
      Promise.resolve(adapter.removeOrganizationMember(org.id, b.id)),
    ])
    for (const pair of leaving) expect(pair.filter((x) => x === "last-owner")).toHaveLength(1)
  })

  test("race: two owners of an organization with other members deleted at once: exactly one deletion is refused with LAST_OWNER", async () => {
    const orgs = await twoOwnerOrganizations(concurrency / 2)
    await Promise.all(orgs.map(({ org, a }) => join(org.id, a.id)))
    const outcomes = await Promise.all(
      orgs.map(({ a, b }) => Promise.allSettled([Promise.resolve().then(() => adapter.deleteUser(a.id)), Promise.resolve().then(() => adapter.deleteUser(b.id))])),
    )
    for (const [i, pair] of outcomes.entries()) {
      expect(pair.filter((o) => o.status === "fulfilled")).toHaveLength(1)
      const refused = pair.find((o) => o.status === "rejected") as PromiseRejectedResult
      expect(refused.reason).toMatchObject({ type: "OrganizationError", code: "LAST_OWNER" })
      expect(await owners(orgs[i]!.org.id)).toHaveLength(1)
    }
  })

  test(`race: ${ACCEPTANCES} parallel acceptances of one invitation give one membership`, async () => {
    const { owner, organization: org } = await organization()
    const email = `shared-${crypto.randomUUID()}@example.com`
    const sent = await invite(org.id, owner.id, email)
    const claimants = await Promise.all(Array.from({ length: ACCEPTANCES }, () => user()))
    const answers = await Promise.all(claimants.map((c) => adapter.acceptOrganizationInvitation({ tokenHash: sent.tokenHash, userId: c.id, email, now: new Date() })))
    expect(answers.filter((a) => a !== null)).toHaveLength(1)
    expect(await adapter.listOrganizationMembers(org.id)).toHaveLength(2)
    expect(await adapter.getOrganizationInvitation(sent.id)).toMatchObject({ status: "accepted" })
    // The same user racing themself also gets it once.
    const guest = await user()
    const again = await invite(org.id, owner.id, guest.email!)
    const own = await Promise.all(Array.from({ length: ACCEPTANCES }, () => adapter.acceptOrganizationInvitation({ tokenHash: again.tokenHash, userId: guest.id, email: guest.email!, now: new Date() })))
    expect(own.filter((a) => a !== null)).toHaveLength(1)
    expect(await adapter.listOrganizationMembers(org.id)).toHaveLength(3)
  })

  test(`race: ${concurrency} parallel invitations never pass membershipLimit`, async () => {
    const { owner, organization: org } = await organization()
    await join(org.id, owner.id)
    const limit = 2 + concurrency / 2
    const answers = await Promise.all(
      Array.from({ length: concurrency }, (_, i) =>
        adapter.createOrganizationInvitation(invitation(org.id, owner.id, `seat-${i}@example.com`), { now: new Date(), membershipLimit: limit }),
      ),
    )
    expect(answers.filter((a) => a === "limit-reached")).toHaveLength(concurrency / 2)
    expect(await pendingFor(org.id)).toHaveLength(concurrency / 2)
  })

  test(`race: ${concurrency} parallel invitations of one address leave one pending invitation`, async () => {
    const { owner, organization: org } = await organization()
    const answers = await Promise.all(
      Array.from({ length: concurrency }, (_, i) => adapter.createOrganizationInvitation(invitation(org.id, owner.id, i % 2 ? "twin@example.com" : "TWIN@example.com"), { now: new Date() })),
    )
    const pending = await pendingFor(org.id)
    expect(pending).toHaveLength(1)
    expect(answers.map((a) => (a as AdapterOrganizationInvitation).id)).toContain(pending[0]!.id)
  })
}
