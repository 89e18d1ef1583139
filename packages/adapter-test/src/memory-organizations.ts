/**
 * The organizations port of `MemoryAdapter`. Every method is synchronous from read to write, so no
 * other call runs in between: that is what makes each conditional write atomic here (of two owners
 * demoting each other one wins, of parallel acceptances of one invitation one gets the membership,
 * parallel invitations never pass the membership limit).
 */
import { OrganizationError } from "@authlib/core"
import type {
  Adapter,
  AdapterOrganization,
  AdapterOrganizationInvitation,
  AdapterOrganizationMember,
  AdapterUser,
} from "@authlib/core"

/** The owner role (core's `OWNER_ROLE`): an organization always keeps a member with it. */
const OWNER = "owner"

/** What the organization methods need of the store. */
export interface OrganizationStore {
  users: Map<string, AdapterUser>
  organizations: Map<string, AdapterOrganization>
  /** Keyed by `memberKey(organizationId, userId)`. */
  organizationMembers: Map<string, AdapterOrganizationMember>
  /** Keyed by invitation id. */
  organizationInvitations: Map<string, AdapterOrganizationInvitation>
  memberKey(organizationId: string, userId: string): string
}

/** Thrown for a write a database's keys would refuse (an unknown user, a taken id or token hash). */
export type OrganizationKeyError = (message: string, code: "UNKNOWN_USER" | "DUPLICATE_KEY") => Error

type OrganizationMethods = Pick<
  Required<Adapter>,
  | "createOrganization" | "getOrganization" | "getOrganizationBySlug" | "updateOrganization" | "deleteOrganization"
  | "listOrganizationsByUserId" | "getOrganizationMember" | "listOrganizationMembers" | "updateOrganizationMemberRole"
  | "removeOrganizationMember" | "createOrganizationInvitation" | "getOrganizationInvitation"
  | "getOrganizationInvitationByTokenHash" | "listOrganizationInvitations" | "revokeOrganizationInvitation"
  | "acceptOrganizationInvitation"
>

const copy = <T>(value: T): T => structuredClone(value)
const orNull = <T>(value: T | undefined): T | null => (value === undefined ? null : copy(value))
/** Addresses compare case-insensitively and otherwise exactly (a `+tag` stays part of the address). */
const sameAddress = (a: string | null | undefined, b: string) => typeof a === "string" && a.toLowerCase() === b.toLowerCase()

/** The members of one organization, oldest first (a Map keeps insertion order, the order they joined). */
function membersOf(store: OrganizationStore, organizationId: string): AdapterOrganizationMember[] {
  return [...store.organizationMembers.values()].filter((m) => m.organizationId === organizationId)
}

const ownerCount = (store: OrganizationStore, organizationId: string) => membersOf(store, organizationId).filter((m) => m.role === OWNER).length

/** Whether `actor` (when given) is still a member with the role it acted with. */
function actorHolds(store: OrganizationStore, organizationId: string, actor: { userId: string; role: string } | undefined): boolean {
  return !actor || store.organizationMembers.get(store.memberKey(organizationId, actor.userId))?.role === actor.role
}

/** Deletes the organization with its members and invitations. */
function dropOrganization(store: OrganizationStore, id: string): boolean {
  if (!store.organizations.delete(id)) return false
  for (const [key, m] of store.organizationMembers) if (m.organizationId === id) store.organizationMembers.delete(key)
  for (const [key, i] of store.organizationInvitations) if (i.organizationId === id) store.organizationInvitations.delete(key)
  return true
}

/**
 * The organization side of `deleteUser`, run before the user goes: throws `OrganizationError`
 * `LAST_OWNER` (nothing changed) when the user is the only owner of an organization with other
 * members; otherwise removes their memberships and the organizations they were the only member of.
 */
export function deleteUserMemberships(store: OrganizationStore, userId: string): void {
  const memberships = [...store.organizationMembers.values()].filter((m) => m.userId === userId)
  for (const m of memberships) {
    const others = membersOf(store, m.organizationId).filter((o) => o.userId !== userId)
    if (m.role === OWNER && others.length > 0 && !others.some((o) => o.role === OWNER)) {
      throw new OrganizationError("The user is the last owner of an organization with other members", { code: "LAST_OWNER" })
    }
  }
  for (const m of memberships) {
    store.organizationMembers.delete(store.memberKey(m.organizationId, userId))
    if (membersOf(store, m.organizationId).length === 0) dropOrganization(store, m.organizationId)
  }
}

