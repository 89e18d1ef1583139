/**
 * NULL columns: users without an e-mail address are stored with a NULL e-mail and read back as
 * `email: null`; a NULL (or, from a JSON endpoint, missing) column never becomes the text "null" or
 * "undefined"; rows written by other tools without a field their adapter type requires read as no
 * record. Database cases run on the PostgreSQL server of the test run; mapper cases on a fake client.
 */
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest"
import type { AdapterAuthenticator } from "@authlib/core"
import { XataAdapter, migrate, type XataClientLike } from "../src/index.js"
import { pgSchema, type PgSchema } from "@authlib/e2e-kit/pg-schema"

const url = inject("databaseUrl")

/** A client whose SQL endpoint answers every statement with `records`, as Xata's JSON responses do. */
function answering(records: Record<string, unknown>[]): XataClientLike {
  return { sql: async () => ({ records }), getConfig: async () => ({ databaseURL: "https://db.example", branch: "main" }) }
}

describe("row mappers never turn a missing column into text", () => {
  test("a user record without email, name, image or emailVerified reads with null in each", async () => {
    const adapter = XataAdapter(answering([{ xata_id: "rec_1", email: null }]))
    expect(await adapter.getUser("rec_1")).toStrictEqual({ id: "rec_1", name: null, email: null, emailVerified: null, image: null })
  })

  test("an account record lacking a required field reads as no account", async () => {
    for (const record of [{ provider: "github", providerAccountId: "1", type: "oauth" }, { user: "rec_1", provider: "github", providerAccountId: "1", type: null }]) {
      expect(await XataAdapter(answering([record])).getAccount("1", "github")).toBeNull()
    }
  })

  test("an account record with null token fields leaves them out", async () => {
    const record = { user: "rec_1", type: "oauth", provider: "github", providerAccountId: "1", access_token: null, scope: undefined, expires_at: null }
    expect(await XataAdapter(answering([record])).getAccount("1", "github")).toStrictEqual({ userId: "rec_1", type: "oauth", provider: "github", providerAccountId: "1" })
  })

  test("an authenticator record lacking a required field reads as none; missing transports and management fields read as null", async () => {
    const full = { credentialID: "c", user: "rec_1", providerAccountId: "p", counter: "7", credentialBackedUp: true, credentialPublicKey: "k", credentialDeviceType: "singleDevice" }
    expect(await XataAdapter(answering([full])).getAuthenticator("c")).toStrictEqual({
      credentialID: "c", userId: "rec_1", providerAccountId: "p", counter: 7, credentialBackedUp: true, credentialPublicKey: "k", credentialDeviceType: "singleDevice", transports: null,
      name: null, createdAt: null, lastUsedAt: null,
    })
    for (const field of ["credentialID", "user", "providerAccountId", "counter", "credentialBackedUp", "credentialPublicKey", "credentialDeviceType"]) {
      const adapter = XataAdapter(answering([{ ...full, [field]: null }]))
      expect(await adapter.getAuthenticator("c"), field).toBeNull()
      expect(await adapter.listAuthenticatorsByUserId("rec_1"), field).toStrictEqual([])
    }
  })
})

if (url === null) test.skip("PostgreSQL server: no DATABASE_URL and no PostgreSQL binaries (see the warning above)", () => {})
else databaseTests(pgSchema(url, "nulls"))

