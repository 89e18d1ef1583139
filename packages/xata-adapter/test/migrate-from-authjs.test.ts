/**
 * Moving an Auth.js app's database over, with the real thing: `@auth/core` signs a user in with an
 * e-mail link, database sessions, on `@auth/pg-adapter` (PGlite, and the PostgreSQL server of the
 * test run); `migrateFromAuthJs` moves the data; authlib's `Auth()` on `XataAdapter` then answers
 * `GET /auth/session` for Auth.js's cookie with the same user and moves it to authlib's cookie.
 * `@auth/xata-adapter` needs Xata's records API, which is not emulated here: its tables are written
 * in the layout it uses, with rows shaped as it writes them.
 */
import { Auth as AuthJs } from "@auth/core"
import PostgresAdapter from "@auth/pg-adapter"
import { Auth } from "@authlib/core"
import { PGlite } from "@electric-sql/pglite"
import { afterAll, describe, expect, inject, it } from "vitest"
import { CookieJar } from "@authlib/e2e-kit/cookie-jar"
import { migrateFromAuthJs, XataAdapter, XataAdapterError, type AdapterClient } from "../src/index.js"
import { pgSchema } from "@authlib/e2e-kit/pg-schema"

const SECRET = "authjs-to-authlib-shared-secret-0123456789"
const ORIGIN = "http://localhost:3000"
const quiet = { error() {}, warn() {}, debug() {} }

/** @auth/pg-adapter's schema, as its documentation gives it. */
const AUTHJS_PG_SCHEMA = [
  `CREATE TABLE verification_token (identifier TEXT NOT NULL, expires TIMESTAMPTZ NOT NULL, token TEXT NOT NULL, PRIMARY KEY (identifier, token))`,
  `CREATE TABLE accounts (id SERIAL, "userId" INTEGER NOT NULL, type VARCHAR(255) NOT NULL, provider VARCHAR(255) NOT NULL, "providerAccountId" VARCHAR(255) NOT NULL,
    refresh_token TEXT, access_token TEXT, expires_at BIGINT, id_token TEXT, scope TEXT, session_state TEXT, token_type TEXT, PRIMARY KEY (id))`,
  `CREATE TABLE sessions (id SERIAL, "userId" INTEGER NOT NULL, expires TIMESTAMPTZ NOT NULL, "sessionToken" VARCHAR(255) NOT NULL, PRIMARY KEY (id))`,
  `CREATE TABLE users (id SERIAL, name VARCHAR(255), email VARCHAR(255), "emailVerified" TIMESTAMPTZ, image TEXT, PRIMARY KEY (id))`,
]

/** A `pg`-style `query` over PGlite, as @auth/pg-adapter calls it. */
function pgShim(db: PGlite) {
  return {
    async query(sql: string, params?: unknown[]) {
      const result = await db.query<Record<string, unknown>>(sql, params as never)
      return { rows: result.rows, rowCount: result.affectedRows || result.rows.length }
    },
  }
}

type Cookies = CookieJar
const cookieHeader = (jar: Cookies) => jar.header()
const keep = (res: Response, jar: Cookies) => void jar.keep(res)

/** Signs `email` in through @auth/core (e-mail link, database sessions); returns the browser's cookies. */
async function signInWithAuthJs(adapterClient: { query: (sql: string, params?: unknown[]) => Promise<unknown> }, email: string): Promise<Cookies> {
  const links: string[] = []
  const config = {
    adapter: PostgresAdapter(adapterClient as never),
    providers: [{ id: "email", type: "email" as const, name: "Email", from: "app@example.com", maxAge: 600, options: {}, sendVerificationRequest: ({ url }: { url: string }) => void links.push(url) }],
    secret: SECRET,
    trustHost: true,
    basePath: "/auth",
    session: { strategy: "database" as const },
    logger: quiet,
  }
  const jar: Cookies = new CookieJar(ORIGIN)
  const csrf = (await AuthJs(new Request(`${ORIGIN}/auth/csrf`), config as never)) as unknown as Response
  keep(csrf, jar)
  const { csrfToken } = (await csrf.json()) as { csrfToken: string }
  const start = (await AuthJs(new Request(`${ORIGIN}/auth/signin/email`, {
    method: "POST",
    headers: { cookie: cookieHeader(jar), "content-type": "application/x-www-form-urlencoded", origin: ORIGIN },
    body: new URLSearchParams({ csrfToken, email, callbackUrl: ORIGIN }),
  }), config as never)) as unknown as Response
  expect(start.status).toBe(302)
  keep(start, jar)
  expect(links).toHaveLength(1)
  const done = (await AuthJs(new Request(links[0]!, { headers: { cookie: cookieHeader(jar) } }), config as never)) as unknown as Response
  keep(done, jar)
  expect(jar.get("authjs.session-token")).toBeTruthy()
  return jar
}

