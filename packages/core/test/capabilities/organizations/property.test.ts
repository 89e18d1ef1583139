/**
 * Property-style: random operations by random users over several organizations (a seeded
 * generator, so a failure replays), in both session strategies. After each one: no answer about
 * one organization carries another's data (ids, names, slugs, members, invitations); no error
 * names an organization in its message or cause; every organization keeps an owner; every change
 * that succeeded was one the actor's role allowed (no escalation), and a caller who was not a
 * member got `ORGANIZATION_UNKNOWN`.
 */
import { describe, expect, it } from "vitest"
import {
  acceptInvitation, createOrganization, getOrganization, hasPermission, inviteMember, leaveOrganization, listInvitations, listMembers, listOrganizations,
  removeMember, revokeInvitation, setActiveOrganization, updateMemberRole, updateOrganization,
} from "../../../src/index.js"
import type { AdapterOrganizationMember } from "../../../src/index.js"
import type { Client } from "../../helpers/harness.js"
import { appRequest, kit, STRATEGIES } from "./helpers.js"

/** mulberry32: a small seeded generator. */
function generator(seed: number) {
  let a = seed >>> 0
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!
  return { next, pick }
}

const USERS = ["alice", "bob", "carol", "dave", "erin", "frank"]
const APP_ROLES = { billing: ["invoice:approve", "member:invite"], auditor: ["invitation:revoke"] }
const ROLES = ["owner", "admin", "member", "billing", "auditor"]
/** The test's own oracle of the permission table (not core's code): what each non-owner role holds. */
const HELD: Record<string, readonly string[]> = {
  admin: ["organization:update", "member:invite", "member:update-role", "member:remove", "invitation:revoke"],
  member: [],
  ...APP_ROLES,
}
const holds = (role: string, permission: string) => role === "owner" || (HELD[role] ?? []).includes(permission)
/** Whether `actor` may grant (or act on a member with) `role`: an owner anything; others no owner, and only roles whose permissions they hold. */
const covers = (actor: string, role: string) => actor === "owner" || (role !== "owner" && (HELD[role] ?? []).every((p) => holds(actor, p)))
const STEPS = 400

