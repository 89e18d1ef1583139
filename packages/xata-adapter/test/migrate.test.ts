/**
 * Migrations: idempotent, versioned (a later release adds a column without touching data), finished
 * by a re-run after an interruption; `schema.sql` is what `migrate` applies; the CLI drives it all;
 * migration 2 (the passkey management fields) upgrades a version-1 database on PGlite and on the
 * PostgreSQL server of the test run (one schema per case there), and migration 3 (the rate-limit
 * table) a version-2 one.
 */
import { execFileSync } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { PGlite } from "@electric-sql/pglite"
import { afterAll, describe, expect, inject, test } from "vitest"
import { PostgresRateLimitStore, XataAdapter, migrate, schemaSql, MIGRATIONS, type AdapterClient } from "../src/index.js"
import { applyMigrations } from "../src/migrate.js"
import { toExecutor } from "../src/executors/index.js"
import { runCli } from "../src/cli-run.js"
import { pgSchema, type PgSchema } from "@authlib/e2e-kit/pg-schema"

const url = inject("databaseUrl")
/** Every version, and the latest: derived, so adding a migration changes no expectation below. */
const VERSIONS = MIGRATIONS.map((m) => m.version)
const LATEST = Math.max(...VERSIONS)
const after = (version: number) => VERSIONS.filter((v) => v > version)
const appliedLine = `applied migrations ${VERSIONS.join(", ")}; schema version ${LATEST}`
const packageDir = fileURLToPath(new URL("..", import.meta.url))

test("schema.sql is the generated schema (pnpm generate:schema after changing src/schema.ts)", () => {
  expect(readFileSync(`${packageDir}/schema.sql`, "utf8")).toBe(schemaSql())
})

test("authlib-xata schema prints the schema and bad usage exits 2", async () => {
  const out: string[] = []
  const err: string[] = []
  const io = { out: (l: string) => out.push(l), err: (l: string) => err.push(l), env: {} }
  expect(await runCli(["schema"], io)).toBe(0)
  expect(out.join("\n")).toBe(schemaSql())
  expect(await runCli(["migrate"], io)).toBe(2)
  expect(err.at(-1)).toMatch(/needs --database-url/)
  expect(await runCli(["drop-everything"], io)).toBe(2)
  expect(await runCli(["migrate", "--database-url", "mysql://x"], io)).toBe(1)
  expect(err.at(-1)).toMatch(/unsupported --database-url scheme: mysql/)
})

