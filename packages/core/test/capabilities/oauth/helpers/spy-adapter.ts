/**
 * A small in-memory adapter that records every write, so a refused sign-in can be shown to have
 * written nothing.
 */
import type { Adapter, AdapterAccount, AdapterSession, AdapterUser } from "../../../../src/index.js"

export interface SpyAdapter extends Adapter {
  users: Map<string, AdapterUser>
  accounts: AdapterAccount[]
  sessions: Map<string, AdapterSession>
  /** Names of the write methods called, in order. */
  writes: string[]
}

export function spyAdapter(): SpyAdapter {
  const users = new Map<string, AdapterUser>()
  const accounts: AdapterAccount[] = []
  const sessions = new Map<string, AdapterSession>()
  const writes: string[] = []
  return {
    users,
    accounts,
    sessions,
    writes,
    async createUser(user) {
      writes.push("createUser")
      const stored = { ...user, id: user.id ?? crypto.randomUUID() } as AdapterUser
      users.set(stored.id, stored)
      return stored
    },
    async getUser(id) {
      return users.get(id) ?? null
    },
    async getUserByEmail(email) {
      return [...users.values()].find((u) => u.email === email) ?? null
    },
    async getUserByAccount({ provider, providerAccountId }) {
      const account = accounts.find((a) => a.provider === provider && a.providerAccountId === providerAccountId)
      return account ? (users.get(account.userId) ?? null) : null
    },
    async updateUser(patch) {
      writes.push("updateUser")
      const user = { ...users.get(patch.id!)!, ...patch } as AdapterUser
      users.set(user.id, user)
      return user
    },
    async linkAccount(account) {
      writes.push("linkAccount")
      accounts.push(account)
      return account
    },
    async createSession(session) {
      writes.push("createSession")
      sessions.set(session.sessionToken, session)
      return session
    },
    async getSessionAndUser(sessionToken) {
      const session = sessions.get(sessionToken)
      const user = session ? users.get(session.userId) : undefined
      return session && user ? { session, user } : null
    },
    async updateSession(patch) {
      writes.push("updateSession")
      const session = { ...sessions.get(patch.sessionToken)!, ...patch } as AdapterSession
      sessions.set(session.sessionToken, session)
      return session
    },
    async deleteSession(sessionToken) {
      writes.push("deleteSession")
      sessions.delete(sessionToken)
    },
  }
}
