/**
 * What the conformance suite cannot know about this adapter: bad input gives `null` or a typed error
 * and never a half-written record, the record metadata, and the exact table layout of spec 2.7.
 * Runs on the PostgreSQL server of the test run.
 */
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest"
import type { Adapter, AdapterAccount } from "@authlib/core"
import { XataAdapter, XataAdapterError, migrate } from "../src/index.js"
import { pgSchema, type PgSchema } from "@authlib/e2e-kit/pg-schema"

const url = inject("databaseUrl")

if (url === null) test.skip("PostgreSQL server: no DATABASE_URL and no PostgreSQL binaries (see the warning above)", () => {})
else behaviourTests(pgSchema(url, "behaviour"))

function behaviourTests(schema: PgSchema): void {
  describe("XataAdapter on PostgreSQL: bad input and layout", () => {
    const { pool, query } = schema
    const adapter = XataAdapter(pool)
    const count = async (table: string) => Number((await query(`SELECT count(*) AS n FROM ${table}`))[0]?.n)
    const newUser = (overrides = {}) => ({ id: crypto.randomUUID(), email: `${crypto.randomUUID()}@example.com`, emailVerified: null, ...overrides })
    const account = (userId: string): AdapterAccount => ({ userId, type: "oauth", provider: "github", providerAccountId: crypto.randomUUID() })

    beforeAll(async () => {
      await schema.create()
      await migrate(pool)
    })
    afterAll(() => schema.drop())

    test("lookups with keys Postgres cannot hold return null instead of throwing", async () => {
      expect(await adapter.getUser("a\u0000b")).toBeNull()
      expect(await adapter.getUserByEmail("\uD800@example.com")).toBeNull()
      expect(await adapter.getSessionAndUser("tok\u0000en")).toBeNull()
      expect(await adapter.getUserByAccount({ provider: "github", providerAccountId: "\uDFFF" })).toBeNull()
      expect(await adapter.useVerificationToken({ identifier: "x\u0000", token: "y" })).toBeNull()
      expect(await adapter.getAuthenticator("\u0000")).toBeNull()
      expect(await adapter.listAuthenticatorsByUserId("\u0000")).toStrictEqual([])
    })

    test("the two-factor count: a NULL (a row another tool wrote) reads as 0, and an attempt at the integer ceiling stays there instead of failing", async () => {
      const user = await adapter.createUser(newUser())
      await query(`INSERT INTO authlib_two_factors ("user", secret, enabled, "lastUsedStep", "backupCodes", "failedAttempts") VALUES ($1, 'sealed', true, 7, '{}', NULL)`, [user.id])
      expect(await adapter.getTwoFactor(user.id)).toMatchObject({ failedAttempts: 0 })
      expect(await adapter.countTwoFactorAttempt(user.id, 100)).toMatchObject({ failedAttempts: 1 })
      await query(`UPDATE authlib_two_factors SET "failedAttempts" = 2147483647 WHERE "user" = $1`, [user.id])
      expect(await adapter.countTwoFactorAttempt(user.id, Number.MAX_SAFE_INTEGER)).toMatchObject({ failedAttempts: 2147483647 })
      await expect(adapter.countTwoFactorAttempt(user.id, -1)).rejects.toMatchObject({ code: "INVALID_INPUT" })
      expect(await adapter.countTwoFactorAttempt("a\u0000b", 100)).toBeNull()
      expect(await adapter.resetTwoFactorFailures("a\u0000b")).toBe(false)
      expect(await adapter.resetTwoFactorFailures(user.id)).toBe(true)
      expect(await adapter.getTwoFactor(user.id)).toMatchObject({ failedAttempts: 0 })
    })

    test("createUser with a NUL byte or a lone surrogate is INVALID_INPUT and writes nothing", async () => {
      const before = await count("authlib_users")
      await expect(adapter.createUser(newUser({ name: "Ada\u0000" }))).rejects.toMatchObject({ code: "INVALID_INPUT" })
      await expect(adapter.createUser(newUser({ image: "\uD83D" }))).rejects.toMatchObject({ code: "INVALID_INPUT" })
      expect(await count("authlib_users")).toBe(before)
    })

    test("createUser with an id of 256 characters is INVALID_INPUT (Xata's id limit) and writes nothing", async () => {
      const before = await count("authlib_users")
      const error = await adapter.createUser(newUser({ id: "x".repeat(256) })).catch((err: unknown) => err)
      expect(error).toBeInstanceOf(XataAdapterError)
      expect(error).toMatchObject({ type: "XataAdapterError", code: "INVALID_INPUT" })
      expect(await count("authlib_users")).toBe(before)
    })

    test("createUser without an id gets a Xata-style rec_ id and record metadata", async () => {
      const user = await adapter.createUser({ email: `${crypto.randomUUID()}@example.com`, emailVerified: null } as never)
      expect(user.id).toMatch(/^rec_[0-9a-f]{32}$/)
      const [row] = await query(`SELECT xata_version, xata_createdat, xata_updatedat FROM authlib_users WHERE xata_id = $1`, [user.id])
      expect(row?.xata_version).toBe(0)
      expect(row?.xata_createdat).toBeInstanceOf(Date)
    })

    test("updateUser bumps xata_version and xata_updatedat", async () => {
      const user = await adapter.createUser(newUser())
      const read = async () => (await query(`SELECT xata_version, xata_updatedat FROM authlib_users WHERE xata_id = $1`, [user.id]))[0]
      const before = await read()
      await adapter.updateUser({ id: user.id, name: "Ada" })
      const after = await read()
      expect(after?.xata_version).toBe(1)
      expect((after?.xata_updatedat as Date).getTime()).toBeGreaterThanOrEqual((before?.xata_updatedat as Date).getTime())
    })

    test("a duplicate e-mail is DUPLICATE_EMAIL on create and on update, and changes nothing", async () => {
      const first = await adapter.createUser(newUser())
      const second = await adapter.createUser(newUser())
      await expect(adapter.createUser(newUser({ email: first.email }))).rejects.toMatchObject({ code: "DUPLICATE_EMAIL" })
      await expect(adapter.updateUser({ id: second.id, email: first.email, name: "X" })).rejects.toMatchObject({ code: "DUPLICATE_EMAIL" })
      expect(await adapter.getUser(second.id)).toStrictEqual(second)
    })

    test("updateUser of an unknown id is UNKNOWN_USER and creates nothing", async () => {
      const id = crypto.randomUUID()
      await expect(adapter.updateUser({ id, name: "Ghost" })).rejects.toMatchObject({ code: "UNKNOWN_USER" })
      expect(await adapter.getUser(id)).toBeNull()
    })

    test("linking an account twice is DUPLICATE_ACCOUNT and leaves one account and one link row", async () => {
      const user = await adapter.createUser(newUser())
      const linked = account(user.id)
      await adapter.linkAccount(linked)
      const [accounts, links] = [await count("authlib_accounts"), await count("authlib_users_accounts")]
      await expect(adapter.linkAccount({ ...linked, access_token: "other" })).rejects.toMatchObject({ code: "DUPLICATE_ACCOUNT" })
      expect([await count("authlib_accounts"), await count("authlib_users_accounts")]).toStrictEqual([accounts, links])
    })

    test("records linked to an unknown user are UNKNOWN_USER and write neither record nor link", async () => {
      const ghost = crypto.randomUUID()
      const tables = ["authlib_accounts", "authlib_users_accounts", "authlib_sessions", "authlib_users_sessions", "authlib_authenticators"]
      const before = await Promise.all(tables.map(count))
      await expect(adapter.linkAccount(account(ghost))).rejects.toMatchObject({ code: "UNKNOWN_USER" })
      await expect(adapter.createSession({ sessionToken: "t", userId: ghost, expires: new Date() })).rejects.toMatchObject({ code: "UNKNOWN_USER" })
      const passkey = { credentialID: "c", userId: ghost, providerAccountId: "p", counter: 0, credentialBackedUp: false, credentialPublicKey: "k", credentialDeviceType: "singleDevice" }
      await expect(adapter.createAuthenticator(passkey)).rejects.toMatchObject({ code: "UNKNOWN_USER" })
      expect(await Promise.all(tables.map(count))).toStrictEqual(before)
    })

    test("a session token already in use is DUPLICATE_KEY and the first session is untouched", async () => {
      const user = await adapter.createUser(newUser())
      const session = { sessionToken: crypto.randomUUID(), userId: user.id, expires: new Date(Date.now() + 60_000) }
      await adapter.createSession(session)
      const other = await adapter.createUser(newUser())
      await expect(adapter.createSession({ ...session, userId: other.id })).rejects.toMatchObject({ code: "DUPLICATE_KEY" })
      expect((await adapter.getSessionAndUser(session.sessionToken))?.user.id).toBe(user.id)
    })

    test("a verification token created twice is DUPLICATE_KEY and the first keeps its expiry", async () => {
      const token = { identifier: "a@example.com", token: crypto.randomUUID(), expires: new Date(Date.now() + 60_000) }
      await adapter.createVerificationToken(token)
      await expect(adapter.createVerificationToken({ ...token, expires: new Date() })).rejects.toMatchObject({ code: "DUPLICATE_KEY" })
      expect(await adapter.useVerificationToken(token)).toStrictEqual({ ...token, expires: new Date(token.expires.getTime()) })
    })

    test("a taken user id or credential ID is DUPLICATE_KEY and the first record is untouched", async () => {
      const owner = await adapter.createUser(newUser())
      const intruder = await adapter.createUser(newUser())
      await expect(adapter.createUser(newUser({ id: owner.id }))).rejects.toMatchObject({ code: "DUPLICATE_KEY" })
      expect(await adapter.getUser(owner.id)).toStrictEqual(owner)
      const passkey = { credentialID: crypto.randomUUID(), userId: owner.id, providerAccountId: "p", counter: 3, credentialBackedUp: false, credentialPublicKey: "k", credentialDeviceType: "singleDevice", transports: null }
      const stored = await adapter.createAuthenticator(passkey)
      const stolen = adapter.createAuthenticator({ ...passkey, userId: intruder.id, credentialPublicKey: "attacker", counter: 0 })
      await expect(stolen).rejects.toMatchObject({ type: "XataAdapterError", code: "DUPLICATE_KEY" })
      expect(await adapter.getAuthenticator(passkey.credentialID)).toStrictEqual({ ...passkey, name: null, createdAt: stored.createdAt, lastUsedAt: null })
      expect(await adapter.listAuthenticatorsByUserId(intruder.id)).toStrictEqual([])
    })

    test("a session or verification token row without an expiry reads as none; creating one without is INVALID_INPUT", async () => {
      const user = await adapter.createUser(newUser())
      const sessionToken = crypto.randomUUID()
      await query(`INSERT INTO authlib_sessions ("sessionToken", expires, "user") VALUES ($1, NULL, $2)`, [sessionToken, user.id])
      expect(await adapter.getSessionAndUser(sessionToken)).toBeNull()
      expect(await adapter.deleteSession(sessionToken)).toBeNull()
      const token = crypto.randomUUID()
      await query(`INSERT INTO "authlib_verificationTokens" (identifier, token, expires) VALUES ('a@example.com', $1, NULL)`, [token])
      expect(await adapter.useVerificationToken({ identifier: "a@example.com", token })).toBeNull()
      const noExpiry = { sessionToken: crypto.randomUUID(), userId: user.id, expires: undefined as never }
      await expect(adapter.createSession(noExpiry)).rejects.toMatchObject({ code: "INVALID_INPUT", cause: { field: "expires" } })
      const noTokenExpiry = { identifier: "a@example.com", token: crypto.randomUUID(), expires: null as never }
      await expect(adapter.createVerificationToken(noTokenExpiry)).rejects.toMatchObject({ code: "INVALID_INPUT" })
      expect(await query(`SELECT 1 FROM authlib_sessions WHERE "sessionToken" = $1`, [noExpiry.sessionToken])).toStrictEqual([])
    })

    // Make the second half of a two-table write fail inside the database: nothing of the first half may remain.
    async function withFailingInserts(table: string, run: () => Promise<unknown>): Promise<void> {
      await query(`ALTER TABLE ${table} ADD CONSTRAINT refuse_new_rows CHECK (false) NOT VALID`)
      try {
        await expect(run()).rejects.toBeInstanceOf(XataAdapterError)
      } finally {
        await query(`ALTER TABLE ${table} DROP CONSTRAINT refuse_new_rows`)
      }
    }

    test("linkAccount whose link row fails writes no account either", async () => {
      const user = await adapter.createUser(newUser())
      const linked = account(user.id)
      await withFailingInserts("authlib_users_accounts", () => adapter.linkAccount(linked))
      expect(await adapter.getAccount(linked.providerAccountId, linked.provider)).toBeNull()
    })

    test("createSession whose link row fails writes no session either", async () => {
      const user = await adapter.createUser(newUser())
      const session = { sessionToken: crypto.randomUUID(), userId: user.id, expires: new Date(Date.now() + 60_000) }
      await withFailingInserts("authlib_users_sessions", () => adapter.createSession(session))
      expect(await adapter.getSessionAndUser(session.sessionToken)).toBeNull()
      expect(await query(`SELECT 1 FROM authlib_sessions WHERE "sessionToken" = $1`, [session.sessionToken])).toStrictEqual([])
    })

    test("useVerificationTokenAndCreateSession whose link row fails writes no session and leaves the e-mail link unused", async () => {
      const user = await adapter.createUser({ ...newUser(), emailVerified: new Date() })
      await adapter.linkAccount({ userId: user.id, type: "email", provider: "email", providerAccountId: user.email! })
      const token = { identifier: user.email!, token: crypto.randomUUID(), expires: new Date(Date.now() + 60_000) }
      await adapter.createVerificationToken(token)
      const session = { sessionToken: crypto.randomUUID(), expires: new Date(Date.now() + 60_000) }
      await withFailingInserts("authlib_users_sessions", () => adapter.useVerificationTokenAndCreateSession(token, { provider: "email", providerAccountId: user.email! }, session))
      expect(await query(`SELECT 1 FROM authlib_sessions WHERE "sessionToken" = $1`, [session.sessionToken])).toStrictEqual([])
      expect(await adapter.getVerificationToken(token)).toStrictEqual(token)
    })

    test("deleteUser that fails half-way deletes nothing", async () => {
      const user = await adapter.createUser(newUser())
      const session = await adapter.createSession({ sessionToken: crypto.randomUUID(), userId: user.id, expires: new Date(Date.now() + 60_000) })
      await adapter.linkAccount(account(user.id))
      await query(`CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused'; END $$`)
      await query(`CREATE TRIGGER refuse_delete BEFORE DELETE ON authlib_authenticators FOR EACH ROW EXECUTE FUNCTION refuse()`)
      try {
        await adapter.createAuthenticator({ credentialID: crypto.randomUUID(), userId: user.id, providerAccountId: "p", counter: 0, credentialBackedUp: false, credentialPublicKey: "k", credentialDeviceType: "singleDevice" })
        await expect(adapter.deleteUser(user.id)).rejects.toMatchObject({ code: "QUERY_FAILED", message: "refused" })
      } finally {
        await query(`DROP TRIGGER refuse_delete ON authlib_authenticators`)
        await query(`DROP FUNCTION refuse()`)
      }
      expect(await adapter.getUser(user.id)).toStrictEqual(user)
      expect((await adapter.getSessionAndUser(session.sessionToken))?.session).toStrictEqual(session)
      expect(await query(`SELECT 1 FROM authlib_accounts WHERE "user" = $1`, [user.id])).toHaveLength(1)
    })

    test("parallel linkAccount of one provider account: one wins, the rest are DUPLICATE_ACCOUNT, one link row", async () => {
      const users = await Promise.all(Array.from({ length: 12 }, () => adapter.createUser(newUser())))
      const providerAccountId = crypto.randomUUID()
      const results = await Promise.allSettled(users.map((u) => adapter.linkAccount({ ...account(u.id), providerAccountId })))
      expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1)
      for (const r of results) if (r.status === "rejected") expect(r.reason).toMatchObject({ code: "DUPLICATE_ACCOUNT" })
      const rows = await query(
        `SELECT a.xata_id FROM authlib_accounts a JOIN authlib_users_accounts l ON l.account = a.xata_id WHERE a."providerAccountId" = $1`,
        [providerAccountId],
      )
      expect(rows).toHaveLength(1)
      expect(await query(`SELECT 1 FROM authlib_users_accounts l LEFT JOIN authlib_accounts a ON a.xata_id = l.account WHERE a.xata_id IS NULL`)).toStrictEqual([])
    })

    test("parallel createUser with one e-mail: one user is created, the rest are DUPLICATE_EMAIL", async () => {
      const email = `${crypto.randomUUID()}@example.com`
      const results = await Promise.allSettled(Array.from({ length: 12 }, () => adapter.createUser(newUser({ email }))))
      expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1)
      for (const r of results) if (r.status === "rejected") expect(r.reason).toMatchObject({ code: "DUPLICATE_EMAIL" })
      expect(await query(`SELECT 1 FROM authlib_users WHERE email = $1`, [email])).toHaveLength(1)
    })

    test("an invalid date or a non-integer counter is INVALID_INPUT before any query", async () => {
      const user = await adapter.createUser(newUser())
      await expect(adapter.createSession({ sessionToken: "x", userId: user.id, expires: new Date(Number.NaN) })).rejects.toMatchObject({ code: "INVALID_INPUT" })
      await expect(adapter.updateAuthenticatorCounter("c", 1.5)).rejects.toMatchObject({ code: "INVALID_INPUT" })
    })

    test("retireVerificationTokens with keep not an integer >= 1 is INVALID_INPUT and deletes nothing", async () => {
      const identifier = `${crypto.randomUUID()}@example.com`
      const expires = new Date(Date.now() + 60_000)
      await adapter.createVerificationToken({ identifier, token: "a", expires })
      await adapter.createVerificationToken({ identifier, token: "b", expires: new Date(expires.getTime() + 1000) })
      for (const keep of [0, -1, 1.5, Number.NaN]) {
        await expect(adapter.retireVerificationTokens(identifier, keep)).rejects.toMatchObject({ code: "INVALID_INPUT" })
      }
      expect(await count(`"authlib_verificationTokens" WHERE identifier = '${identifier}'`)).toBe(2)
      expect(await adapter.retireVerificationTokens("x\u0000", 1)).toBe(0)
      expect(await adapter.retireVerificationTokens(identifier, 1)).toBe(1)
      expect(await adapter.useVerificationToken({ identifier, token: "b" })).not.toBeNull()
    })

    test("updateAuthenticatorCounter of an unknown credential is UNKNOWN_CREDENTIAL", async () => {
      await expect(adapter.updateAuthenticatorCounter("nope", 1)).rejects.toMatchObject({ type: "XataAdapterError", code: "UNKNOWN_CREDENTIAL" })
    })

    test("an unsupported client is UNSUPPORTED_CLIENT", () => {
      expect(() => XataAdapter({} as never)).toThrow(expect.objectContaining({ code: "UNSUPPORTED_CLIENT" }))
    })

    test("each table has exactly the spec 2.7 fields (all nullable; passkeys with the management fields of migration 2, sessions and users with those of migration 4, the two-factor records of migration 6, sessions' authTime and amr of migration 7, the two-factor count of migration 8, the organizations of migration 9, the SSO connections and domains of migration 10) plus Xata's metadata", async () => {
      const rows = await query(
        `SELECT table_name, column_name, is_nullable FROM information_schema.columns
         WHERE table_schema = current_schema() AND table_name LIKE 'authlib\\_%' AND table_name NOT IN ('authlib_migrations', 'authlib_rate_limits')
         ORDER BY table_name, column_name`,
      )
      const meta = ["xata_createdat", "xata_id", "xata_updatedat", "xata_version"]
      const layout: Record<string, string[]> = {}
      for (const row of rows) {
        const column = String(row.column_name)
        if (!meta.includes(column)) expect(row.is_nullable, `${row.table_name}.${column}`).toBe("YES")
        ;(layout[String(row.table_name)] ??= []).push(column)
      }
      for (const columns of Object.values(layout)) columns.sort()
      const withMeta = (fields: string[]) => [...fields, ...meta].sort()
      expect(layout).toStrictEqual({
        authlib_accounts: withMeta(["access_token", "expires_at", "id_token", "provider", "providerAccountId", "refresh_token", "scope", "session_state", "token_type", "type", "user"]),
        authlib_authenticators: withMeta(["counter", "createdAt", "credentialBackedUp", "credentialDeviceType", "credentialID", "credentialPublicKey", "lastUsedAt", "name", "providerAccountId", "transports", "user"]),
        authlib_sessions: withMeta(["amr", "authTime", "clientDescription", "clientNetwork", "createdAt", "error", "expires", "sessionToken", "user"]),
        authlib_users: withMeta(["email", "emailVerified", "image", "name", "sessionEpoch"]),
        authlib_users_accounts: withMeta(["account", "user"]),
        authlib_users_sessions: withMeta(["session", "user"]),
        authlib_verificationTokens: withMeta(["expires", "identifier", "token"]),
        authlib_two_factors: withMeta(["backupCodes", "enabled", "failedAttempts", "lastUsedStep", "secret", "user"]),
        authlib_organizations: withMeta(["createdAt", "name", "slug"]),
        authlib_organization_members: withMeta(["joinedAt", "organization", "role", "user"]),
        authlib_organization_invitations: withMeta(["createdAt", "email", "expires", "inviter", "organization", "role", "status", "tokenHash"]),
        authlib_sso_connections: withMeta(["allowIdpInitiated", "clientId", "clientSecretSealed", "createdAt", "defaultRole", "idpCertificates", "idpEntityId", "idpSsoUrl", "issuer", "organization", "requireIdpMfa", "spCertificate", "spPrivateKeySealed", "type"]),
        authlib_sso_domains: withMeta(["connection", "domain", "organization", "verificationToken", "verifiedAt"]),
      })
    })

    test("authlib_rate_limits (migration 3) holds a hex SHA-256 key, a count and an end, all required, and nothing else", async () => {
      const columns = await query(
        `SELECT column_name, data_type, is_nullable FROM information_schema.columns
         WHERE table_schema = current_schema() AND table_name = 'authlib_rate_limits' ORDER BY column_name`,
      )
      expect(columns).toStrictEqual([
        { column_name: "count", data_type: "integer", is_nullable: "NO" },
        { column_name: "key", data_type: "text", is_nullable: "NO" },
        { column_name: "reset_at", data_type: "timestamp with time zone", is_nullable: "NO" },
      ])
      const insert = (key: string) => query(`INSERT INTO authlib_rate_limits (key, count, reset_at) VALUES ($1, 1, now())`, [key])
      await expect(insert("signin:email:ada@example.com")).rejects.toMatchObject({ code: "23514" })
      await expect(insert("A".repeat(64))).rejects.toMatchObject({ code: "23514" })
      await insert("a".repeat(64))
      await query(`DELETE FROM authlib_rate_limits WHERE key = $1`, ["a".repeat(64)])
    })
  })
}

// The adapter is an `Adapter` as core's configuration expects it (checked by tsc --noEmit).
export const typeCheck: (client: Parameters<typeof XataAdapter>[0]) => Adapter = XataAdapter
