/**
 * The real `@xata.io/client` (through this package's generated-style `XataClient`) against our
 * emulation of Xata's SQL endpoint, backed by PGlite. The hosted service is retired; these tests prove
 * the adapter speaks the client's `sql` contract, not that a hosted database behaves the same.
 */
import { PGlite } from "@electric-sql/pglite"
import { describe, expect, test } from "vitest"
import { runBasicTests } from "@authlib/adapter-test"
import { MIGRATIONS, XataAdapter, XataAdapterError, migrate } from "../src/index.js"
import { XataClient } from "../src/xata-client.js"
import { directDb } from "./helpers/direct-db.js"
import { startXataEmulation } from "./helpers/xata-emulation.js"
import { runCli } from "../src/cli-run.js"

const pglite = new PGlite()
const emulation = await startXataEmulation(pglite)
const client = new XataClient({ databaseURL: emulation.databaseURL, apiKey: emulation.apiKey, branch: "main" })
const adapter = XataAdapter(client)

const PASSKEY = {
  providerAccountId: "passkey-account",
  counter: 0,
  credentialBackedUp: true,
  credentialPublicKey: "public-key",
  credentialDeviceType: "multiDevice",
  transports: "internal",
}

const newUser = async () => {
  const email = `${crypto.randomUUID()}@example.com`
  return { ...(await adapter.createUser({ id: crypto.randomUUID(), email, emailVerified: null })), email }
}

/** Calls each of the 19 Auth.js adapter methods and the 3 passkey-management ones once; returns how many calls reached the database. */
async function everyMethodOnce(): Promise<number> {
  const user = await newUser()
  await adapter.getUser(user.id)
  await adapter.getUserByEmail(user.email)
  await adapter.updateUser({ id: user.id, name: "Ada", emailVerified: new Date() })
  const account = { userId: user.id, type: "oauth", provider: "github", providerAccountId: crypto.randomUUID(), expires_at: 42 } as const
  await adapter.linkAccount(account)
  await adapter.getUserByAccount(account)
  await adapter.getAccount(account.providerAccountId, account.provider)
  const session = await adapter.createSession({ sessionToken: crypto.randomUUID(), userId: user.id, expires: new Date(Date.now() + 60_000) })
  await adapter.getSessionAndUser(session.sessionToken)
  await adapter.updateSession({ sessionToken: session.sessionToken, expires: new Date(Date.now() + 120_000) })
  await adapter.deleteSession(session.sessionToken)
  const token = { identifier: user.email, token: crypto.randomUUID(), expires: new Date(Date.now() + 60_000) }
  await adapter.createVerificationToken(token)
  await adapter.useVerificationToken(token)
  const passkey = { ...PASSKEY, credentialID: crypto.randomUUID(), userId: user.id }
  await adapter.createAuthenticator(passkey)
  await adapter.getAuthenticator(passkey.credentialID)
  await adapter.listAuthenticatorsByUserId(user.id)
  await adapter.updateAuthenticatorCounter(passkey.credentialID, 1)
  await adapter.updateAuthenticator(passkey.credentialID, { name: "Laptop" })
  await adapter.deleteAuthenticator(passkey.credentialID)
  await adapter.listAccountsByUserId(user.id)
  await adapter.unlinkAccount(account)
  await adapter.deleteUser(user.id)
  return 22
}

