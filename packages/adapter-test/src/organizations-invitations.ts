/**
 * The organizations port's invitations and user deletion, run by `organizationsSuite`: invitations
 * stored, replaced rather than duplicated, refused for a member's address, counted against the
 * membership limit, listed, revoked and accepted once (addresses compared case-insensitively, a
 * `+tag` kept); `deleteUser` refusing a last owner.
 */
import { expect } from "vitest"
import type { AdapterOrganization, AdapterOrganizationInvitation, AdapterOrganizationMember } from "@authlib/core"
import { fromNow, randomToken } from "./context.js"
import { DAY_MS, organizationFixtures } from "./organizations-fixtures.js"
import type { SuiteContext } from "./types.js"

export function organizationInvitationsSuite(ctx: SuiteContext): void {
  const { adapter, make, test } = ctx
  const { slug, user, organization, invitation, invite, join, roles, pendingFor } = organizationFixtures(ctx)

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
}
