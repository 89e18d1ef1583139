/**
 * `extendSession` is optional: an adapter without it (every Auth.js adapter) passes the suite, its
 * extendSession tests registered as skipped with the reason. Were they run, they would fail here.
 */
import { MemoryAdapter, createMemoryStore, dumpStore, runBasicTests } from "../src/index.js"
import type { MemoryStore, TestDb } from "../src/index.js"

function memoryDb(store: MemoryStore): TestDb {
  const read = <T>(value: T | undefined): T | null => (value === undefined ? null : structuredClone(value))
  return {
    user: (id) => read(store.users.get(id)),
    session: (token) => read(store.sessions.get(token)),
    account: ({ provider, providerAccountId }) => read(store.accounts.get(store.accountKey(provider, providerAccountId))),
    verificationToken: ({ identifier, token }) => read(store.verificationTokens.get(store.tokenKey(identifier, token))),
    dump: () => dumpStore(store),
  }
}

const store = createMemoryStore()
const { extendSession: _, ...withoutExtendSession } = MemoryAdapter(store)
runBasicTests({ adapter: withoutExtendSession, db: memoryDb(store) })
