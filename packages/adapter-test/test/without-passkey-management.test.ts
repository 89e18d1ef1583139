/**
 * The passkey-management methods are optional: an Auth.js-shaped adapter (no `deleteAuthenticator`,
 * `updateAuthenticator` or `listAccountsByUserId`, authenticators without `name`, `createdAt`,
 * `lastUsedAt`; nor `retireVerificationTokens`) passes the suite, WebAuthn included, with those tests
 * registered as skipped.
 */
import type { Adapter, AdapterAuthenticator } from "@authlib/core"
import { MemoryAdapter, createMemoryStore, dumpStore, runBasicTests } from "../src/index.js"
import type { MemoryStore, TestDb } from "../src/index.js"

/** The eight Auth.js fields only. */
function authJsShaped<T extends AdapterAuthenticator | null>(a: T): T {
  if (a === null) return a
  const { name: _name, createdAt: _createdAt, lastUsedAt: _lastUsedAt, ...fields } = a
  return fields as T
}

function memoryDb(store: MemoryStore): TestDb {
  const read = <T>(value: T | undefined): T | null => (value === undefined ? null : structuredClone(value))
  return {
    user: (id) => read(store.users.get(id)),
    session: (token) => read(store.sessions.get(token)),
    account: ({ provider, providerAccountId }) => read(store.accounts.get(store.accountKey(provider, providerAccountId))),
    verificationToken: ({ identifier, token }) => read(store.verificationTokens.get(store.tokenKey(identifier, token))),
    authenticator: (id) => authJsShaped(read(store.authenticators.get(id))),
    dump: () => dumpStore(store),
  }
}

const store = createMemoryStore()
const { deleteAuthenticator: _d, updateAuthenticator: _u, listAccountsByUserId: _l, retireVerificationTokens: _r, ...memory } = MemoryAdapter(store)
const adapter: Adapter = {
  ...memory,
  createAuthenticator: async (a) => authJsShaped(await memory.createAuthenticator(a)),
  getAuthenticator: async (id) => authJsShaped(await memory.getAuthenticator(id)),
  listAuthenticatorsByUserId: async (userId) => (await memory.listAuthenticatorsByUserId(userId)).map(authJsShaped),
  updateAuthenticatorCounter: async (id, counter) => authJsShaped(await memory.updateAuthenticatorCounter(id, counter)),
}
runBasicTests({ adapter, db: memoryDb(store), testWebAuthnMethods: true })
