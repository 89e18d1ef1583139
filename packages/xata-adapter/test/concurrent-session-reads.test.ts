/**
 * GET /auth/session read 50 times at once, through four `Auth` configs (four "instances", each with
 * its own adapter and connections) sharing one database, on a session due for its sliding
 * extension: `extendSession` applies exactly one UPDATE and one instance re-sends the cookie.
 * Runs on PGlite and on the PostgreSQL server of the test run.
 */
import { createHash } from "node:crypto"
import { PGlite } from "@electric-sql/pglite"
import pg from "pg"
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest"
import { Auth, type AuthConfig } from "@authlib/core"
import { XataAdapter, migrate, type PGliteLike, type PgClientLike } from "../src/index.js"
import { pgSchema } from "@authlib/e2e-kit/pg-schema"

const ORIGIN = "http://localhost:3000"
const SECRET = "test-secret-0123456789-abcdefghijklmnopqrstuvwxyz"
const COOKIE = "authlib.session-token"
const DAY = 86_400_000
const MAX_AGE = 30 * DAY
const READS = 50
const INSTANCES = 4

type Query = (statement: string, params?: unknown[]) => Promise<{ rows: unknown[] }>

/** Counts session UPDATE statements that changed a row, across every client wrapped with it. */
function updateCounter() {
  let applied = 0
  const counted = (query: Query): Query => async (statement, params) => {
    const result = await query(statement, params)
    if (/\bUPDATE authlib_sessions\b/.test(statement) && result.rows.length > 0) applied++
    return result
  }
  return {
    applied: () => applied,
    pglite: (db: PGlite): PGliteLike => ({ query: counted((s, p) => db.query(s, p)), exec: (s) => db.exec(s), waitReady: db.waitReady }),
    pg: (pool: pg.Pool): PgClientLike => ({ query: counted((s, p) => pool.query(s, p)), connect: () => pool.connect() }),
  }
}

const instanceConfig = (client: PGliteLike | PgClientLike): AuthConfig => ({
  adapter: XataAdapter(client),
  providers: [],
  secret: SECRET,
  trustHost: true,
  session: { strategy: "database" },
})

interface Outcome {
  oldExpires: number
  stored: { expires: number; version: number }
  answers: Array<{ expires: number; cookies: number }>
}

/** One user with a session two days past `updateAge`; then `READS` parallel reads spread over `configs`. */
async function readOneDueSession(configs: AuthConfig[], select: Query): Promise<Outcome> {
  const adapter = configs[0]!.adapter!
  const user = await adapter.createUser!({ id: crypto.randomUUID(), email: `${crypto.randomUUID()}@example.com`, emailVerified: null })
  const token = crypto.randomUUID() + crypto.randomUUID()
  const sessionToken = createHash("sha256").update(token).digest("base64url")
  const oldExpires = Date.now() + MAX_AGE - 2 * DAY
  await adapter.createSession!({ sessionToken, userId: user.id, expires: new Date(oldExpires) })
  const read = async () => {
    const { rows } = await select(`SELECT expires, xata_version FROM authlib_sessions WHERE "sessionToken" = $1`, [sessionToken])
    const row = rows[0] as { expires: Date; xata_version: number }
    return { expires: new Date(row.expires).getTime(), version: Number(row.xata_version) }
  }
  const before = await read()
  const responses = await Promise.all(
    Array.from({ length: READS }, (_, i) =>
      Auth(new Request(`${ORIGIN}/auth/session`, { headers: { cookie: `${COOKIE}=${token}` } }), configs[i % INSTANCES]!),
    ),
  )
  const answers = await Promise.all(
    responses.map(async (res) => {
      expect(res.status).toBe(200)
      const body = (await res.json()) as { expires: string }
      return { expires: Date.parse(body.expires), cookies: res.headers.getSetCookie().filter((c) => c.startsWith(`${COOKIE}=`)).length }
    }),
  )
  const after = await read()
  return { oldExpires, stored: { expires: after.expires, version: after.version - before.version }, answers }
}

function expectOneExtension(outcome: Outcome, applied: number): void {
  const { oldExpires, stored, answers } = outcome
  expect(applied).toBe(1)
  expect(stored.version).toBe(1) // the row was updated once (the xata_version trigger counts updates)
  expect(stored.expires).toBeGreaterThan(oldExpires)
  expect(answers.reduce((n, a) => n + a.cookies, 0)).toBe(1)
  expect(new Set(answers.map((a) => a.expires).filter((e) => e !== oldExpires))).toEqual(new Set([stored.expires]))
  expect(answers.find((a) => a.cookies === 1)?.expires).toBe(stored.expires)
}

describe("50 parallel GET /auth/session over four instances on PGlite", () => {
  const db = new PGlite()
  beforeAll(() => migrate(db))
  afterAll(() => db.close())

  test("one due session: exactly one UPDATE applied, one Set-Cookie, one new expiry", async () => {
    const counter = updateCounter()
    const configs = Array.from({ length: INSTANCES }, () => instanceConfig(counter.pglite(db)))
    const outcome = await readOneDueSession(configs, (s, p) => db.query(s, p))
    expectOneExtension(outcome, counter.applied())
  })
})

const url = inject("databaseUrl")

if (url === null) {
  test.skip("PostgreSQL server: no DATABASE_URL and no PostgreSQL binaries (see the warning above)", () => {})
} else {
  describe("50 parallel GET /auth/session over four instances on a PostgreSQL server", () => {
    const schema = pgSchema(url, "reads")
    // Four instances, each with its own pool: the reads really run on separate connections.
    const options = new URL(schema.url).searchParams.get("options")!
    const pools = [schema.pool, ...Array.from({ length: INSTANCES - 1 }, () => new pg.Pool({ connectionString: url, options, max: 5 }))]
    beforeAll(async () => {
      await schema.create()
      await migrate(schema.pool)
    })
    afterAll(async () => {
      await Promise.all(pools.slice(1).map((pool) => pool.end()))
      await schema.drop()
    })

    test("one due session: exactly one UPDATE applied, one Set-Cookie, one new expiry", async () => {
      const counter = updateCounter()
      const configs = pools.map((pool) => instanceConfig(counter.pg(pool)))
      const outcome = await readOneDueSession(configs, (s, p) => schema.pool.query(s, p))
      expectOneExtension(outcome, counter.applied())
    })
  })
}
