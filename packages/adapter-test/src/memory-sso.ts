/**
 * The `ssoConnections` port of `MemoryAdapter`. Every method is synchronous from read to write, so
 * no other call runs in between: that is what makes `verifySsoDomain`'s "one connection (so one
 * organization) at a time" a single conditional write here. Connections of an organization that no longer exists are
 * gone with it (dropped on the next read), as a foreign key with `ON DELETE CASCADE` would have them.
 */
import type { Adapter, AdapterOrganization, AdapterOrganizationInvitation, AdapterOrganizationMember, AdapterSsoConnection, AdapterSsoDomain, AdapterUser, VerificationToken } from "@authlib/core"

/** What the SSO methods need of the store. */
export interface SsoStore {
  users: Map<string, AdapterUser>
  organizations: Map<string, AdapterOrganization>
  organizationMembers: Map<string, AdapterOrganizationMember>
  organizationInvitations: Map<string, AdapterOrganizationInvitation>
  /** The verification-token store, keyed by `tokenKey(identifier, token)` (`claimVerificationToken`). */
  verificationTokens: Map<string, VerificationToken>
  tokenKey(identifier: string, token: string): string
  /** Connections by id, in the order they were made. */
  ssoConnections: Map<string, AdapterSsoConnection>
  /** Domains by id, in the order they were added. */
  ssoDomains: Map<string, AdapterSsoDomain>
  memberKey(organizationId: string, userId: string): string
}

type SsoMethods = Pick<
  Required<Adapter>,
  | "createSsoConnection" | "getSsoConnection" | "listSsoConnections" | "updateSsoConnection" | "deleteSsoConnection"
  | "addSsoDomain" | "listSsoDomains" | "verifySsoDomain" | "getVerifiedSsoDomain" | "addOrganizationMember" | "claimVerificationToken"
>

const copy = <T>(value: T): T => structuredClone(value)

/** Drops what belonged to organizations that are gone; true when `connectionId` (if given) still stands. */
function sweep(store: SsoStore): void {
  for (const [id, c] of store.ssoConnections) if (!store.organizations.has(c.organizationId)) store.ssoConnections.delete(id)
  for (const [id, d] of store.ssoDomains) if (!store.ssoConnections.has(d.connectionId)) store.ssoDomains.delete(id)
}

/** The SSO methods over `store`. */
export function ssoMethods(store: SsoStore, keyError: (message: string) => Error): SsoMethods {
  const live = (id: string) => (sweep(store), store.ssoConnections.get(id))
  return {
    createSsoConnection(connection) {
      sweep(store)
      if (store.ssoConnections.has(connection.id)) throw keyError("an SSO connection with this id exists")
      if (!store.organizations.has(connection.organizationId)) throw keyError("no such organization")
      const stored: AdapterSsoConnection = { ...copy(connection), idpCertificates: [...connection.idpCertificates], createdAt: new Date() }
      store.ssoConnections.set(stored.id, stored)
      return copy(stored)
    },
    getSsoConnection: (id) => copy(live(id) ?? null),
    listSsoConnections: (organizationId) => (sweep(store), [...store.ssoConnections.values()].filter((c) => c.organizationId === organizationId).map(copy)),
    updateSsoConnection(id, patch) {
      const current = live(id)
      if (!current) return null
      const defined = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined))
      const updated = { ...current, ...copy(defined) }
      store.ssoConnections.set(id, updated)
      return copy(updated)
    },
    deleteSsoConnection(id) {
      if (!live(id)) return false
      store.ssoConnections.delete(id)
      sweep(store)
      return true
    },
    addSsoDomain(domain) {
      if (!live(domain.connectionId)) throw keyError("no such SSO connection")
      const existing = [...store.ssoDomains.values()].find((d) => d.connectionId === domain.connectionId && d.domain === domain.domain)
      if (existing) return copy(existing)
      if (store.ssoDomains.has(domain.id)) throw keyError("an SSO domain with this id exists")
      const stored: AdapterSsoDomain = { ...copy(domain), verifiedAt: null }
      store.ssoDomains.set(stored.id, stored)
      return copy(stored)
    },
    listSsoDomains: (connectionId) => (sweep(store), [...store.ssoDomains.values()].filter((d) => d.connectionId === connectionId).map(copy)),
    verifySsoDomain(connectionId, domain, now) {
      sweep(store)
      const row = [...store.ssoDomains.values()].find((d) => d.connectionId === connectionId && d.domain === domain)
      if (!row) return null
      if (row.verifiedAt) return copy(row)
      const elsewhere = [...store.ssoDomains.values()].some((d) => d.domain === domain && d.verifiedAt !== null && d.id !== row.id)
      if (elsewhere) return "verified-elsewhere"
      row.verifiedAt = new Date(now)
      return copy(row)
    },
    getVerifiedSsoDomain(domain) {
      sweep(store)
      return copy([...store.ssoDomains.values()].find((d) => d.domain === domain && d.verifiedAt !== null) ?? null)
    },
    // Synchronous from count to write: of concurrent joins for the last seat exactly one is added.
    addOrganizationMember(organizationId, userId, role, limit) {
      const user = store.users.get(userId)
      if (!store.organizations.has(organizationId) || !user) return null
      const key = store.memberKey(organizationId, userId)
      const existing = store.organizationMembers.get(key)
      if (existing) return copy(existing)
      if (limit?.membershipLimit !== undefined) {
        const members = [...store.organizationMembers.values()].filter((m) => m.organizationId === organizationId).length
        const own = user.email?.toLowerCase()
        const pending = [...store.organizationInvitations.values()].filter(
          (i) => i.organizationId === organizationId && i.status === "pending" && i.expires.getTime() > limit.now.getTime() && i.email.toLowerCase() !== own,
        ).length
        if (members + pending + 1 > limit.membershipLimit) return "limit-reached"
      }
      const member: AdapterOrganizationMember = { organizationId, userId, role, joinedAt: new Date() }
      store.organizationMembers.set(key, member)
      return copy(member)
    },
    // Synchronous read and write: of concurrent claims exactly one stores the token.
    claimVerificationToken({ identifier, token, expires }) {
      const key = store.tokenKey(identifier, token)
      const held = store.verificationTokens.get(key)
      if (held && held.expires.getTime() > Date.now()) return false
      store.verificationTokens.set(key, { identifier, token, expires: new Date(expires) })
      return true
    },
  }
}
