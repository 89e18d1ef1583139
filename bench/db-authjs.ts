/**
 * `@auth/core` 0.41.3 + `@auth/pg-adapter` 1.11.3 in the database bench, on the same server in a
 * schema of its own: the adapter's documented tables, plus the indexes its look-ups need (the
 * documented schema has only primary keys, which would make every session read a scan of the
 * sessions table and flatter us). Ada is stored verified, with her e-mail account linked.
 *
 * Not supported, so not measured: credentials sign-in with database sessions (Auth.js signs
 * credentials users in with JWT sessions only) and passkey sign-in (its callback needs the
 * browser-side `signIn()`, and `@auth/pg-adapter` has no authenticator methods).
 */
import { createHash, randomBytes } from "node:crypto"
import { Auth as AuthJs } from "@auth/core"
import PostgresAdapter from "@auth/pg-adapter"
import type pg from "pg"
import type { CountedPool } from "./db-server.js"
import { ada, expectSignedIn, origin, post, queue, quiet, secret, type Implementation } from "./db-fixture.js"

export const AUTHJS_SCHEMA = [
  `CREATE TABLE verification_token (identifier TEXT NOT NULL, expires TIMESTAMPTZ NOT NULL, token TEXT NOT NULL, PRIMARY KEY (identifier, token))`,
  `CREATE TABLE accounts (id SERIAL, "userId" INTEGER NOT NULL, type VARCHAR(255) NOT NULL, provider VARCHAR(255) NOT NULL, "providerAccountId" VARCHAR(255) NOT NULL,
    refresh_token TEXT, access_token TEXT, expires_at BIGINT, id_token TEXT, scope TEXT, session_state TEXT, token_type TEXT, PRIMARY KEY (id))`,
  `CREATE TABLE sessions (id SERIAL, "userId" INTEGER NOT NULL, expires TIMESTAMPTZ NOT NULL, "sessionToken" VARCHAR(255) NOT NULL, PRIMARY KEY (id))`,
  `CREATE TABLE users (id SERIAL, name VARCHAR(255), email VARCHAR(255), "emailVerified" TIMESTAMPTZ, image TEXT, PRIMARY KEY (id))`,
  `CREATE UNIQUE INDEX sessions_token_key ON sessions ("sessionToken")`,
  `CREATE UNIQUE INDEX accounts_provider_key ON accounts (provider, "providerAccountId")`,
  `CREATE UNIQUE INDEX users_email_key ON users (email)`,
]

const COOKIE = "authjs.session-token"
const NOT_CREDENTIALS = "n/a: Auth.js signs credentials users in with JWT sessions only"
const NOT_PASSKEY = "n/a: needs the browser-side signIn(); @auth/pg-adapter has no authenticator methods"

export async function authjsImplementation(counted: CountedPool, setup: pg.Pool): Promise<Implementation> {
  for (const statement of AUTHJS_SCHEMA) await setup.query(statement)
  const { rows } = await setup.query(`INSERT INTO users (name, email, "emailVerified") VALUES ($1, $2, now()) RETURNING id`, [ada.name, ada.email])
  const userId = rows[0].id as number
  await setup.query(`INSERT INTO accounts ("userId", type, provider, "providerAccountId") VALUES ($1, 'email', 'email', $2)`, [userId, ada.email])
  const config = {
    secret, trustHost: true, basePath: "/auth", logger: quiet,
    adapter: PostgresAdapter(counted.client as never),
    session: { strategy: "database" as const },
    providers: [{ id: "email", type: "email" as const, name: "Email", from: "auth@example.com", maxAge: 600, options: {}, sendVerificationRequest: async () => {} }],
  }
  const handler = (request: Request) => AuthJs(request, config as never) as Promise<Response>
  const csrfRes = await handler(new Request(`${origin}/auth/csrf`))
  const { csrfToken } = (await csrfRes.json()) as { csrfToken: string }
  const csrfCookie = csrfRes.headers.getSetCookie().map((c) => c.split(";")[0]!).find((c) => c.startsWith("authjs.csrf-token="))!
  const newSession = async (token: string) =>
    setup.query(`/* bench-setup */ INSERT INTO sessions ("userId", expires, "sessionToken") VALUES ($1, $2, $3)`, [userId, new Date(Date.now() + 30 * 86_400_000), token])
  const liveToken = randomBytes(32).toString("hex")
  await newSession(liveToken)
  const links = queue<string>()
  const ending = queue<string>()
  return {
    name: "@auth/core + @auth/pg-adapter",
    ops: {
      "GET /session": {
        async run() {
          const res = await handler(new Request(`${origin}/auth/session`, { headers: { cookie: `${csrfCookie}; ${COOKIE}=${liveToken}` } }))
          const body = (await res.json()) as { user?: { email?: string } } | null
          if (body?.user?.email !== ada.email) throw new Error(`bench: @auth/core GET /session answered ${JSON.stringify(body)}`)
        },
      },
      "credentials sign-in": NOT_CREDENTIALS,
      "e-mail link completion": {
        async prepare() {
          const token = randomBytes(32).toString("hex")
          const hashed = createHash("sha256").update(`${token}${secret}`).digest("hex")
          await setup.query(`/* bench-setup */ INSERT INTO verification_token (identifier, token, expires) VALUES ($1, $2, $3)`, [ada.email, hashed, new Date(Date.now() + 600_000)])
          links.push(token)
        },
        async run() {
          // Auth.js completes on the GET of the link itself.
          const query = new URLSearchParams({ callbackUrl: `${origin}/`, token: links.take(), email: ada.email })
          expectSignedIn("@auth/core e-mail completion", await handler(new Request(`${origin}/auth/callback/email?${query}`, { headers: { cookie: csrfCookie } })), COOKIE)
        },
      },
      "passkey sign-in": NOT_PASSKEY,
      "sign-out": {
        async prepare() {
          const token = randomBytes(32).toString("hex")
          await newSession(token)
          ending.push(token)
        },
        async run() {
          const res = await handler(post("/auth/signout", `${csrfCookie}; ${COOKIE}=${ending.take()}`, { csrfToken }))
          if (res.status !== 302) throw new Error(`bench: @auth/core sign-out answered ${res.status}`)
        },
      },
    },
  }
}
