/**
 * An in-memory adapter that passes the whole conformance suite. Useful in an application's own tests
 * (database sessions, e-mail sign-in, passkeys) without a database. Records are copied in and out,
 * so a caller mutating a returned object never changes the store.
 */
import { passkeySignInMethods } from "./memory-passkey-sign-in.js"
import { accountShortcutMethods } from "./memory-account-shortcuts.js"
import type {
  Adapter,
  AdapterAccount,
  AdapterAuthenticator,
  AdapterOrganization,
  AdapterOrganizationInvitation,
  AdapterSsoConnection,
  AdapterSsoDomain,
  AdapterOrganizationMember,
  AdapterSession,
  AdapterUser,
  VerificationToken,
} from "@authlib/core"
import { twoFactorMethods, type MemoryTwoFactor } from "./memory-two-factor.js"
import { deleteUserMemberships, organizationMethods } from "./memory-organizations.js"
import { ssoMethods } from "./memory-sso.js"

export type { MemoryTwoFactor } from "./memory-two-factor.js"

/** The maps behind a `MemoryAdapter`; pass one in to read the store directly in tests. */
export interface MemoryStore {
  users: Map<string, AdapterUser>
  /** Keyed by `accountKey(provider, providerAccountId)`. */
  accounts: Map<string, AdapterAccount>
  sessions: Map<string, AdapterSession>
  /** Keyed by `tokenKey(identifier, token)`. */
  verificationTokens: Map<string, VerificationToken>
  authenticators: Map<string, AdapterAuthenticator>
  /** Session epochs by user id (`incrementUserSessionEpoch`); a user without an entry is at 0. */
  sessionEpochs: Map<string, number>
  /** Two-factor records by user id (backup codes as the hashes core gave). */
  twoFactor: Map<string, MemoryTwoFactor>
  /** Organizations by id. */
  organizations: Map<string, AdapterOrganization>
  /** Memberships, keyed by `memberKey(organizationId, userId)`, in the order they were made. */
  organizationMembers: Map<string, AdapterOrganizationMember>
  /** Invitations by id (the token as the hash core gave), in the order they were made. */
  organizationInvitations: Map<string, AdapterOrganizationInvitation>
  /** SSO connections by id (secrets as sealed by core), in the order they were made. */
  ssoConnections: Map<string, AdapterSsoConnection>
  /** SSO domains by id, in the order they were added. */
  ssoDomains: Map<string, AdapterSsoDomain>
  accountKey(provider: string, providerAccountId: string): string
  tokenKey(identifier: string, token: string): string
  memberKey(organizationId: string, userId: string): string
}

/** An empty store. */
export function createMemoryStore(): MemoryStore {
  return {
    users: new Map(),
    accounts: new Map(),
    sessions: new Map(),
    verificationTokens: new Map(),
    authenticators: new Map(),
    sessionEpochs: new Map(),
    twoFactor: new Map(),
    organizations: new Map(),
    organizationMembers: new Map(),
    organizationInvitations: new Map(),
    ssoConnections: new Map(),
    ssoDomains: new Map(),
    accountKey: (provider, providerAccountId) => JSON.stringify([provider, providerAccountId]),
    tokenKey: (identifier, token) => JSON.stringify([identifier, token]),
    memberKey: (organizationId, userId) => JSON.stringify([organizationId, userId]),
  }
}

/**
 * What `MemoryAdapterError` reports: `DUPLICATE_EMAIL` (`createUser`/`updateUser`),
 * `DUPLICATE_ACCOUNT` (`linkAccount`), `DUPLICATE_KEY` (a user id, session token, credential ID,
 * organization id, invitation id or invitation token hash already stored), `UNKNOWN_USER`,
 * `UNKNOWN_CREDENTIAL` (`updateAuthenticatorCounter`). The organizations port throws core's
 * `OrganizationError` where its contract says so (`deleteUser` of a last owner).
 */
export type MemoryAdapterErrorCode =
  | "DUPLICATE_EMAIL"
  | "DUPLICATE_ACCOUNT"
  | "DUPLICATE_KEY"
  | "UNKNOWN_USER"
  | "UNKNOWN_CREDENTIAL"

/** Error of the in-memory adapter; `code` names the violated rule. Nothing is written when it is thrown. */
export class MemoryAdapterError extends Error {
  readonly type = "MemoryAdapterError"
  constructor(
    message: string,
    readonly code: MemoryAdapterErrorCode,
  ) {
    super(message)
    this.name = "MemoryAdapterError"
  }
}