function authlibConfig(client: AdapterClient) {
  return {
    adapter: XataAdapter(client),
    providers: [{ id: "email", name: "Email", type: "email" as const, sendVerificationRequest: () => {} }],
    secret: SECRET,
    trustHost: true,
    session: { strategy: "database" as const },
    logger: quiet,
  }
}

interface Database {
  client: AdapterClient
  authjsClient: { query: (sql: string, params?: unknown[]) => Promise<unknown> }
  exec(sql: string): Promise<void>
  count(table: string): Promise<number>
}

function scenarios(name: string, open: () => Promise<Database>) {
  describe(`${name}: from @auth/pg-adapter`, () => {
    let db: Database
    const ready = (async () => {
      db = await open()
      for (const statement of AUTHJS_PG_SCHEMA) await db.exec(statement)
    })()

    it("dry run counts and writes nothing; the move keeps users, accounts, sessions; the Auth.js cookie is still signed in on authlib", async () => {
      await ready
      const jar = await signInWithAuthJs(db.authjsClient, "ada@example.com")
      await db.exec(`INSERT INTO accounts ("userId", type, provider, "providerAccountId", access_token, expires_at, token_type)
        SELECT id, 'oidc', 'acme', 'acme-ada', 'at-1', 1900000000, 'bearer' FROM users WHERE email = 'ada@example.com'`)
      // An expired session is not worth moving.
      await db.exec(`INSERT INTO sessions ("userId", expires, "sessionToken") SELECT id, now() - interval '1 day', 'expired-token' FROM users WHERE email = 'ada@example.com'`)

      const dry = await migrateFromAuthJs(db.client, { from: "pg-adapter", dryRun: true })
      // Auth.js v5 links no account for an e-mail sign-in: the one account is the OIDC one.
      expect(dry).toEqual({ users: 1, accounts: 1, sessions: 1, verificationTokens: 0, dryRun: true })
      // Not even authlib's tables were created.
      expect(await db.count("information_schema.tables WHERE table_name = 'authlib_users' AND table_schema = current_schema()")).toBe(0)

      const moved = await migrateFromAuthJs(db.client, { from: "pg-adapter", batchSize: 1 })
      expect(moved).toEqual({ users: 1, accounts: 1, sessions: 1, verificationTokens: 0, dryRun: false })
      expect(await migrateFromAuthJs(db.client, { from: "pg-adapter" })).toEqual({ users: 0, accounts: 0, sessions: 0, verificationTokens: 0, dryRun: false })

      const adapter = XataAdapter(db.client)
      const user = await adapter.getUserByEmail("ada@example.com")
      expect(user).toMatchObject({ id: expect.stringMatching(/^\d+$/), email: "ada@example.com", emailVerified: expect.any(Date) })
      expect(await adapter.getUserByAccount({ provider: "acme", providerAccountId: "acme-ada" })).toMatchObject({ id: user!.id })
      // The raw token is nowhere in authlib's table.
      const raw = jar.get("authjs.session-token")!
      expect(await db.count(`authlib_sessions WHERE "sessionToken" = '${raw}'`)).toBe(0)

      // The same app on authlib: Auth.js's cookie still signs Ada in, and moves to ours.
      const config = authlibConfig(db.client)
      const res = await Auth(new Request(`${ORIGIN}/auth/session`, { headers: { cookie: cookieHeader(jar) } }), config)
      expect(await res.json()).toMatchObject({ user: { email: "ada@example.com" } })
      keep(res, jar)
      expect(jar.get("authlib.session-token")).toBe(`authjs.${raw}`)
      expect(jar.has("authjs.session-token")).toBe(false)
      const again = await Auth(new Request(`${ORIGIN}/auth/session`, { headers: { cookie: cookieHeader(jar) } }), config)
      expect(await again.json()).toMatchObject({ user: { email: "ada@example.com" } })
    })

    it("a live e-mail link issued by Auth.js before the move works on authlib after it (same token hash)", async () => {
      await ready
      await db.exec(`INSERT INTO verification_token (identifier, expires, token) VALUES ('grace@example.com', now() + interval '5 minutes', 'hashed-by-authjs')`)
      const moved = await migrateFromAuthJs(db.client, { from: "pg-adapter" })
      expect(moved.verificationTokens).toBe(1)
      expect(await XataAdapter(db.client).useVerificationToken({ identifier: "grace@example.com", token: "hashed-by-authjs" })).toMatchObject({ identifier: "grace@example.com" })
    })
  })

  describe(`${name}: from @auth/xata-adapter's tables`, () => {
    let db: Database
    const ready = (async () => {
      db = await open()
      const meta = `xata_id text PRIMARY KEY, xata_version integer NOT NULL DEFAULT 0, xata_createdat timestamptz NOT NULL DEFAULT now(), xata_updatedat timestamptz NOT NULL DEFAULT now()`
      for (const statement of [
        `CREATE TABLE nextauth_users (${meta}, email text, "emailVerified" timestamptz, name text, image text)`,
        `CREATE TABLE nextauth_accounts (${meta}, "user" text, type text, provider text, "providerAccountId" text, refresh_token text, access_token text, expires_at bigint, token_type text, scope text, id_token text, session_state text)`,
        `CREATE TABLE nextauth_sessions (${meta}, "sessionToken" text, expires timestamptz, "user" text)`,
        `CREATE TABLE "nextauth_verificationTokens" (${meta}, identifier text, token text, expires timestamptz)`,
        `INSERT INTO nextauth_users (xata_id, email, name) VALUES ('rec_linus', 'linus@example.com', 'Linus')`,
        `INSERT INTO nextauth_accounts (xata_id, "user", type, provider, "providerAccountId") VALUES ('rec_acc1', 'rec_linus', 'oauth', 'github', '42')`,
        `INSERT INTO nextauth_sessions (xata_id, "sessionToken", expires, "user") VALUES ('rec_s1', 'xata-raw-token-0123456789', now() + interval '10 days', 'rec_linus')`,
      ]) await db.exec(statement)
    })()

    it("moves them, and the session's raw token finds the user through authlib", async () => {
      await ready
      expect(await migrateFromAuthJs(db.client, { from: "xata-adapter" })).toEqual({ users: 1, accounts: 1, sessions: 1, verificationTokens: 0, dryRun: false })
      const res = await Auth(new Request(`${ORIGIN}/auth/session`, { headers: { cookie: "authjs.session-token=xata-raw-token-0123456789" } }), authlibConfig(db.client))
      expect(await res.json()).toMatchObject({ user: { email: "linus@example.com", name: "Linus" } })
      expect(await XataAdapter(db.client).getUserByAccount({ provider: "github", providerAccountId: "42" })).toMatchObject({ id: "rec_linus" })
    })

    it("names the missing tables when the source is not there", async () => {
      await ready
      const err = await migrateFromAuthJs(db.client, { from: "pg-adapter" }).catch((e: unknown) => e)
      // This database has only the xata-adapter layout.
      expect(err).toBeInstanceOf(XataAdapterError)
      expect(err).toMatchObject({ code: "AUTHJS_TABLES_MISSING", message: expect.stringContaining("verification_token") })
    })
  })
}

scenarios("PGlite", async () => {
  const pglite = new PGlite()
  afterAll(() => pglite.close())
  return {
    client: pglite,
    authjsClient: pgShim(pglite),
    exec: async (sql) => void (await pglite.exec(sql)),
    count: async (from) => Number((await pglite.query<{ n: number }>(`SELECT count(*)::integer AS n FROM ${from}`)).rows[0]!.n),
  }
})

const url = inject("databaseUrl")
if (url !== null) {
  scenarios("PostgreSQL server", async () => {
    const schema = pgSchema(url, "authjs_move")
    afterAll(() => schema.drop())
    await schema.create()
    return {
      client: schema.pool,
      authjsClient: schema.pool,
      exec: async (sql) => void (await schema.query(sql)),
      count: async (from) => Number((await schema.query(`SELECT count(*)::integer AS n FROM ${from}`))[0]!.n),
    }
  })
}
