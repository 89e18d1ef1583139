/**
 * Moving a NextAuth.js v4 app's database sessions over, with the real thing: `next-auth@4.24`'s own
 * API route handler signs a user in with an e-mail link, database sessions, on `@auth/pg-adapter`
 * (which v4 apps use too: the tables are the same) over PGlite; v4 itself answers the session for
 * its cookie. `migrateFromAuthJs({ from: "pg-adapter" })` moves the data, and authlib's `Auth()` on
 * `XataAdapter` answers `GET /auth/session` for v4's `next-auth.session-token` with the same user,
 * moving it to authlib's cookie.
 */
import PostgresAdapter from "@auth/pg-adapter"
import { Auth } from "@authlib/core"
import { CookieJar } from "@authlib/e2e-kit/cookie-jar"
import { PGlite } from "@electric-sql/pglite"
import type { AuthOptions } from "next-auth"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { migrateFromAuthJs, XataAdapter } from "../src/index.js"
import { startNextAuthV4App } from "./helpers/next-auth-v4-app.js"

const SECRET = "nextauth-v4-secret-kept-as-auth-secret-0123456789"
const quiet = { error() {}, warn() {}, debug() {} }

/** @auth/pg-adapter's schema, as its documentation gives it (the same for v4 and v5 apps). */
const PG_ADAPTER_SCHEMA = [
  `CREATE TABLE verification_token (identifier TEXT NOT NULL, expires TIMESTAMPTZ NOT NULL, token TEXT NOT NULL, PRIMARY KEY (identifier, token))`,
  `CREATE TABLE accounts (id SERIAL, "userId" INTEGER NOT NULL, type VARCHAR(255) NOT NULL, provider VARCHAR(255) NOT NULL, "providerAccountId" VARCHAR(255) NOT NULL,
    refresh_token TEXT, access_token TEXT, expires_at BIGINT, id_token TEXT, scope TEXT, session_state TEXT, token_type TEXT, PRIMARY KEY (id))`,
  `CREATE TABLE sessions (id SERIAL, "userId" INTEGER NOT NULL, expires TIMESTAMPTZ NOT NULL, "sessionToken" VARCHAR(255) NOT NULL, PRIMARY KEY (id))`,
  `CREATE TABLE users (id SERIAL, name VARCHAR(255), email VARCHAR(255), "emailVerified" TIMESTAMPTZ, image TEXT, PRIMARY KEY (id))`,
]

describe("a NextAuth.js v4 app's database sessions survive the move (PGlite)", () => {
  const db = new PGlite()
  const links: string[] = []
  let app: Awaited<ReturnType<typeof startNextAuthV4App>>

  beforeAll(async () => {
    for (const statement of PG_ADAPTER_SCHEMA) await db.exec(statement)
    // @auth/pg-adapter calls `query(sql, params)` and reads `rows` / `rowCount`, as on a pg Pool.
    const pool = {
      async query(sql: string, params?: unknown[]) {
        const result = await db.query<Record<string, unknown>>(sql, params as never)
        return { rows: result.rows, rowCount: result.affectedRows || result.rows.length }
      },
    }
    const options: AuthOptions = {
      adapter: PostgresAdapter(pool as never) as never,
      // v4's e-mail provider, without nodemailer: the link is kept for the test to follow.
      providers: [{ id: "email", type: "email", name: "Email", server: {}, from: "app@example.com", maxAge: 600, options: {}, sendVerificationRequest: async ({ url }: { url: string }) => void links.push(url) } as never],
      secret: SECRET,
      session: { strategy: "database" },
      logger: quiet,
    }
    app = await startNextAuthV4App(options)
    vi.stubEnv("NEXTAUTH_URL", `${app.origin}/api/auth`)
  })
  afterAll(async () => {
    vi.unstubAllEnvs()
    await app?.close()
    await db.close()
  })

  /** Signs `email` in on the v4 app as a browser does; returns its cookies. */
  async function signInOnV4(email: string): Promise<CookieJar> {
    const jar = new CookieJar(app.origin)
    const call = async (path: string, init: RequestInit = {}) => {
      const url = `${app.origin}${path}`
      const headers = new Headers(init.headers)
      jar.apply(headers, url)
      return jar.keep(await fetch(url, { ...init, headers, redirect: "manual" }), url)
    }
    const { csrfToken } = (await (await call("/api/auth/csrf")).json()) as { csrfToken: string }
    const start = await call("/api/auth/signin/email", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrfToken, email, callbackUrl: app.origin }),
    })
    expect(start.status).toBe(302)
    expect(links).toHaveLength(1)
    const link = new URL(links.pop()!)
    const done = await call(`${link.pathname}${link.search}`)
    expect(done.status).toBe(302)
    // v4 itself now answers the session for its cookie.
    expect(await (await call("/api/auth/session")).json()).toMatchObject({ user: { email } })
    return jar
  }

  it("v4's next-auth.session-token still signs the user in on authlib after migrateFromAuthJs, and moves to authlib's cookie", async () => {
    const jar = await signInOnV4("ada@example.com")
    const raw = jar.get("next-auth.session-token")
    expect(raw).toMatch(/^[0-9a-f-]{36}$/)
    expect(await migrateFromAuthJs(db, { from: "pg-adapter" })).toEqual({ users: 1, accounts: 0, sessions: 1, verificationTokens: 0, dryRun: false })

    // The same app on authlib, same origin and same secret.
    const config = {
      adapter: XataAdapter(db),
      providers: [{ id: "email", name: "Email", type: "email" as const, sendVerificationRequest: () => {} }],
      secret: SECRET,
      trustHost: true,
      session: { strategy: "database" as const },
      logger: quiet,
    }
    const ask = async () => {
      const url = `${app.origin}/auth/session`
      return jar.keep(await Auth(new Request(url, { headers: jar.apply(new Headers(), url) }), config), url)
    }
    const res = await ask()
    expect(await res.json()).toMatchObject({ user: { email: "ada@example.com" } })
    expect(jar.get("authlib.session-token")).toBe(`authjs.${raw}`)
    expect(jar.has("next-auth.session-token")).toBe(false)
    // From now on the session runs on authlib's cookie alone, and signs out as one of ours.
    expect(await (await ask()).json()).toMatchObject({ user: { email: "ada@example.com" } })
    expect(await XataAdapter(db).getUserByEmail("ada@example.com")).toMatchObject({ emailVerified: expect.any(Date) })
  })
})