const copy = <T>(value: T): T => structuredClone(value)
const orNull = <T>(value: T | undefined): T | null => (value === undefined ? null : copy(value))

/** A stored user: every optional field present, `email` included (`null` for a user without one). */
function toUser(user: Partial<AdapterUser> & { id: string }): AdapterUser {
  const { id, email = null, name = null, image = null, emailVerified = null } = user
  return { id, name, email, emailVerified: emailVerified === null ? null : new Date(emailVerified), image }
}

function withoutUndefined<T extends object>(record: T): T {
  return Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined)) as T
}

function userMethods(store: MemoryStore): Adapter {
  // Unique only when present, as a unique SQL column: any number of users may have no address.
  const emailTaken = (email: string | null | undefined, exceptId?: string) =>
    typeof email === "string" && [...store.users.values()].some((u) => u.email === email && u.id !== exceptId)
  return {
    createUser(user) {
      if (emailTaken(user.email)) throw new MemoryAdapterError("email is already in use", "DUPLICATE_EMAIL")
      const stored = toUser({ ...user, id: user.id || crypto.randomUUID() })
      if (store.users.has(stored.id)) throw new MemoryAdapterError("a user with this id exists", "DUPLICATE_KEY")
      store.users.set(stored.id, stored)
      return copy(stored)
    },
    getUser: (id) => orNull(store.users.get(id)),
    // Only a string can name an address: `null` (or anything else) never finds a user without one.
    getUserByEmail: (email) =>
      typeof email === "string" ? orNull([...store.users.values()].find((u) => u.email === email)) : null,
    getUserByAccount({ provider, providerAccountId }) {
      const account = store.accounts.get(store.accountKey(provider, providerAccountId))
      return account ? orNull(store.users.get(account.userId)) : null
    },
    updateUser(patch) {
      const current = store.users.get(patch.id)
      if (!current) throw new MemoryAdapterError(`no user with id ${patch.id}`, "UNKNOWN_USER")
      if (emailTaken(patch.email, patch.id)) {
        throw new MemoryAdapterError("email is already in use", "DUPLICATE_EMAIL")
      }
      const updated = toUser({ ...current, ...withoutUndefined(patch) })
      store.users.set(updated.id, updated)
      return copy(updated)
    },
    deleteUser(userId) {
      const user = store.users.get(userId)
      if (!user) return null
      // First, since it may refuse (the last owner of an organization with other members): then nothing is deleted.
      deleteUserMemberships(store, userId)
      store.users.delete(userId)
      store.sessionEpochs.delete(userId)
      store.twoFactor.delete(userId)
      for (const [key, a] of store.accounts) if (a.userId === userId) store.accounts.delete(key)
      for (const [key, s] of store.sessions) if (s.userId === userId) store.sessions.delete(key)
      for (const [key, a] of store.authenticators) if (a.userId === userId) store.authenticators.delete(key)
      return copy(user)
    },
    getUserSessionEpoch: (userId) => (store.users.has(userId) ? (store.sessionEpochs.get(userId) ?? 0) : null),
    incrementUserSessionEpoch(userId) {
      if (!store.users.has(userId)) return null
      const next = (store.sessionEpochs.get(userId) ?? 0) + 1
      store.sessionEpochs.set(userId, next)
      return next
    },
  }
}

/** The account fields `updateAccount` may change (the keys, `type` and `userId` never change). */
const TOKEN_FIELDS = new Set(["access_token", "refresh_token", "expires_at", "id_token", "scope", "token_type", "session_state"])

