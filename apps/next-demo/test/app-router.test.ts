/**
 * The demo as an Auth.js v5 app sees it, in Chromium against `next build` + `next start`, for both
 * session strategies (JWT on the embedded PGlite; database sessions on the PostgreSQL server):
 * the proxy guarding a page, sign-in through a server action and through `@authlib/nextjs/react`,
 * `auth()` in server components, a session update seen by server and client without a reload,
 * sign-out, and sessions of NextAuth.js v4 and Auth.js v5 carried over.
 */
import { encode as v5Encode } from "@auth/core/jwt"
import { request as httpRequest } from "node:http"
import { migrateFromAuthJs } from "@authlib/xata-adapter"
import { encode as v4Encode } from "next-auth/jwt"
import pg from "pg"
import type { Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest"
import { SECRET, startDemo, type DemoInstance } from "./harness/app.js"
import { ADA, launchBrowser, sessionCookie, signInWithForm, type DemoBrowser } from "./harness/browser.js"

/** `@auth/pg-adapter`'s schema, as its documentation gives it (NextAuth.js v4 apps use the same tables). */
const PG_ADAPTER_SCHEMA = [
  `CREATE TABLE IF NOT EXISTS verification_token (identifier TEXT NOT NULL, expires TIMESTAMPTZ NOT NULL, token TEXT NOT NULL, PRIMARY KEY (identifier, token))`,
  `CREATE TABLE IF NOT EXISTS accounts (id SERIAL, "userId" INTEGER NOT NULL, type VARCHAR(255) NOT NULL, provider VARCHAR(255) NOT NULL, "providerAccountId" VARCHAR(255) NOT NULL,
    refresh_token TEXT, access_token TEXT, expires_at BIGINT, id_token TEXT, scope TEXT, session_state TEXT, token_type TEXT, PRIMARY KEY (id))`,
  `CREATE TABLE IF NOT EXISTS sessions (id SERIAL, "userId" INTEGER NOT NULL, expires TIMESTAMPTZ NOT NULL, "sessionToken" VARCHAR(255) NOT NULL, PRIMARY KEY (id))`,
  `CREATE TABLE IF NOT EXISTS users (id SERIAL, name VARCHAR(255), email VARCHAR(255), "emailVerified" TIMESTAMPTZ, image TEXT, PRIMARY KEY (id))`,
]

describe.each(["jwt", "database"] as const)("%s sessions", (strategy) => {
  let demo: DemoInstance
  let browser: DemoBrowser
  let page: Page
  let pool: pg.Pool | undefined

  beforeAll(async () => {
    pool = strategy === "database" ? new pg.Pool({ connectionString: inject("databaseUrl"), max: 2 }) : undefined
    ;[demo, browser] = await Promise.all([startDemo({ strategy, databaseUrl: strategy === "database" ? inject("databaseUrl") : undefined }), launchBrowser()])
    page = await browser.newPage()
  })
  afterAll(async () => {
    await browser?.close()
    await demo?.stop()
    await pool?.end()
  })

  test.each(["/", "/sign-in", "/inbox", "/api/auth/providers"])("%s under a Host that is not loopback answers 421 (origins come from Host without WEBAUTH_URL)", async (path) => {
    const status = (host: string) =>
      new Promise<number>((done, fail) => {
        const url = new URL(`${demo.url}${path}`)
        httpRequest({ host: url.hostname, port: url.port, path: url.pathname, headers: { host } }, (res) => (res.resume(), done(res.statusCode!))).on("error", fail).end()
      })
    const port = new URL(demo.url).port
    await expect(status(`evil.example:${port}`)).resolves.toBe(421)
    await expect(status(`localhost:${port}`)).resolves.toBe(200)
  })

  test("the proxy sends a signed-out visitor of a protected page to sign in, then back", async () => {
    await page.goto(`${demo.url}/protected?tab=2`)
    const at = new URL(page.url())
    expect(at.pathname).toBe("/sign-in")
    expect(at.searchParams.get("callbackUrl")).toBe(`${demo.url}/protected?tab=2`)
    await signInWithForm(page, demo.url)
    expect(page.url()).toBe(`${demo.url}/protected?tab=2`)
    await expect(page.textContent("#protected-user")).resolves.toBe(ADA.email)
  })

  test("auth() in a server component and useSession in a client component show the session", async () => {
    await page.goto(`${demo.url}/`)
    await expect(page.textContent("#server-name")).resolves.toBe(ADA.name)
    await page.waitForSelector("#client-status:text-is('authenticated')")
    await expect(page.textContent("#client-name")).resolves.toBe(ADA.name)
  })

  test("a server action's session update reaches the server components and useSession without a reload", async () => {
    await page.goto(`${demo.url}/`)
    // A marker on the window: gone if the page reloaded.
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 1))
    await page.fill("#server-rename-name", "Ada Server")
    await page.click("#server-rename")
    await page.waitForSelector("#server-name:text-is('Ada Server')")
    await page.waitForSelector("#client-name:text-is('Ada Server')")
    await expect(page.evaluate(() => (window as unknown as { marker?: number }).marker)).resolves.toBe(1)
  })

  test("the client's update() reaches useSession at once and the server components on the next request", async () => {
    await page.fill("#client-rename-name", "Ada Client")
    await page.click("#client-rename")
    await page.waitForSelector("#client-name:text-is('Ada Client')")
    await page.goto(`${demo.url}/`)
    await expect(page.textContent("#server-name")).resolves.toBe("Ada Client")
  })

  test("sign-out through a server action ends the session for server and client", async () => {
    await page.goto(`${demo.url}/`)
    await Promise.all([page.waitForURL(`${demo.url}/`), page.click("#sign-out")])
    await page.waitForSelector("#server-status:text-is('signed out')")
    await page.waitForSelector("#client-status:text-is('unauthenticated')")
    expect(await sessionCookie(page)).toBeUndefined()
    await page.goto(`${demo.url}/account`)
    expect(new URL(page.url()).pathname).toBe("/sign-in")
  })

  test("a wrong password is refused with CredentialsSignin, from the server action and from the client", async () => {
    await page.goto(`${demo.url}/sign-in`)
    await page.fill("#email", ADA.email)
    await page.fill("#password", "wrong-password")
    await Promise.all([page.waitForURL(/error=CredentialsSignin/), page.click("#password-sign-in button[type=submit]")])
    await expect(page.textContent("#sign-in-error")).resolves.toContain("did not match")
    await page.fill("#client-email", ADA.email)
    await page.fill("#client-password", "wrong-password")
    await page.click("#client-sign-in button[type=submit]")
    await page.waitForSelector("#client-error:not(:empty)")
    expect(await sessionCookie(page)).toBeUndefined()
  })

  test("sign-in through the client's signIn (@authlib/nextjs/react)", async () => {
    await page.goto(`${demo.url}/sign-in?callbackUrl=%2Fprotected`)
    await page.fill("#client-email", ADA.email)
    await page.fill("#client-password", ADA.password)
    await Promise.all([page.waitForURL(`${demo.url}/protected`), page.click("#client-sign-in button[type=submit]")])
    await expect(page.textContent("#protected-user")).resolves.toBe(ADA.email)
    expect(await sessionCookie(page)).toBeTruthy()
  })

  /**
   * Database sessions of the old app: `@auth/pg-adapter`'s tables (v4 and v5 apps use the same) with
   * one user and a session for each cookie name, moved by `migrateFromAuthJs` as the CLI
   * `authlib-xata migrate-from-authjs` does. Their users are the old app's (ids and names as stored).
   */
  let moved: Promise<Record<4 | 5, string>> | undefined
  async function movedDatabaseSessions(): Promise<Record<4 | 5, string>> {
    const db = pool!
    for (const statement of PG_ADAPTER_SCHEMA) await db.query(statement)
    const { rows } = await db.query<{ id: number }>(`INSERT INTO users (name, email, "emailVerified") VALUES ('Ada Old', 'old@example.com', now()) RETURNING id`)
    const tokens = { 4: crypto.randomUUID(), 5: crypto.randomUUID() }
    for (const token of Object.values(tokens)) {
      await db.query(`INSERT INTO sessions ("userId", expires, "sessionToken") VALUES ($1, now() + interval '1 day', $2)`, [rows[0]!.id, token])
    }
    await migrateFromAuthJs(db, { from: "pg-adapter" })
    return tokens
  }

  /** A session as the old app left it: its cookie (v4 or v5 name), sealed by that library or stored in the database. */
  async function oldSession(version: 4 | 5): Promise<{ cookie: { name: string; value: string }; email: string; name: string }> {
    const name = version === 4 ? "next-auth.session-token" : "authjs.session-token"
    if (strategy === "database") {
      moved ??= movedDatabaseSessions()
      return { cookie: { name, value: (await moved)[version] }, email: "old@example.com", name: "Ada Old" }
    }
    const token = { sub: ADA.id, name: `Ada v${version}`, email: ADA.email }
    const value = version === 4 ? await v4Encode({ token, secret: SECRET }) : await v5Encode({ token, secret: SECRET, salt: name })
    return { cookie: { name, value }, email: ADA.email, name: `Ada v${version}` }
  }

  test.each([4, 5] as const)("a signed-in user of NextAuth.js v%s stays signed in, under authlib's cookie", async (version) => {
    const context = browser.context
    await context.clearCookies()
    const old = await oldSession(version)
    await context.addCookies([{ ...old.cookie, url: demo.url }])
    const carried = await context.newPage()
    await carried.goto(`${demo.url}/protected`)
    expect(new URL(carried.url()).pathname).toBe("/protected")
    await expect(carried.textContent("#protected-user")).resolves.toBe(old.email)
    await carried.goto(`${demo.url}/`)
    await expect(carried.textContent("#server-name")).resolves.toBe(old.name)
    const names = (await context.cookies()).map((c) => c.name)
    expect(names).toContain("authlib.session-token")
    await carried.close()
  })
})
