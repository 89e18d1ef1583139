/**
 * On a node-postgres `Pool`, the adapter's statements are named prepared statements: parsed and
 * planned once per connection (issue 27: this halves the server's CPU for a session write). A
 * connection that lost them (a pooler in transaction mode, `DEALLOCATE ALL`) is answered all the
 * same, and a wrapper with the same two methods gets plain statements (text it can read).
 */
import { createHash } from "node:crypto"
import pg from "pg"
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest"
import { XataAdapter, migrate } from "../src/index.js"
import { pgSchema, type PgSchema } from "@authlib/e2e-kit/pg-schema"

const url = inject("databaseUrl")

describe.skipIf(url === null)("prepared statements on a node-postgres pool", () => {
  let schema: PgSchema
  let pool: pg.Pool

  beforeAll(async () => {
    schema = pgSchema(url!, "prepared")
    await schema.create()
    await migrate(schema.pool)
    // One connection, so what it has prepared can be read back through it.
    pool = new pg.Pool({ connectionString: schema.url, max: 1 })
  })
  afterAll(async () => {
    await pool.end()
    await schema.drop()
  })

  const preparedNames = async () =>
    ((await pool.query(`SELECT name FROM pg_prepared_statements WHERE name LIKE 'authlib\\_%' ORDER BY name`)).rows as { name: string }[]).map((r) => r.name)

  async function userWithSession(adapter: ReturnType<typeof XataAdapter>) {
    const user = await adapter.createUser({ id: crypto.randomUUID(), email: `${crypto.randomUUID()}@example.com`, emailVerified: null })
    const sessionToken = createHash("sha256").update(crypto.randomUUID()).digest("base64url")
    await adapter.createSession({ sessionToken, userId: user.id, expires: new Date(Date.now() + 60_000) })
    return { user, sessionToken }
  }

  test("a statement is prepared once per connection and reused", async () => {
    const adapter = XataAdapter(pool)
    const { user, sessionToken } = await userWithSession(adapter)
    await adapter.getSessionAndUser(sessionToken)
    const once = await preparedNames()
    expect(once.length).toBeGreaterThanOrEqual(3) // createUser, createSession, getSessionAndUser
    expect((await adapter.getSessionAndUser(sessionToken))?.user).toEqual(user)
    expect(await preparedNames()).toEqual(once)
  })

  test("a connection that lost its prepared statements is answered, and nothing is written twice", async () => {
    const adapter = XataAdapter(pool)
    const { user, sessionToken } = await userWithSession(adapter)
    await pool.query("DEALLOCATE ALL")
    expect((await adapter.getSessionAndUser(sessionToken))?.user).toEqual(user)
    const second = createHash("sha256").update(crypto.randomUUID()).digest("base64url")
    await pool.query("DEALLOCATE ALL")
    await adapter.createSession({ sessionToken: second, userId: user.id, expires: new Date(Date.now() + 60_000) })
    const rows = await schema.query(`SELECT count(*)::int AS n FROM authlib_users_sessions l JOIN authlib_sessions s ON s.xata_id = l.session WHERE s."sessionToken" = $1`, [second])
    expect(rows).toEqual([{ n: 1 }])
  })

  test("a pool of one connection answers many statements at once and gets its connection back after each, failures included", async () => {
    const adapter = XataAdapter(pool)
    const { user, sessionToken } = await userWithSession(adapter)
    const reads = await Promise.all(Array.from({ length: 40 }, () => adapter.getSessionAndUser(sessionToken)))
    expect(reads.every((read) => read?.user.id === user.id)).toBe(true)
    // A statement the server refuses (a second user with the same address) rejects, and the connection is released.
    await expect(adapter.createUser({ id: crypto.randomUUID(), email: user.email, emailVerified: null })).rejects.toThrow()
    expect((await adapter.getSessionAndUser(sessionToken))?.user).toEqual(user)
    expect([pool.totalCount, pool.idleCount, pool.waitingCount]).toEqual([1, 1, 0])
  })

  test("a node-postgres Client (not a pool) gets the same prepared statements", async () => {
    const client = new pg.Client({ connectionString: schema.url })
    await client.connect()
    try {
      const adapter = XataAdapter(client)
      const { user, sessionToken } = await userWithSession(adapter)
      expect((await adapter.getSessionAndUser(sessionToken))?.user).toEqual(user)
      const names = (await client.query(`SELECT name FROM pg_prepared_statements WHERE name LIKE 'authlib\\_%'`)).rows as { name: string }[]
      expect(names.length).toBeGreaterThanOrEqual(3)
    } finally {
      await client.end()
    }
  })

  test("a wrapper with query and connect gets plain statements", async () => {
    const texts: unknown[] = []
    const wrapper = { query: (text: string, values?: unknown[]) => (texts.push(text), pool.query(text, values)), connect: () => pool.connect() }
    await pool.query("DEALLOCATE ALL")
    const adapter = XataAdapter(wrapper)
    const { sessionToken } = await userWithSession(adapter)
    expect(await adapter.getSessionAndUser(sessionToken)).not.toBeNull()
    expect(texts.every((t) => typeof t === "string")).toBe(true)
    expect(await preparedNames()).toEqual([])
  })
})
