/**
 * MemoryAdapter's one-round-trip shortcuts: a session for an account's owner, an e-mail token used
 * together with the read of an account's owner, and that with the owner's session stored too.
 * Built on the adapter's own methods; synchronous, so each is atomic here as one SQL statement is
 * in a database.
 */
import type { Adapter, AdapterAccount, AdapterSession, AdapterUser, VerificationToken } from "@authlib/core"

/** What the shortcuts read of the memory store (its accounts and users). */
interface Owners {
  readonly accounts: ReadonlyMap<string, AdapterAccount>
  readonly users: ReadonlyMap<string, AdapterUser>
  accountKey(provider: string, providerAccountId: string): string
}

type Base = Required<Pick<Adapter, "createSession" | "useVerificationToken" | "createVerificationToken">>

export function accountShortcutMethods(store: Owners, base: Base): Pick<Required<Adapter>, "createSessionForAccount" | "useVerificationTokenForAccount" | "useVerificationTokenAndCreateSession"> {
  const ownerOf = (provider: string, providerAccountId: string): AdapterUser | null => {
    const account = store.accounts.get(store.accountKey(provider, providerAccountId))
    const user = account && store.users.get(account.userId)
    return user ? structuredClone(user) : null
  }
  return {
    createSessionForAccount({ provider, providerAccountId }, session) {
      const user = ownerOf(provider, providerAccountId)
      if (!user) return null
      // The memory adapter's own methods answer synchronously.
      return { session: base.createSession({ ...session, userId: user.id }) as AdapterSession, user }
    },
    useVerificationTokenForAccount(params, { provider, providerAccountId }) {
      const token = base.useVerificationToken(params) as VerificationToken | null
      return token ? { token, owner: ownerOf(provider, providerAccountId) } : null
    },
    useVerificationTokenAndCreateSession(params, { provider, providerAccountId }, session) {
      const token = base.useVerificationToken(params) as VerificationToken | null
      if (!token) return null
      const owner = ownerOf(provider, providerAccountId)
      const live = new Date(token.expires).getTime() > Date.now()
      if (!owner || !live || owner.email !== params.identifier || owner.emailVerified == null) return { token, owner, session: null }
      try {
        return { token, owner, session: base.createSession({ ...session, userId: owner.id }) as AdapterSession }
      } catch (err) {
        // A taken session token: nothing happened, as a failed statement rolls back (the link stays usable).
        base.createVerificationToken(token)
        throw err
      }
    },
  }
}