function accountMethods(store: MemoryStore): Adapter {
  return {
    linkAccount(account) {
      const key = store.accountKey(account.provider, account.providerAccountId)
      if (!store.users.has(account.userId)) throw new MemoryAdapterError("no such user", "UNKNOWN_USER")
      if (store.accounts.has(key)) throw new MemoryAdapterError("account is already linked", "DUPLICATE_ACCOUNT")
      store.accounts.set(key, copy(withoutUndefined(account)))
      return copy(account)
    },
    unlinkAccount({ provider, providerAccountId }) {
      const key = store.accountKey(provider, providerAccountId)
      const account = store.accounts.get(key)
      store.accounts.delete(key)
      return account ? copy(account) : undefined
    },
    getAccount: (providerAccountId, provider) => orNull(store.accounts.get(store.accountKey(provider, providerAccountId))),
    updateAccount(patch, expected) {
      const stored = store.accounts.get(store.accountKey(patch.provider, patch.providerAccountId))
      if (!stored) return null
      // Synchronous read-compare-write: one call at a time in this process is the atomicity here.
      if (expected && (stored.refresh_token ?? null) !== expected.refresh_token) return null
      for (const [key, value] of Object.entries(patch)) {
        if (!TOKEN_FIELDS.has(key) || value === undefined) continue
        if (value === null) delete (stored as Record<string, unknown>)[key]
        else (stored as Record<string, unknown>)[key] = value
      }
      return copy(stored)
    },
    listAccountsByUserId: (userId) => [...store.accounts.values()].filter((a) => a.userId === userId).map(copy),
  }
}

function sessionMethods(store: MemoryStore): Adapter {
  return {
    createSession(session) {
      if (!store.users.has(session.userId)) throw new MemoryAdapterError("no such user", "UNKNOWN_USER")
      if (store.sessions.has(session.sessionToken)) {
        throw new MemoryAdapterError("a session with this token exists", "DUPLICATE_KEY")
      }
      const stored: AdapterSession = { sessionToken: session.sessionToken, userId: session.userId, expires: new Date(session.expires) }
      // The optional metadata, kept only when set (as a database adapter reads back a NULL column).
      if (session.createdAt) stored.createdAt = new Date(session.createdAt)
      for (const field of ["clientDescription", "clientNetwork", "error"] as const) if (typeof session[field] === "string") stored[field] = session[field]
      if (typeof session.authTime === "number") stored.authTime = session.authTime
      if (Array.isArray(session.amr)) stored.amr = [...session.amr]
      store.sessions.set(stored.sessionToken, stored)
      return copy(stored)
    },
    getSessionAndUser(sessionToken) {
      const session = store.sessions.get(sessionToken)
      const user = session && store.users.get(session.userId)
      return session && user ? { session: copy(session), user: copy(user) } : null
    },
    updateSession(patch) {
      const current = store.sessions.get(patch.sessionToken)
      if (!current) return null
      const updated: AdapterSession = { ...current, ...withoutUndefined(patch) }
      // `null` clears a metadata field: it then reads as absent.
      for (const field of ["createdAt", "clientDescription", "clientNetwork", "error", "authTime", "amr"] as const) if (updated[field] === null) delete updated[field]
      store.sessions.set(updated.sessionToken, updated)
      return copy(updated)
    },
    // Synchronous check-and-set: no other caller runs in between, so one caller extends a due session.
    extendSession({ sessionToken, expires }, dueBefore) {
      const current = store.sessions.get(sessionToken)
      if (!current || current.expires.getTime() >= new Date(dueBefore).getTime()) return null
      const updated = { ...current, expires: new Date(expires) }
      store.sessions.set(sessionToken, updated)
      return copy(updated)
    },
    deleteSession(sessionToken) {
      const session = store.sessions.get(sessionToken)
      store.sessions.delete(sessionToken)
      return orNull(session)
    },
    listSessionsByUserId: (userId) => [...store.sessions.values()].filter((s) => s.userId === userId).map(copy),
    deleteSessionsByUserId(userId, keepSessionToken) {
      let deleted = 0
      for (const [token, session] of store.sessions) {
        if (session.userId !== userId || token === keepSessionToken) continue
        store.sessions.delete(token)
        deleted++
      }
      return deleted
    },
  }
}

