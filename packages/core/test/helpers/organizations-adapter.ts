/**
 * core's memory adapter plus the `organizations` port, in memory for core's own tests. Each method
 * is synchronous, so each conditional write is atomic as the port's race rules ask: the last owner
 * kept, an actor's role checked in the write, one membership per invitation, the membership limit
 * counted with pending unexpired invitations, unique slugs.
 */
import type { Adapter, AdapterOrganization, AdapterOrganizationInvitation, AdapterOrganizationMember } from "../../src/index.js"
import { ORGANIZATIONS_PORT } from "../../src/capabilities/organizations/adapter.js"
import { memoryAdapter, type MemoryAdapter } from "./memory-adapter.js"

type Port = Required<Pick<Adapter, (typeof ORGANIZATIONS_PORT)[number]>>

export type OrganizationsAdapter = Omit<MemoryAdapter, keyof Port> & Port & {
  organizations: Map<string, AdapterOrganization>
  members: AdapterOrganizationMember[]
  invitations: AdapterOrganizationInvitation[]
}

const lower = (s: string | null | undefined) => (s ?? "").toLowerCase()

/** `base` (core's memory adapter by default) plus the port. */
export function organizationsAdapter<B extends MemoryAdapter = MemoryAdapter>(base: B = memoryAdapter() as B): B & OrganizationsAdapter {
  const organizations = new Map<string, AdapterOrganization>()
  let members: AdapterOrganizationMember[] = []
  let invitations: AdapterOrganizationInvitation[] = []
  const copy = <T extends object>(x: T): T => ({ ...x })
  const slugTaken = (slug: string, except?: string) => [...organizations.values()].some((o) => o.slug === slug && o.id !== except)
  const memberOf = (organizationId: string, userId: string) => members.find((m) => m.organizationId === organizationId && m.userId === userId)
  const owners = (organizationId: string) => members.filter((m) => m.organizationId === organizationId && m.role === "owner").length
  const actorHolds = (organizationId: string, actor?: { userId: string; role: string }) => !actor || memberOf(organizationId, actor.userId)?.role === actor.role
  const port: Port = {
    createOrganization: ({ id, name, slug, ownerId }) => {
      if (slugTaken(slug)) return "slug-taken"
      const organization = { id, name, slug, createdAt: new Date() }
      organizations.set(id, organization)
      members.push({ organizationId: id, userId: ownerId, role: "owner", joinedAt: new Date() })
      return copy(organization)
    },
    getOrganization: (id) => (organizations.has(id) ? copy(organizations.get(id)!) : null),
    getOrganizationBySlug: (slug) => {
      const found = [...organizations.values()].find((o) => o.slug === slug)
      return found ? copy(found) : null
    },
    updateOrganization: (id, patch) => {
      const found = organizations.get(id)
      if (!found) return null
      if (patch.slug !== undefined && slugTaken(patch.slug, id)) return "slug-taken"
      Object.assign(found, patch.name !== undefined ? { name: patch.name } : {}, patch.slug !== undefined ? { slug: patch.slug } : {})
      return copy(found)
    },
    deleteOrganization: (id) => {
      const had = organizations.delete(id)
      members = members.filter((m) => m.organizationId !== id)
      invitations = invitations.filter((i) => i.organizationId !== id)
      return had
    },
    listOrganizationsByUserId: (userId) =>
      members.filter((m) => m.userId === userId).flatMap((m) => (organizations.has(m.organizationId) ? [{ ...organizations.get(m.organizationId)!, role: m.role }] : [])),
    getOrganizationMember: (organizationId, userId) => {
      const found = memberOf(organizationId, userId)
      return found ? copy(found) : null
    },
    listOrganizationMembers: (organizationId) =>
      members.filter((m) => m.organizationId === organizationId).map((m) => {
        const user = base.users.get(m.userId)
        return { ...m, name: user?.name ?? null, email: user?.email ?? null }
      }),
    updateOrganizationMemberRole: (organizationId, userId, role, actor) => {
      const found = memberOf(organizationId, userId)
      if (!found || !actorHolds(organizationId, actor)) return null
      if (found.role === "owner" && role !== "owner" && owners(organizationId) <= 1) return "last-owner"
      found.role = role
      return copy(found)
    },
    removeOrganizationMember: (organizationId, userId, actor) => {
      const found = memberOf(organizationId, userId)
      if (!found || !actorHolds(organizationId, actor)) return null
      if (found.role === "owner" && owners(organizationId) <= 1) return "last-owner"
      members = members.filter((m) => m !== found)
      return copy(found)
    },
    createOrganizationInvitation: (invitation, { now, membershipLimit }) => {
      const email = lower(invitation.email)
      if (members.some((m) => m.organizationId === invitation.organizationId && lower(base.users.get(m.userId)?.email) === email)) return "member-exists"
      const replaced = invitations.find((i) => i.organizationId === invitation.organizationId && i.status === "pending" && lower(i.email) === email)
      if (membershipLimit !== undefined) {
        const pending = invitations.filter((i) => i !== replaced && i.organizationId === invitation.organizationId && i.status === "pending" && i.expires.getTime() > now.getTime()).length
        if (members.filter((m) => m.organizationId === invitation.organizationId).length + pending + 1 > membershipLimit) return "limit-reached"
      }
      if (replaced) invitations = invitations.filter((i) => i !== replaced)
      const stored: AdapterOrganizationInvitation = { ...invitation, status: "pending", createdAt: new Date() }
      invitations.push(stored)
      return copy(stored)
    },
    getOrganizationInvitation: (id) => {
      const found = invitations.find((i) => i.id === id)
      return found ? copy(found) : null
    },
    getOrganizationInvitationByTokenHash: (tokenHash) => {
      const found = invitations.find((i) => i.tokenHash === tokenHash)
      return found ? copy(found) : null
    },
    listOrganizationInvitations: (organizationId) => invitations.filter((i) => i.organizationId === organizationId).reverse().map(copy),
    revokeOrganizationInvitation: (id) => {
      const found = invitations.find((i) => i.id === id && i.status === "pending")
      if (!found) return false
      found.status = "revoked"
      return true
    },
    acceptOrganizationInvitation: ({ tokenHash, userId, email, now }) => {
      const found = invitations.find((i) => i.tokenHash === tokenHash)
      if (!found || found.status !== "pending" || found.expires.getTime() <= now.getTime() || lower(found.email) !== lower(email)) return null
      if (!organizations.has(found.organizationId)) return null
      found.status = "accepted"
      const existing = memberOf(found.organizationId, userId)
      if (existing) return copy(existing)
      const member = { organizationId: found.organizationId, userId, role: found.role, joinedAt: new Date() }
      members.push(member)
      return copy(member)
    },
  }
  // Each call goes through an await, as a real store's would, so concurrent requests interleave between calls.
  const logged: Record<string, unknown> = {}
  for (const [name, fn] of Object.entries(port)) {
    logged[name] = async (...args: unknown[]) => {
      base.calls.push({ method: name, args })
      await Promise.resolve()
      return (fn as (...a: unknown[]) => unknown)(...args)
    }
  }
  Object.assign(base, logged as Port, { organizations })
  Object.defineProperty(base, "members", { get: () => members, enumerable: true })
  Object.defineProperty(base, "invitations", { get: () => invitations, enumerable: true })
  return base as B & OrganizationsAdapter
}
