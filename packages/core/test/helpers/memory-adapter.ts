/**
 * A small in-memory adapter for core's own tests, with a call log so tests can prove that a
 * request wrote nothing. (The published one lives in @authlib/adapter-test; core does not depend on it.)
 */
import type { Adapter, AdapterAccount, AdapterSession, AdapterUser, VerificationToken } from "../../src/kernel/types/adapters.js"

export const WRITE_METHODS = new Set([
  "createUser", "updateUser", "deleteUser", "linkAccount", "unlinkAccount", "createSession", "updateSession",
  "deleteSession", "createVerificationToken", "useVerificationToken", "createAuthenticator", "updateAuthenticatorCounter",
  "deleteAuthenticator", "updateAuthenticator", "retireVerificationTokens", "deleteSessionsByUserId",
  "incrementUserSessionEpoch",
])

export interface MemoryAdapter extends Adapter {
  users: Map<string, AdapterUser>
  accounts: AdapterAccount[]
  sessions: Map<string, AdapterSession>
  tokens: VerificationToken[]
  /** Session epochs by user id (absent: 0). */
  epochs: Map<string, number>
  calls: Array<{ method: string; args: unknown[] }>
  writes(): string[]
}

const key = (a: { provider: string; providerAccountId: string }) => `${a.provider}:${a.providerAccountId}`

export function memoryAdapter(): MemoryAdapter {
  const users = new Map<string, AdapterUser>()
  const accounts: AdapterAccount[] = []
  const sessions = new Map<string, AdapterSession>()
  const tokens: VerificationToken[] = []
  const epochs = new Map<string, number>()
  const calls: MemoryAdapter["calls"] = []
  const methods: Adapter = {
    createUser: (user) => (users.set(user.id, { ...user }), { ...user }),
    getUser: (id) => users.get(id) ?? null,
    getUserByEmail: (email) => (typeof email === "string" ? [...users.values()].find((u) => u.email === email) ?? null : null),
    getUserByAccount: (a) => {
      const found = accounts.find((x) => key(x) === key(a))
      return found ? users.get(found.userId) ?? null : null
    },
    updateUser: (patch) => {
      const user = { ...users.get(patch.id)!, ...patch } as AdapterUser
      users.set(user.id, user)
      return user
    },
    linkAccount: (account) => void accounts.push({ ...account }),
    createSession: (s) => (sessions.set(s.sessionToken, { ...s }), { ...s }),
    getSessionAndUser: (token) => {
      const session = sessions.get(token)
      const user = session && users.get(session.userId)
      return session && user ? { session: { ...session }, user: { ...user } } : null
    },
    updateSession: (patch) => {
      const s = sessions.get(patch.sessionToken)
      if (!s) return null
      const next = { ...s, ...patch } as AdapterSession
      sessions.set(s.sessionToken, next)
      return next
    },
    deleteSession: (token) => {
      const s = sessions.get(token)
      sessions.delete(token)
      return s ?? null
    },
    listSessionsByUserId: (userId) => [...sessions.values()].filter((s) => s.userId === userId).map((s) => ({ ...s })),
    deleteSessionsByUserId: (userId, keep) => {
      let deleted = 0
      for (const [token, s] of sessions) if (s.userId === userId && token !== keep) (sessions.delete(token), deleted++)
      return deleted
    },
    getUserSessionEpoch: (userId) => (users.has(userId) ? epochs.get(userId) ?? 0 : null),
    incrementUserSessionEpoch: (userId) => {
      if (!users.has(userId)) return null
      epochs.set(userId, (epochs.get(userId) ?? 0) + 1)
      return epochs.get(userId)!
    },
    createVerificationToken: (t) => (tokens.push(t), t),
    getVerificationToken: ({ identifier, token }) => tokens.find((t) => t.identifier === identifier && t.token === token) ?? null,
    useVerificationToken: ({ identifier, token }) => {
      const i = tokens.findIndex((t) => t.identifier === identifier && t.token === token)
      return i < 0 ? null : tokens.splice(i, 1)[0]!
    },
    retireVerificationTokens: (identifier, keep) => {
      // Newest first: by expiry, then the later stored (links made within one millisecond).
      const mine = tokens.filter((t) => t.identifier === identifier).reverse().sort((a, b) => b.expires.getTime() - a.expires.getTime())
      const retired = new Set(mine.slice(keep))
      for (let i = tokens.length - 1; i >= 0; i--) if (retired.has(tokens[i]!)) tokens.splice(i, 1)
      return retired.size
    },
  }
  const logged: Record<string, unknown> = {}
  for (const [name, fn] of Object.entries(methods)) {
    logged[name] = async (...args: unknown[]) => {
      calls.push({ method: name, args })
      return (fn as (...a: unknown[]) => unknown)(...args)
    }
  }
  return {
    ...(logged as Adapter),
    users, accounts, sessions, tokens, epochs, calls,
    writes: () => calls.map((c) => c.method).filter((m) => WRITE_METHODS.has(m)),
  }
}