describe.each(STRATEGIES)("random operations over several organizations (%s sessions)", (strategy) => {
  it.each([1, 2, 3])("keep organizations apart and the rules whole (seed %i)", async (seed) => {
    const { pick, next } = generator(seed * 7919 + (strategy === "jwt" ? 0 : 1))
    const k = kit(strategy, { roles: APP_ROLES })
    k.addUser("frank")
    const clients = new Map<string, Client>()
    for (const name of USERS) clients.set(name, await k.signIn(name))
    const req = (user: string) => appRequest(clients.get(user)!)
    const orgs: Array<{ id: string; name: string; slug: string }> = []
    for (let i = 0; i < 4; i++) {
      const o = await createOrganization(req(USERS[i]!), k.config, { name: `Org ${i} ${seed}`, slug: `org-${i}-s${seed}` })
      orgs.push({ id: o.id, name: o.name, slug: o.slug })
    }
    const tokens: string[] = []
    const names = () => orgs.map((o) => [o.id, o.name, o.slug])
    const roleOf = (members: AdapterOrganizationMember[], org: string, user: string) => members.find((m) => m.organizationId === org && m.userId === user)?.role
    const others = (org: string) => names().filter(([id]) => id !== org).flat()
    const counts = { ok: 0, refused: 0 }

    for (let step = 0; step < STEPS; step++) {
      const user = pick(USERS)
      // Mostly an organization the user is in, and a target who is in it: more operations get as far as the rules.
      const theirs = orgs.filter((o) => k.adapter.members.some((m) => m.organizationId === o.id && m.userId === user))
      const org = theirs.length && next() < 0.7 ? pick(theirs) : pick(orgs)
      const inOrg = k.adapter.members.filter((m) => m.organizationId === org.id).map((m) => m.userId)
      const target = next() < 0.6 ? pick(inOrg) : pick(USERS)
      const role = pick(ROLES)
      const before = k.adapter.members.map((m) => ({ ...m }))
      const mine = roleOf(before, org.id, user)
      const op = pick(["invite", "accept", "role", "remove", "leave", "members", "invitations", "get", "list", "can", "active", "rename", "revoke"] as const)
      let answer: unknown
      let error: { code?: string; message: string; cause?: unknown } | undefined
      try {
        switch (op) {
          case "invite": answer = await inviteMember(req(user), k.config, org.id, { email: `${target}@example.com`, role }); break
          case "accept": answer = await acceptInvitation(req(user), k.config, tokens.length && next() < 0.8 ? pick(tokens) : "A".repeat(43)); break
          case "role": answer = await updateMemberRole(req(user), k.config, org.id, target, role); break
          case "remove": answer = await removeMember(req(user), k.config, org.id, target); break
          case "leave": answer = await leaveOrganization(req(user), k.config, org.id); break
          case "members": answer = await listMembers(req(user), k.config, org.id); break
          case "invitations": answer = await listInvitations(req(user), k.config, org.id); break
          case "get": answer = await getOrganization(req(user), k.config, org.id); break
          case "list": answer = await listOrganizations(req(user), k.config); break
          case "can": answer = await hasPermission(req(user), k.config, org.id, pick(["member:invite", "invoice:approve", "organization:delete"])); break
          case "active": answer = (await setActiveOrganization(req(user), k.config, org.id)).activeOrganization; break
          case "rename": answer = await updateOrganization(req(user), k.config, org.id, { name: `Org renamed ${step}` }); break
          case "revoke": {
            const invitation = pick([...k.adapter.invitations, { id: crypto.randomUUID() }])
            answer = await revokeInvitation(req(user), k.config, invitation.id)
            break
          }
        }
        counts.ok++
      } catch (err) {
        error = err as typeof error
        counts.refused++
      }
      if (op === "invite" && !error) tokens.push(new URL(k.sent.at(-1)!.url).searchParams.get("token")!)
      if (op === "rename" && !error) org.name = (answer as { name: string }).name
      const where = `step ${step}: ${user} ${op} ${org.slug} ${target} ${role} -> ${error?.code ?? "ok"}`

      // A caller who was not a member of the organization learns nothing about it.
      if (mine === undefined && op !== "accept" && op !== "list" && op !== "revoke") expect(error?.code, where).toBe("ORGANIZATION_UNKNOWN")
      // No error names any organization.
      if (error) {
        const said = JSON.stringify({ message: error.message, cause: error.cause ?? null })
        for (const secret of names().flat()) expect(said, where).not.toContain(secret)
      }
      // An answer about one organization carries nothing of another.
      if (!error && answer !== undefined && op !== "list" && op !== "accept" && op !== "revoke") {
        const text = JSON.stringify(answer)
        for (const secret of others(org.id)) expect(text, where).not.toContain(secret)
      }
      if (!error && op === "members") {
        const expected = before.filter((m) => m.organizationId === org.id).map((m) => m.userId).sort()
        expect((answer as Array<{ userId: string }>).map((m) => m.userId).sort(), where).toEqual(expected)
      }
      if (!error && op === "invitations") {
        const ids = new Set(k.adapter.invitations.filter((i) => i.organizationId === org.id).map((i) => i.id))
        for (const i of answer as Array<{ id: string }>) expect(ids.has(i.id), where).toBe(true)
      }
      if (!error && op === "list") {
        const expected = before.filter((m) => m.userId === user).map((m) => m.organizationId).sort()
        expect((answer as Array<{ id: string }>).map((o) => o.id).sort(), where).toEqual(expected)
      }
      // No escalation: each change that went through was the actor's to make.
      if (!error && op === "role") {
        expect(mine, where).toBeDefined()
        expect(holds(mine!, "member:update-role"), where).toBe(true)
        expect(covers(mine!, role), where).toBe(true)
        if (target !== user) expect(covers(mine!, roleOf(before, org.id, target)!), where).toBe(true)
      }
      if (!error && op === "remove" && target !== user) {
        expect(holds(mine!, "member:remove"), where).toBe(true)
        expect(covers(mine!, roleOf(before, org.id, target)!), where).toBe(true)
      }
      if (!error && op === "invite") expect(holds(mine!, "member:invite") && covers(mine!, role), where).toBe(true)
      if (!error && op === "accept") {
        const joined = answer as { organizationId: string; role: string }
        expect(k.adapter.users.get(user)?.email, where).toBe(k.adapter.invitations.find((i) => i.organizationId === joined.organizationId && i.status === "accepted" && i.email === `${user}@example.com`)?.email)
      }
      // Every organization keeps an owner.
      for (const o of orgs) expect(k.adapter.members.some((m) => m.organizationId === o.id && m.role === "owner"), `${where}: ${o.slug} has no owner`).toBe(true)
      // Nobody is an owner who was not made one by an owner, or by accepting an owner's invitation.
      for (const m of k.adapter.members.filter((m) => m.role === "owner" && roleOf(before, m.organizationId, m.userId) !== "owner")) {
        if (op === "role") expect(mine, where).toBe("owner")
        else expect(op, where).toBe("accept")
      }
    }
    // The run did both: changes went through and refusals happened.
    expect(counts.ok).toBeGreaterThan(STEPS / 4)
    expect(counts.refused).toBeGreaterThan(STEPS / 5)
  })
})