function tokenMethods(store: MemoryStore): Adapter {
  return {
    createVerificationToken({ identifier, token, expires }) {
      const stored = { identifier, token, expires: new Date(expires) }
      store.verificationTokens.set(store.tokenKey(identifier, token), stored)
      return copy(stored)
    },
    // Synchronous get-and-delete: no other caller can run in between, so exactly one caller wins.
    getVerificationToken({ identifier, token }) {
      return orNull(store.verificationTokens.get(store.tokenKey(identifier, token)))
    },
    useVerificationToken({ identifier, token }) {
      const key = store.tokenKey(identifier, token)
      const stored = store.verificationTokens.get(key)
      store.verificationTokens.delete(key)
      return orNull(stored)
    },
    // Synchronous: no other call runs in between, so the `keep` newest are never deleted.
    retireVerificationTokens(identifier, keep) {
      if (!Number.isInteger(keep) || keep < 1) throw new RangeError(`keep must be an integer >= 1, got ${keep}`)
      const newestFirst = [...store.verificationTokens.values()]
        .filter((t) => t.identifier === identifier)
        // Ties broken by token, so which of two equally old tokens goes does not depend on insertion order.
        .sort((a, b) => b.expires.getTime() - a.expires.getTime() || (a.token < b.token ? -1 : 1))
      const retired = newestFirst.slice(keep)
      for (const t of retired) store.verificationTokens.delete(store.tokenKey(t.identifier, t.token))
      return retired.length
    },
  }
}

/** A passkey as stored: `transports`, `name`, `lastUsedAt` `null` when not given, `createdAt` stamped when absent. */
function storedAuthenticator(a: AdapterAuthenticator): AdapterAuthenticator {
  const date = (d: Date | null | undefined) => (d === null || d === undefined ? null : new Date(d))
  return { ...a, transports: a.transports ?? null, name: a.name ?? null, createdAt: date(a.createdAt) ?? new Date(), lastUsedAt: date(a.lastUsedAt) }
}

function authenticatorMethods(store: MemoryStore): Adapter {
  return {
    createAuthenticator(authenticator) {
      if (!store.users.has(authenticator.userId)) throw new MemoryAdapterError("no such user", "UNKNOWN_USER")
      // A credential ID is chosen by the client: accepting a second one would hand over another user's passkey.
      if (store.authenticators.has(authenticator.credentialID)) {
        throw new MemoryAdapterError("an authenticator with this credential ID exists", "DUPLICATE_KEY")
      }
      const stored = storedAuthenticator(authenticator)
      store.authenticators.set(authenticator.credentialID, stored)
      return copy(stored)
    },
    getAuthenticator: (credentialID) => orNull(store.authenticators.get(credentialID)),
    listAuthenticatorsByUserId: (userId) =>
      [...store.authenticators.values()].filter((a) => a.userId === userId).map(copy),
    updateAuthenticatorCounter(credentialID, counter) {
      const current = store.authenticators.get(credentialID)
      if (!current) throw new MemoryAdapterError(`no authenticator ${credentialID}`, "UNKNOWN_CREDENTIAL")
      // The sign-in's one write also records when the passkey was last used.
      const updated = { ...current, counter, lastUsedAt: new Date() }
      store.authenticators.set(credentialID, updated)
      return copy(updated)
    },
    // Synchronous get-and-delete: of concurrent calls exactly one receives the passkey.
    deleteAuthenticator(credentialID) {
      const current = store.authenticators.get(credentialID)
      store.authenticators.delete(credentialID)
      return orNull(current)
    },
    updateAuthenticator(credentialID, patch) {
      const current = store.authenticators.get(credentialID)
      if (!current) return null
      const updated = patch.name === undefined ? current : { ...current, name: patch.name }
      store.authenticators.set(credentialID, updated)
      return copy(updated)
    },
  }
}

/** An adapter keeping everything in `store` (a fresh one by default). Every method of the contract is present. */
export function MemoryAdapter(store: MemoryStore = createMemoryStore()): Required<Adapter> {
  const sessions = sessionMethods(store)
  const tokens = tokenMethods(store)
  const authenticators = authenticatorMethods(store)
  return {
    ...userMethods(store),
    ...accountMethods(store),
    ...sessions,
    ...tokens,
    ...accountShortcutMethods(store, { ...sessions, ...tokens } as Required<Adapter>),
    ...authenticators,
    ...passkeySignInMethods(store.users, { ...sessions, ...tokens, ...authenticators } as Required<Adapter>),
    ...twoFactorMethods(store),
    ...organizationMethods(store, (message, code) => new MemoryAdapterError(message, code)),
    ...ssoMethods(store, (message) => new MemoryAdapterError(message, "DUPLICATE_KEY")),
  } as Required<Adapter>
}

/** Every record of `store` as one JSON string (what a test's `db.dump` answers for a `MemoryAdapter`). */
export function dumpStore(store: MemoryStore): string {
  return JSON.stringify(Object.entries(store).flatMap(([name, value]) => (value instanceof Map ? [[name, [...value]]] : [])))
}
