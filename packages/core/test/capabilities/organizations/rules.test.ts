/**
 * The rules of issue 35's section 3 that hold under attack, through the server functions, in both
 * session strategies: no granting a role with a permission one lacks; only owners make, demote or
 * remove owners; at least one owner always; a caller who is not a member learns nothing (the same
 * `ORGANIZATION_UNKNOWN` as for no organization, nothing of it in any message or cause); access
 * decided from the store at each use (a removed member, a demoted admin, a deleted organization act
 * no more on the very next request); identifiers from outside validated before any store call.
 */
import { describe, expect, it } from "vitest"
import {
  createOrganization, deleteOrganization, getOrganization, hasPermission, inviteMember, leaveOrganization, listInvitations, listMembers,
  removeMember, requirePermission, revokeInvitation, setActiveOrganization, updateMemberRole, updateOrganization,
} from "../../../src/index.js"
import { appRequest, join, kit, rejection, STRATEGIES } from "./helpers.js"

describe.each(STRATEGIES)("organization rules (%s sessions)", (strategy) => {
  async function acme(roles?: Record<string, string[]>) {
    const k = kit(strategy, roles ? { roles } : {})
    const alice = await k.signIn("alice")
    const org = await createOrganization(appRequest(alice), k.config, { name: "Acme", slug: "acme" })
    const bob = await join(k, alice, org.id, "bob", "admin")
    const carol = await join(k, alice, org.id, "carol", "member")
    return { k, alice, bob, carol, org }
  }

  it("refuses an admin granting owner, by invitation or by role change (ROLE_ESCALATION)", async () => {
    const { k, bob, org } = await acme()
    expect(await rejection(inviteMember(appRequest(bob), k.config, org.id, { email: "dave@example.com", role: "owner" }))).toMatchObject({ code: "ROLE_ESCALATION" })
    expect(await rejection(updateMemberRole(appRequest(bob), k.config, org.id, "carol", "owner"))).toMatchObject({ code: "ROLE_ESCALATION" })
    expect(await rejection(updateMemberRole(appRequest(bob), k.config, org.id, "bob", "owner"))).toMatchObject({ code: "ROLE_ESCALATION" })
    expect(k.adapter.members.filter((m) => m.role === "owner").map((m) => m.userId)).toEqual(["alice"])
    expect(k.adapter.invitations.filter((i) => i.role === "owner")).toEqual([])
  })

  it("refuses granting an app role with a permission the granter lacks", async () => {
    const { k, bob, org } = await acme({ billing: ["invoice:approve"], helper: ["member:invite"] })
    expect(await rejection(inviteMember(appRequest(bob), k.config, org.id, { email: "dave@example.com", role: "billing" }))).toMatchObject({ code: "ROLE_ESCALATION" })
    expect(await rejection(updateMemberRole(appRequest(bob), k.config, org.id, "carol", "billing"))).toMatchObject({ code: "ROLE_ESCALATION" })
    // A role whose permissions the admin holds is theirs to grant.
    expect(await updateMemberRole(appRequest(bob), k.config, org.id, "carol", "helper")).toMatchObject({ role: "helper" })
  })

  it("lets only owners demote or remove owners", async () => {
    const { k, alice, bob, org } = await acme()
    await updateMemberRole(appRequest(alice), k.config, org.id, "carol", "owner")
    expect(await rejection(updateMemberRole(appRequest(bob), k.config, org.id, "alice", "member"))).toMatchObject({ code: "FORBIDDEN" })
    expect(await rejection(removeMember(appRequest(bob), k.config, org.id, "alice"))).toMatchObject({ code: "FORBIDDEN" })
    expect(k.adapter.members.filter((m) => m.role === "owner").map((m) => m.userId).sort()).toEqual(["alice", "carol"])
    await updateMemberRole(appRequest(alice), k.config, org.id, "carol", "admin")
    await updateMemberRole(appRequest(alice), k.config, org.id, "carol", "owner")
    await removeMember(appRequest(alice), k.config, org.id, "carol")
    expect(k.adapter.members.map((m) => m.userId).sort()).toEqual(["alice", "bob"])
  })

  it("refuses acting on a member whose role has permissions the actor lacks", async () => {
    const { k, alice, bob, org } = await acme({ billing: ["invoice:approve"] })
    await updateMemberRole(appRequest(alice), k.config, org.id, "carol", "billing")
    expect(await rejection(updateMemberRole(appRequest(bob), k.config, org.id, "carol", "member"))).toMatchObject({ code: "FORBIDDEN" })
    expect(await rejection(removeMember(appRequest(bob), k.config, org.id, "carol"))).toMatchObject({ code: "FORBIDDEN" })
  })

  it("refuses a member without the permission (FORBIDDEN)", async () => {
    const { k, carol, org } = await acme()
    expect(await rejection(inviteMember(appRequest(carol), k.config, org.id, { email: "dave@example.com", role: "member" }))).toMatchObject({ code: "FORBIDDEN" })
    expect(await rejection(updateMemberRole(appRequest(carol), k.config, org.id, "bob", "member"))).toMatchObject({ code: "FORBIDDEN" })
    expect(await rejection(removeMember(appRequest(carol), k.config, org.id, "bob"))).toMatchObject({ code: "FORBIDDEN" })
    expect(await rejection(listInvitations(appRequest(carol), k.config, org.id))).toMatchObject({ code: "FORBIDDEN" })
    expect(await rejection(deleteOrganization(appRequest(carol), k.config, org.id))).toMatchObject({ code: "FORBIDDEN" })
  })

  it("keeps the last owner: no demoting, leaving or removing them (LAST_OWNER)", async () => {
    const { k, alice, org } = await acme()
    expect(await rejection(updateMemberRole(appRequest(alice), k.config, org.id, "alice", "admin"))).toMatchObject({ code: "LAST_OWNER" })
    expect(await rejection(leaveOrganization(appRequest(alice), k.config, org.id))).toMatchObject({ code: "LAST_OWNER" })
    expect(await rejection(removeMember(appRequest(alice), k.config, org.id, "alice"))).toMatchObject({ code: "LAST_OWNER" })
    expect(k.adapter.members.find((m) => m.userId === "alice")?.role).toBe("owner")
    // With a second owner, one may step down.
    await updateMemberRole(appRequest(alice), k.config, org.id, "bob", "owner")
    await leaveOrganization(appRequest(alice), k.config, org.id)
    expect(k.adapter.members.filter((m) => m.role === "owner").map((m) => m.userId)).toEqual(["bob"])
  })

  it("leaves one owner when two owners demote each other at once", async () => {
    const { k, alice, bob, org } = await acme()
    await updateMemberRole(appRequest(alice), k.config, org.id, "bob", "owner")
    const outcomes = await Promise.allSettled([
      updateMemberRole(appRequest(alice), k.config, org.id, "bob", "member"),
      updateMemberRole(appRequest(bob), k.config, org.id, "alice", "member"),
    ])
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1)
    expect(k.adapter.members.filter((m) => m.role === "owner")).toHaveLength(1)
  })

  it("answers ORGANIZATION_UNKNOWN to a non-member as to no organization, with nothing of it in message or cause", async () => {
    const { k, org } = await acme()
    const erin = await k.signIn("erin")
    const unknown = crypto.randomUUID()
    const calls = (id: string) => [
      getOrganization(appRequest(erin), k.config, id),
      updateOrganization(appRequest(erin), k.config, id, { name: "Mine" }),
      deleteOrganization(appRequest(erin), k.config, id),
      inviteMember(appRequest(erin), k.config, id, { email: "erin+2@example.com", role: "member" }),
      listInvitations(appRequest(erin), k.config, id),
      listMembers(appRequest(erin), k.config, id),
      updateMemberRole(appRequest(erin), k.config, id, "alice", "member"),
      removeMember(appRequest(erin), k.config, id, "alice"),
      leaveOrganization(appRequest(erin), k.config, id),
      setActiveOrganization(appRequest(erin), k.config, id),
      hasPermission(appRequest(erin), k.config, id, "member:invite"),
      requirePermission(appRequest(erin), k.config, id, "member:invite"),
    ]
    const existing = await Promise.all(calls(org.id).map(rejection))
    const missing = await Promise.all(calls(unknown).map(rejection))
    for (const [i, err] of existing.entries()) {
      expect(err, `call ${i}`).toMatchObject({ type: "OrganizationError", code: "ORGANIZATION_UNKNOWN" })
      expect({ message: err.message, cause: err.cause }).toEqual({ message: missing[i]!.message, cause: missing[i]!.cause })
      const said = JSON.stringify({ message: err.message, cause: err.cause ?? null })
      for (const secret of [org.id, "Acme", "acme"]) expect(said).not.toContain(secret)
    }
    expect(k.adapter.organizations.get(org.id)?.name).toBe("Acme")
    expect(k.adapter.members).toHaveLength(3)
  })

  it("refuses a removed member, a demoted admin and a deleted organization on the very next request", async () => {
    const { k, alice, bob, carol, org } = await acme()
    expect(await hasPermission(appRequest(bob), k.config, org.id, "member:remove")).toBe(true)
    await updateMemberRole(appRequest(alice), k.config, org.id, "bob", "member")
    expect(await hasPermission(appRequest(bob), k.config, org.id, "member:remove")).toBe(false)
    expect(await rejection(removeMember(appRequest(bob), k.config, org.id, "carol"))).toMatchObject({ code: "FORBIDDEN" })
    await removeMember(appRequest(alice), k.config, org.id, "bob")
    expect(await rejection(getOrganization(appRequest(bob), k.config, org.id))).toMatchObject({ code: "ORGANIZATION_UNKNOWN" })
    expect(await rejection(hasPermission(appRequest(bob), k.config, org.id, "member:invite"))).toMatchObject({ code: "ORGANIZATION_UNKNOWN" })
    await deleteOrganization(appRequest(alice), k.config, org.id)
    expect(await rejection(listMembers(appRequest(carol), k.config, org.id))).toMatchObject({ code: "ORGANIZATION_UNKNOWN" })
    expect(await rejection(listMembers(appRequest(alice), k.config, org.id))).toMatchObject({ code: "ORGANIZATION_UNKNOWN" })
  })

  it("changes nothing when the actor loses their role between the read and the write", async () => {
    const k = kit(strategy)
    const write = k.adapter.removeOrganizationMember
    let meanwhile: (() => Promise<unknown>) | undefined
    // The adapter is wrapped when the config is first resolved: the interception goes in before.
    k.adapter.removeOrganizationMember = async (organizationId, userId, actor) => {
      await meanwhile?.()
      return write(organizationId, userId, actor)
    }
    const alice = await k.signIn("alice")
    const org = await createOrganization(appRequest(alice), k.config, { name: "Acme" })
    const bob = await join(k, alice, org.id, "bob", "admin")
    await join(k, alice, org.id, "carol", "member")
    // Alice demotes Bob while his request is between reading his membership and removing Carol.
    meanwhile = async () => {
      meanwhile = undefined
      await updateMemberRole(appRequest(alice), k.config, org.id, "bob", "member")
    }
    expect(await rejection(removeMember(appRequest(bob), k.config, org.id, "carol"))).toMatchObject({ code: "FORBIDDEN" })
    expect(k.adapter.members.map((m) => m.userId).sort()).toEqual(["alice", "bob", "carol"])
  })

  it("validates every identifier from outside before any store call", async () => {
    const { k, alice, org } = await acme()
    const before = k.adapter.calls.length
    const writes = () => k.adapter.calls.slice(before).map((c) => c.method).filter((m) => !["getSessionAndUser", "getUser", "getUserSessionEpoch"].includes(m))
    for (const id of ["", "not-a-uuid", `${org.id} `, org.id.toUpperCase(), "../" + org.id, 42, null, { id: org.id }, [org.id]]) {
      expect(await rejection(getOrganization(appRequest(alice), k.config, id as never)), String(id)).toMatchObject({ code: "ID_INVALID" })
      expect(await rejection(revokeInvitation(appRequest(alice), k.config, id as never))).toMatchObject({ code: "ID_INVALID" })
    }
    for (const userId of ["", "a b", "x".repeat(129), "\u0000", 7, null])
      expect(await rejection(removeMember(appRequest(alice), k.config, org.id, userId as never))).toMatchObject({ code: "ID_INVALID" })
    for (const role of ["", "superuser", "Owner", 1, null]) expect(await rejection(updateMemberRole(appRequest(alice), k.config, org.id, "bob", role as never))).toMatchObject({ code: "ROLE_UNKNOWN" })
    for (const email of ["", "no-at", "a@", "@b", "a@b@c", "a b@c.d", "a@b\u0000", 5]) expect(await rejection(inviteMember(appRequest(alice), k.config, org.id, { email, role: "member" } as never))).toMatchObject({ code: "EMAIL_INVALID" })
    // Only reads of the caller's own membership happened: nothing was written.
    expect(writes().filter((m) => m !== "getOrganizationMember")).toEqual([])
  })
})