describe("against our emulation of Xata's SQL endpoint", () => {
  runBasicTests({
    adapter,
    db: directDb(async (sql, params) => (await pglite.query<Record<string, unknown>>(sql, params)).rows, {
      connect: async () => {
        await migrate(client)
      },
      disconnect: async () => {
        await emulation.close()
        await pglite.close()
      },
    }),
    testWebAuthnMethods: true,
  })

  describe("XataClient", () => {
    test("getConfig() resolves the branch and database URL it was given", async () => {
      expect(await client.getConfig()).toStrictEqual({ branch: "main", databaseURL: emulation.databaseURL })
    })

    // Self-contained: makes its own calls (every method, with number, boolean and date values) and
    // inspects only the requests they produced, whatever ran before.
    test("the adapter's statements reach /db/<database>:<branch>/sql with string or null params", async () => {
      const start = emulation.requests.length
      const calls = await everyMethodOnce()
      const requests = emulation.requests.slice(start)
      expect(requests.length).toBeGreaterThanOrEqual(calls)
      for (const { url, body } of requests) {
        expect(url).toBe("/db/authlib:main/sql")
        for (const param of body.params ?? []) expect(param === null || typeof param === "string").toBe(true)
      }
      expect(requests.some(({ body }) => (body.params ?? []).includes("true"))).toBe(true)
      expect(requests.some(({ body }) => (body.params ?? []).includes("42"))).toBe(true)
    })

    test("a taken credential ID through the SQL endpoint is a typed DUPLICATE_KEY error and the passkey stays", async () => {
      const [owner, intruder] = await Promise.all([newUser(), newUser()])
      const passkey = { ...PASSKEY, credentialID: crypto.randomUUID(), userId: owner.id }
      const stored = await adapter.createAuthenticator(passkey)
      await expect(adapter.createAuthenticator({ ...passkey, userId: intruder.id })).rejects.toMatchObject({
        type: "XataAdapterError",
        code: "DUPLICATE_KEY",
      })
      expect(stored.createdAt).toBeInstanceOf(Date)
      expect(await adapter.getAuthenticator(passkey.credentialID)).toStrictEqual({ ...passkey, name: null, createdAt: stored.createdAt, lastUsedAt: null })
    })

    test("a duplicate e-mail through the SQL endpoint is a typed DUPLICATE_EMAIL error", async () => {
      const email = `dup-${crypto.randomUUID()}@example.com`
      await adapter.createUser({ id: crypto.randomUUID(), email, emailVerified: null })
      await expect(adapter.createUser({ id: crypto.randomUUID(), email, emailVerified: null })).rejects.toMatchObject({
        type: "XataAdapterError",
        code: "DUPLICATE_EMAIL",
      })
      const { rows } = await pglite.query(`SELECT count(*)::int AS n FROM authlib_users WHERE email = $1`, [email])
      expect(rows).toStrictEqual([{ n: 1 }])
    })

    test("a wrong API key is rejected by the endpoint and surfaces as QUERY_FAILED", async () => {
      const intruder = XataAdapter(new XataClient({ databaseURL: emulation.databaseURL, apiKey: "xau_wrong", branch: "main" }))
      const error = await Promise.resolve(intruder.getUser("anyone")).catch((err: unknown) => err)
      expect(error).toBeInstanceOf(XataAdapterError)
      expect(error).toMatchObject({ code: "QUERY_FAILED", message: "invalid API key" })
    })

    test("authlib-xata migrate reaches the endpoint with the key and branch from the environment", async () => {
      const lines: string[] = []
      const io = { out: (l: string) => lines.push(l), err: (l: string) => lines.push(l) }
      const env = { XATA_API_KEY: emulation.apiKey, XATA_BRANCH: "main" }
      expect(await runCli(["migrate", "--database-url", emulation.databaseURL], { ...io, env })).toBe(0)
      expect(await runCli(["migrate", "--database-url", emulation.databaseURL, "--api-key", "xau_wrong"], { ...io, env })).toBe(1)
      expect(lines).toStrictEqual([`schema is up to date (version ${Math.max(...MIGRATIONS.map((m) => m.version))})`, "migrate failed: invalid API key"])
    })

    test("an unknown branch is an error, not an empty result", async () => {
      const other = XataAdapter(new XataClient({ databaseURL: emulation.databaseURL, apiKey: emulation.apiKey, branch: "dev" }))
      await expect(other.getUser("anyone")).rejects.toMatchObject({ code: "QUERY_FAILED" })
    })
  })
})