test("authlib-xata migrate --database-url file:<dir> creates a PGlite database in that folder, once", async () => {
  const dir = mkdtempSync(join(tmpdir(), "authlib-pglite-"))
  try {
    const lines: string[] = []
    const io = { out: (l: string) => lines.push(l), err: (l: string) => lines.push(l), env: {} }
    expect(await runCli(["migrate", "--database-url", `file:${dir}`], io)).toBe(0)
    expect(await runCli(["migrate", "--database-url", `file:${dir}`], io)).toBe(0)
    expect(lines).toStrictEqual([appliedLine, `schema is up to date (version ${LATEST})`])
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test("authlib-xata migrate --database-url file:<dir> creates missing parent folders (./.data/auth)", async () => {
  const root = mkdtempSync(join(tmpdir(), "authlib-pglite-"))
  try {
    const io = { out: () => {}, err: () => {}, env: {} }
    expect(await runCli(["migrate", "--database-url", `file:${join(root, ".data", "auth")}`], io)).toBe(0)
  } finally {
    rmSync(root, { recursive: true, force: true })
  }
})

type Query = (statement: string, params?: unknown[]) => Promise<Record<string, unknown>[]>

/**
 * A database at version 1 holding a passkey, upgraded by `migrate`: migrations 2 and 3 are applied,
 * the passkey keeps every field, gets `createdAt` from its record's `xata_createdat` and reads
 * `name` and `lastUsedAt` as null; then the management methods work on it.
 */
async function upgradeFromVersion1(client: AdapterClient, query: Query): Promise<void> {
  expect(await applyMigrations(toExecutor(client), MIGRATIONS.filter((m) => m.version === 1))).toStrictEqual({ applied: [1], version: 1 })
  await query(`INSERT INTO authlib_users (xata_id, email) VALUES ('u1', 'a@example.com')`)
  await query(
    `INSERT INTO authlib_authenticators ("credentialID", "user", "providerAccountId", counter, "credentialBackedUp", "credentialPublicKey", "credentialDeviceType", transports)
     VALUES ('c1', 'u1', 'c1', 5, true, 'k', 'multiDevice', 'internal')`,
  )
  const [row] = await query(`SELECT xata_createdat FROM authlib_authenticators WHERE "credentialID" = 'c1'`)
  await expect(XataAdapter(client).getAuthenticator("c1")).rejects.toMatchObject({ code: "SCHEMA_MISSING", message: /run migrate\(\)/ })
  expect(await migrate(client)).toStrictEqual({ applied: after(1), version: LATEST })
  expect(await migrate(client)).toStrictEqual({ applied: [], version: LATEST })
  const adapter = XataAdapter(client)
  const before = { credentialID: "c1", userId: "u1", providerAccountId: "c1", counter: 5, credentialBackedUp: true, credentialPublicKey: "k", credentialDeviceType: "multiDevice", transports: "internal" }
  expect(await adapter.getAuthenticator("c1")).toStrictEqual({ ...before, name: null, createdAt: new Date(row!.xata_createdat as string), lastUsedAt: null })
  const used = await adapter.updateAuthenticatorCounter("c1", 6)
  expect(used.lastUsedAt).toBeInstanceOf(Date)
  expect((await adapter.updateAuthenticator("c1", { name: "Laptop" }))?.name).toBe("Laptop")
  expect(await adapter.deleteAuthenticator("c1")).toStrictEqual({ ...before, counter: 6, name: "Laptop", createdAt: new Date(row!.xata_createdat as string), lastUsedAt: used.lastUsedAt })
  expect(await adapter.listAuthenticatorsByUserId("u1")).toStrictEqual([])
}

test("PGlite: migration 2 upgrades a version-1 database; its passkeys keep their data", async () => {
  const pglite = new PGlite()
  try {
    await upgradeFromVersion1(pglite, async (sql, params) => (await pglite.query<Record<string, unknown>>(sql, params)).rows)
  } finally {
    await pglite.close()
  }
})

if (url === null) test.skip("PostgreSQL server: no DATABASE_URL and no PostgreSQL binaries (see the warning above)", () => {})
else migrationTests(url)

function migrationTests(url: string): void {
  const schemas: PgSchema[] = []
  const fresh = async () => {
    const schema = pgSchema(url, "migrate")
    schemas.push(schema)
    await schema.create()
    return schema
  }
  afterAll(() => Promise.all(schemas.map((s) => s.drop())))

  describe("migrate", () => {
    test("applies versions 1 to 4 once, then reports the schema as current", async () => {
      const { pool } = await fresh()
      expect(await migrate(pool)).toStrictEqual({ applied: VERSIONS, version: LATEST })
      expect(await migrate(pool)).toStrictEqual({ applied: [], version: LATEST })
    })

    test("migration 3 upgrades a version-2 database: the rate-limit store works after it, the adapter before and after", async () => {
      const { pool } = await fresh()
      expect(await applyMigrations(toExecutor(pool), MIGRATIONS.filter((m) => m.version <= 2))).toStrictEqual({ applied: [1, 2], version: 2 })
      const user = await XataAdapter(pool).createUser({ id: "u1", email: "a@example.com", emailVerified: null })
      const store = PostgresRateLimitStore(pool)
      await expect(store.hit("signin:email:a@example.com", 60_000)).rejects.toMatchObject({ code: "SCHEMA_MISSING", message: /run migrate\(\)/ })
      expect(await migrate(pool)).toStrictEqual({ applied: after(2), version: LATEST })
      expect(await store.hit("signin:email:a@example.com", 60_000)).toMatchObject({ count: 1 })
      expect(await XataAdapter(pool).getUser("u1")).toStrictEqual(user)
    })

    test("migration 4 upgrades a version-3 database: sessions keep their data and get createdAt from their record, users start at epoch 0", async () => {
      const { pool, query } = await fresh()
      expect(await applyMigrations(toExecutor(pool), MIGRATIONS.filter((m) => m.version <= 3))).toStrictEqual({ applied: [1, 2, 3], version: 3 })
      const before = XataAdapter(pool)
      await query(`INSERT INTO authlib_users (xata_id, email) VALUES ('u1', 'a@example.com')`)
      await query(`INSERT INTO authlib_sessions ("sessionToken", expires, "user") VALUES ('tok', now() + interval '1 day', 'u1')`)
      await expect(before.getSessionAndUser("tok")).rejects.toMatchObject({ code: "SCHEMA_MISSING" })
      expect(await migrate(pool)).toStrictEqual({ applied: after(3), version: LATEST })
      const adapter = XataAdapter(pool)
      const found = await adapter.getSessionAndUser("tok")
      const [row] = await query(`SELECT xata_createdat FROM authlib_sessions WHERE "sessionToken" = 'tok'`)
      expect(found?.session).toMatchObject({ sessionToken: "tok", userId: "u1", createdAt: new Date(row!.xata_createdat as string) })
      expect(await adapter.getUserSessionEpoch("u1")).toBe(0)
      expect(await adapter.incrementUserSessionEpoch("u1")).toBe(1)
    })

    test("migration 6 upgrades a version-4 database: users keep their data; two-factor records work, and go with their user", async () => {
      const { pool, query } = await fresh()
      expect(await applyMigrations(toExecutor(pool), MIGRATIONS.filter((m) => m.version <= 4))).toStrictEqual({ applied: [1, 2, 3, 4], version: 4 })
      const user = await XataAdapter(pool).createUser({ id: "u1", email: "a@example.com", emailVerified: null })
      await expect(XataAdapter(pool).getTwoFactor("u1")).rejects.toMatchObject({ code: "SCHEMA_MISSING" })
      expect(await migrate(pool)).toStrictEqual({ applied: after(4), version: LATEST })
      const adapter = XataAdapter(pool)
      expect(await adapter.getUser("u1")).toStrictEqual(user)
      expect(await adapter.setTwoFactorPendingSecret("u1", "sealed")).toMatchObject({ enabled: false })
      expect(await adapter.enableTwoFactor("u1", { secret: "sealed", step: 7, backupCodeHashes: ["h"] })).toMatchObject({ enabled: true, lastUsedStep: 7, backupCodesLeft: 1 })
      // Deleted outside the adapter too: the reference cascades.
      await query(`DELETE FROM authlib_users WHERE xata_id = 'u1'`)
      expect(await query(`SELECT count(*)::integer AS n FROM authlib_two_factors`)).toStrictEqual([{ n: 0 }])
    })

    test("migration 8 upgrades a version-7 database: two-factor records keep their data and start at 0 failed attempts, then count", async () => {
      const { pool, query } = await fresh()
      expect(await applyMigrations(toExecutor(pool), MIGRATIONS.filter((m) => m.version <= 7))).toStrictEqual({ applied: VERSIONS.filter((v) => v <= 7), version: 7 })
      const before = XataAdapter(pool)
      await before.createUser({ id: "u1", email: "a@example.com", emailVerified: null })
      // A record as the adapter of migration 7 wrote it.
      await query(`INSERT INTO authlib_two_factors ("user", secret, enabled, "lastUsedStep", "backupCodes") VALUES ('u1', 'sealed', true, 7, '{h}')`)
      await expect(before.countTwoFactorAttempt("u1", 100)).rejects.toMatchObject({ code: "SCHEMA_MISSING" })
      expect(await migrate(pool)).toStrictEqual({ applied: after(7), version: LATEST })
      const adapter = XataAdapter(pool)
      expect(await adapter.getTwoFactor("u1")).toStrictEqual({ userId: "u1", secret: "sealed", enabled: true, lastUsedStep: 7, backupCodesLeft: 1, failedAttempts: 0 })
      expect(await adapter.countTwoFactorAttempt("u1", 100)).toMatchObject({ failedAttempts: 1 })
      expect(await adapter.recordTwoFactorStep("u1", 8)).toBe(true)
      expect(await adapter.getTwoFactor("u1")).toMatchObject({ failedAttempts: 0, lastUsedStep: 8 })
    })

    test("versions apply by number, not in sequence: a database that skipped the step below the latest gets it later, once, data intact", async () => {
      const { pool } = await fresh()
      // A step nothing later builds on (migration 10's tables reference migration 9's, 11 changes 10's).
      const skipped = VERSIONS.at(-4)!
      const db = toExecutor(pool)
      expect(await applyMigrations(db, MIGRATIONS.filter((m) => m.version !== skipped))).toStrictEqual({ applied: VERSIONS.filter((v) => v !== skipped), version: LATEST })
      const user = await XataAdapter(pool).createUser({ id: "u1", email: "a@example.com", emailVerified: null })
      expect(await migrate(pool)).toStrictEqual({ applied: [skipped], version: LATEST })
      expect(await migrate(pool)).toStrictEqual({ applied: [], version: LATEST })
      expect(await XataAdapter(pool).getUser("u1")).toStrictEqual(user)
    })

    test("migration 2 upgrades a version-1 database; its passkeys keep their data", async () => {
      const { pool, query } = await fresh()
      await upgradeFromVersion1(pool, query)
    })

    test("a run interrupted before recording its version is finished by running again, data intact", async () => {
      const { pool, query } = await fresh()
      await migrate(pool)
      const user = await XataAdapter(pool).createUser({ id: "u1", email: "a@example.com", emailVerified: null })
      await query("DELETE FROM authlib_migrations")
      expect(await migrate(pool)).toStrictEqual({ applied: VERSIONS, version: LATEST })
      expect(await XataAdapter(pool).getUser("u1")).toStrictEqual(user)
    })

    test("a later release adds a column by appending a migration; existing rows keep their data", async () => {
      const { pool, query } = await fresh()
      await migrate(pool)
      await XataAdapter(pool).createUser({ id: "u1", email: "a@example.com", emailVerified: null })
      const next = { version: LATEST + 1, name: "users.locale", statements: [`ALTER TABLE authlib_users ADD COLUMN IF NOT EXISTS locale text`] }
      const db = toExecutor(pool)
      expect(await applyMigrations(db, [...MIGRATIONS, next])).toStrictEqual({ applied: [LATEST + 1], version: LATEST + 1 })
      expect(await applyMigrations(db, [...MIGRATIONS, next])).toStrictEqual({ applied: [], version: LATEST + 1 })
      expect(await migrate(pool)).toStrictEqual({ applied: [], version: LATEST + 1 })
      expect(await query(`SELECT email, locale FROM authlib_users`)).toStrictEqual([{ email: "a@example.com", locale: null }])
    })

    test("schema.sql applied by hand gives the same schema, which migrate then leaves alone", async () => {
      const { pool } = await fresh()
      await pool.query(readFileSync(`${packageDir}/schema.sql`, "utf8"))
      expect(await migrate(pool)).toStrictEqual({ applied: [], version: LATEST })
      const adapter = XataAdapter(pool)
      const user = await adapter.createUser({ id: "u1", email: "a@example.com", emailVerified: null })
      expect(await adapter.getUserByEmail("a@example.com")).toStrictEqual(user)
    })

    test("an adapter on a database without the schema fails with SCHEMA_MISSING", async () => {
      const { pool } = await fresh()
      await expect(XataAdapter(pool).getUser("u1")).rejects.toMatchObject({ code: "SCHEMA_MISSING", message: /run migrate\(\)/ })
    })
  })

  describe("authlib-xata migrate", () => {
    test("migrates a PostgreSQL database given by --database-url, then finds it current", async () => {
      const schema = await fresh()
      const out: string[] = []
      const io = { out: (l: string) => out.push(l), err: (l: string) => out.push(l), env: {} }
      expect(await runCli(["migrate", "--database-url", schema.url], io)).toBe(0)
      expect(await runCli(["migrate"], { ...io, env: { DATABASE_URL: schema.url } })).toBe(0)
      expect(out).toStrictEqual([appliedLine, `schema is up to date (version ${LATEST})`])
      expect(await schema.query("SELECT version FROM authlib_migrations ORDER BY version")).toStrictEqual(VERSIONS.map((version) => ({ version })))
    })

    test.skipIf(!existsSync(`${packageDir}/dist/cli.js`))("the built bin runs with its shebang", async () => {
      const schema = await fresh()
      const output = execFileSync(`${packageDir}/dist/cli.js`, ["migrate", "--database-url", schema.url], {
        encoding: "utf8",
        timeout: 20_000,
      })
      expect(output.trim()).toBe(appliedLine)
    })
  })
}