function databaseTests(schema: PgSchema): void {
  describe("XataAdapter on PostgreSQL: NULL columns", () => {
    const { pool, query } = schema
    const adapter = XataAdapter(pool)
    const newUser = (overrides = {}) => ({ id: crypto.randomUUID(), email: `${crypto.randomUUID()}@example.com`, emailVerified: null, ...overrides })
    const emailIsNull = async (id: string) => (await query(`SELECT email IS NULL AS missing FROM authlib_users WHERE xata_id = $1`, [id]))[0]?.missing
    const count = async (table: string) => Number((await query(`SELECT count(*) AS n FROM ${table}`))[0]?.n)
    const passkey = (userId: string): AdapterAuthenticator => ({
      credentialID: crypto.randomUUID(), userId, providerAccountId: "p", counter: 0, credentialBackedUp: false, credentialPublicKey: "k", credentialDeviceType: "singleDevice",
    })

    beforeAll(async () => {
      await schema.create()
      await migrate(pool)
    })
    afterAll(() => schema.drop())

    test("the users table's email column is nullable and unique when present (any number of NULLs)", async () => {
      const [column] = await query(`SELECT is_nullable FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'authlib_users' AND column_name = 'email'`)
      expect(column?.is_nullable).toBe("YES")
      const [index] = await query(`SELECT indexdef FROM pg_indexes WHERE schemaname = current_schema() AND indexname = 'authlib_users_email_key'`)
      expect(index?.indexdef).toMatch(/^CREATE UNIQUE INDEX .* \(email\)$/)
      await query(`INSERT INTO authlib_users (xata_id) VALUES ($1), ($2)`, [crypto.randomUUID(), crypto.randomUUID()])
    })

    test("createUser with email null or absent stores NULL (not the text \"null\") and reads back email: null", async () => {
      const withNull = await adapter.createUser(newUser({ email: null }))
      const { email: _email, ...input } = newUser()
      const absent = await adapter.createUser(input as never)
      for (const user of [withNull, absent]) {
        expect(user.email).toBeNull()
        expect(await emailIsNull(user.id)).toBe(true)
        expect(await adapter.getUser(user.id)).toStrictEqual(user)
      }
      expect(await query(`SELECT 1 FROM authlib_users WHERE email IN ('null', 'undefined', '')`)).toStrictEqual([])
    })

    test("updateUser with email null stores NULL; without an email key leaves it as it is", async () => {
      const user = await adapter.createUser(newUser())
      expect(await adapter.updateUser({ id: user.id, email: null })).toStrictEqual({ ...user, email: null })
      expect(await emailIsNull(user.id)).toBe(true)
      expect(await adapter.updateUser({ id: user.id, name: "Ada" })).toStrictEqual({ ...user, email: null, name: "Ada" })
      expect(await emailIsNull(user.id)).toBe(true)
    })

    test("getUserByEmail never finds a user without an e-mail, whatever it is given", async () => {
      await adapter.createUser(newUser({ email: null }))
      for (const odd of ["", "null", "undefined", "NULL", null, undefined, 0, {}]) {
        expect(await adapter.getUserByEmail(odd as string), JSON.stringify(odd)).toBeNull()
      }
    })

    test("a user row without an e-mail written by other tools reads as email: null everywhere", async () => {
      const id = crypto.randomUUID()
      await query(`INSERT INTO authlib_users (xata_id, name) VALUES ($1, 'no mail')`, [id])
      const expected = { id, name: "no mail", email: null, emailVerified: null, image: null }
      const sessionToken = crypto.randomUUID()
      await query(`INSERT INTO authlib_sessions ("sessionToken", expires, "user") VALUES ($1, now() + interval '1 day', $2)`, [sessionToken, id])
      await adapter.linkAccount({ userId: id, type: "oauth", provider: "twitter", providerAccountId: id })
      expect(await adapter.getUser(id)).toStrictEqual(expected)
      expect(await adapter.getUserByAccount({ provider: "twitter", providerAccountId: id })).toStrictEqual(expected)
      expect((await adapter.getSessionAndUser(sessionToken))?.user).toStrictEqual(expected)
      expect(await adapter.deleteUser(id)).toStrictEqual(expected)
    })

    test("linkAccount without userId, type, provider or providerAccountId is INVALID_INPUT and writes nothing", async () => {
      const user = await adapter.createUser(newUser())
      const before = await count("authlib_accounts")
      for (const field of ["userId", "type", "provider", "providerAccountId"]) {
        const account = { userId: user.id, type: "oauth", provider: "github", providerAccountId: crypto.randomUUID(), [field]: undefined }
        await expect(adapter.linkAccount(account as never), field).rejects.toMatchObject({ code: "INVALID_INPUT", cause: { field } })
      }
      expect(await count("authlib_accounts")).toBe(before)
    })

    test("an account row with a NULL type reads as no account, not as type \"null\"", async () => {
      const user = await adapter.createUser(newUser())
      const providerAccountId = crypto.randomUUID()
      await query(`INSERT INTO authlib_accounts ("user", provider, "providerAccountId") VALUES ($1, 'github', $2)`, [user.id, providerAccountId])
      expect(await adapter.getAccount(providerAccountId, "github")).toBeNull()
      expect(await adapter.unlinkAccount({ provider: "github", providerAccountId })).toBeUndefined()
    })

    test("createAuthenticator without a required field is INVALID_INPUT and writes nothing", async () => {
      const user = await adapter.createUser(newUser())
      const before = await count("authlib_authenticators")
      for (const field of ["credentialID", "userId", "providerAccountId", "counter", "credentialPublicKey", "credentialDeviceType"] as const) {
        const incomplete = { ...passkey(user.id), [field]: undefined }
        await expect(adapter.createAuthenticator(incomplete as never), field).rejects.toMatchObject({ code: "INVALID_INPUT", cause: { field } })
      }
      expect(await count("authlib_authenticators")).toBe(before)
    })

    test("an authenticator row with a NULL key reads as none (not \"null\"); NULL transports read as null", async () => {
      const user = await adapter.createUser(newUser())
      const stored = await adapter.createAuthenticator(passkey(user.id))
      expect(stored.transports).toBeNull()
      expect(await adapter.getAuthenticator(stored.credentialID)).toStrictEqual({ ...stored, transports: null })
      const broken = crypto.randomUUID()
      await query(
        `INSERT INTO authlib_authenticators ("credentialID", "user", "providerAccountId", counter, "credentialBackedUp", "credentialDeviceType") VALUES ($1, $2, 'p', 0, false, 'singleDevice')`,
        [broken, user.id],
      )
      expect(await adapter.getAuthenticator(broken)).toBeNull()
      expect(await adapter.listAuthenticatorsByUserId(user.id)).toStrictEqual([stored])
    })
  })
}