export function organizationMethods(store: OrganizationStore, keyError: OrganizationKeyError): OrganizationMethods {
  const slugTaken = (slug: string, exceptId?: string) => [...store.organizations.values()].some((o) => o.slug === slug && o.id !== exceptId)
  const invitationByTokenHash = (tokenHash: string) => [...store.organizationInvitations.values()].find((i) => i.tokenHash === tokenHash)
  return {
    createOrganization({ id, name, slug, ownerId }) {
      if (!store.users.has(ownerId)) throw keyError("no such user", "UNKNOWN_USER")
      if (store.organizations.has(id)) throw keyError("an organization with this id exists", "DUPLICATE_KEY")
      if (slugTaken(slug)) return "slug-taken"
      const organization: AdapterOrganization = { id, name, slug, createdAt: new Date() }
      store.organizations.set(id, organization)
      store.organizationMembers.set(store.memberKey(id, ownerId), { organizationId: id, userId: ownerId, role: OWNER, joinedAt: new Date(organization.createdAt) })
      return copy(organization)
    },
    getOrganization: (id) => orNull(store.organizations.get(id)),
    getOrganizationBySlug: (slug) => orNull([...store.organizations.values()].find((o) => o.slug === slug)),
    updateOrganization(id, patch) {
      const current = store.organizations.get(id)
      if (!current) return null
      if (patch.slug !== undefined && slugTaken(patch.slug, id)) return "slug-taken"
      if (patch.name !== undefined) current.name = patch.name
      if (patch.slug !== undefined) current.slug = patch.slug
      return copy(current)
    },
    deleteOrganization: (id) => dropOrganization(store, id),
    listOrganizationsByUserId(userId) {
      return [...store.organizationMembers.values()].flatMap((m) => {
        const organization = m.userId === userId ? store.organizations.get(m.organizationId) : undefined
        return organization ? [{ ...copy(organization), role: m.role }] : []
      })
    },
    getOrganizationMember: (organizationId, userId) => orNull(store.organizationMembers.get(store.memberKey(organizationId, userId))),
    listOrganizationMembers(organizationId) {
      return membersOf(store, organizationId).map((m) => {
        const user = store.users.get(m.userId)
        return { ...copy(m), name: user?.name ?? null, email: user?.email ?? null }
      })
    },
    updateOrganizationMemberRole(organizationId, userId, role, actor) {
      if (!actorHolds(store, organizationId, actor)) return null
      const member = store.organizationMembers.get(store.memberKey(organizationId, userId))
      if (!member) return null
      if (member.role === OWNER && role !== OWNER && ownerCount(store, organizationId) === 1) return "last-owner"
      member.role = role
      return copy(member)
    },
    removeOrganizationMember(organizationId, userId, actor) {
      if (!actorHolds(store, organizationId, actor)) return null
      const key = store.memberKey(organizationId, userId)
      const member = store.organizationMembers.get(key)
      if (!member) return null
      if (member.role === OWNER && ownerCount(store, organizationId) === 1) return "last-owner"
      store.organizationMembers.delete(key)
      return copy(member)
    },
    createOrganizationInvitation(invitation, { now, membershipLimit }) {
      const { organizationId, email } = invitation
      // Deleted since core checked the inviter's membership: the caller learns it as core would have.
      if (!store.organizations.has(organizationId)) throw new OrganizationError("The organization does not exist", { code: "ORGANIZATION_UNKNOWN" })
      const members = membersOf(store, organizationId)
      if (members.some((m) => sameAddress(store.users.get(m.userId)?.email, email))) return "member-exists"
      const pending = [...store.organizationInvitations.values()].filter((i) => i.organizationId === organizationId && i.status === "pending")
      const replaced = pending.filter((i) => sameAddress(i.email, email))
      if (membershipLimit !== undefined) {
        const live = pending.filter((i) => !replaced.includes(i) && i.expires.getTime() > now.getTime()).length
        if (members.length + live + 1 > membershipLimit) return "limit-reached"
      }
      const taken = store.organizationInvitations.get(invitation.id) ?? invitationByTokenHash(invitation.tokenHash)
      if (taken && !replaced.includes(taken)) throw keyError("an invitation with this id or token hash exists", "DUPLICATE_KEY")
      for (const old of replaced) store.organizationInvitations.delete(old.id)
      const stored: AdapterOrganizationInvitation = { ...copy(invitation), status: "pending", createdAt: new Date(now) }
      store.organizationInvitations.set(stored.id, stored)
      return copy(stored)
    },
    getOrganizationInvitation: (id) => orNull(store.organizationInvitations.get(id)),
    getOrganizationInvitationByTokenHash: (tokenHash) => orNull(invitationByTokenHash(tokenHash)),
    listOrganizationInvitations(organizationId) {
      // Newest first; a Map keeps insertion order, so reversing it breaks ties of equal `createdAt` by recency.
      return [...store.organizationInvitations.values()]
        .filter((i) => i.organizationId === organizationId)
        .reverse()
        .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())
        .map(copy)
    },
    revokeOrganizationInvitation(id) {
      const invitation = store.organizationInvitations.get(id)
      if (invitation?.status !== "pending") return false
      invitation.status = "revoked"
      return true
    },
    acceptOrganizationInvitation({ tokenHash, userId, email, now }) {
      const invitation = invitationByTokenHash(tokenHash)
      if (!invitation || invitation.status !== "pending" || invitation.expires.getTime() <= now.getTime()) return null
      if (!sameAddress(invitation.email, email) || !store.users.has(userId)) return null
      invitation.status = "accepted"
      const key = store.memberKey(invitation.organizationId, userId)
      const existing = store.organizationMembers.get(key)
      if (existing) return copy(existing)
      const member: AdapterOrganizationMember = { organizationId: invitation.organizationId, userId, role: invitation.role, joinedAt: new Date(now) }
      store.organizationMembers.set(key, member)
      return copy(member)
    },
  }
}
