/**
 * `withRedisCache(MemoryAdapter)` passes the adapter conformance suite on a real `redis-server`:
 * every method behaves as the adapter's own, read back through the cache and through the store.
 */
import { afterAll, inject, test } from "vitest"
import { MemoryAdapter, createMemoryStore, dumpStore, runBasicTests, type MemoryStore, type TestDb } from "@authlib/adapter-test"
import { withRedisCache } from "../src/index.js"
import { startRedisServer, type RedisServer } from "@authlib/e2e-kit/redis-server"
import { closeClient, connectClient, type Client } from "./helpers/app.js"

const bin = inject("redisServer")

function memoryDb(store: MemoryStore, connect: () => Promise<void>): TestDb {
  const read = <T>(value: T | undefined): T | null => (value === undefined ? null : structuredClone(value))
  return {
    connect,
    user: (id) => read(store.users.get(id)),
    session: (token) => read(store.sessions.get(token)),
    account: ({ provider, providerAccountId }) => read(store.accounts.get(store.accountKey(provider, providerAccountId))),
    verificationToken: ({ identifier, token }) => read(store.verificationTokens.get(store.tokenKey(identifier, token))),
    authenticator: (id) => read(store.authenticators.get(id)),
    dump: () => dumpStore(store),
  }
}

let server: RedisServer | undefined
let client: Client | undefined
// The suite takes the adapter synchronously: the cache talks to the client once it is connected.
const lazy = { sendCommand: (args: string[]) => client!.sendCommand(args), get isReady() { return client?.isReady ?? false } }
const store = createMemoryStore()
runBasicTests({
  adapter: withRedisCache(MemoryAdapter(store), { client: lazy }),
  db: memoryDb(store, async () => {
    server = await startRedisServer(bin)
    client = await connectClient(server.url)
  }),
  testWebAuthnMethods: true,
})
afterAll(async () => {
  if (client) await closeClient(client)
  await server?.stop()
})
