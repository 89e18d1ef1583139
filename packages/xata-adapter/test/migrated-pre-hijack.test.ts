/**
 * Account pre-hijacking through the migration path: an Auth.js app stored every OAuth user with
 * `emailVerified` NULL, whatever its provider checked. Mallory once signed in there through a
 * provider that never verified the address she typed, the victim's; `migrateFromAuthJs` copies
 * her user, her account link and her live session as they are. When the victim proves the address
 * with an e-mail link on authlib, the proof wins: Mallory's link is removed and her sessions, the
 * moved database session and an Auth.js JWT alike, no longer read as the victim.
 */
import { encode } from "@auth/core/jwt"
import { Auth, MemoryRateLimitStore, type AuthConfig } from "@authlib/core"
import { PGlite } from "@electric-sql/pglite"
import { afterAll, describe, expect, it } from "vitest"
import { CookieJar } from "@authlib/e2e-kit/cookie-jar"
import { migrateFromAuthJs, XataAdapter } from "../src/index.js"

const SECRET = "authjs-to-authlib-shared-secret-0123456789"
const ORIGIN = "http://localhost:3000"
const VICTIM = "victim@example.com"
const quiet = { error() {}, warn() {}, debug() {} }

/** @auth/pg-adapter's schema, as its documentation gives it, holding what Mallory left. */
const AUTHJS_DATABASE = `
  CREATE TABLE verification_token (identifier TEXT NOT NULL, expires TIMESTAMPTZ NOT NULL, token TEXT NOT NULL, PRIMARY KEY (identifier, token));
  CREATE TABLE accounts (id SERIAL, "userId" INTEGER NOT NULL, type VARCHAR(255) NOT NULL, provider VARCHAR(255) NOT NULL, "providerAccountId" VARCHAR(255) NOT NULL,
    refresh_token TEXT, access_token TEXT, expires_at BIGINT, id_token TEXT, scope TEXT, session_state TEXT, token_type TEXT, PRIMARY KEY (id));
  CREATE TABLE sessions (id SERIAL, "userId" INTEGER NOT NULL, expires TIMESTAMPTZ NOT NULL, "sessionToken" VARCHAR(255) NOT NULL, PRIMARY KEY (id));
  CREATE TABLE users (id SERIAL, name VARCHAR(255), email VARCHAR(255), "emailVerified" TIMESTAMPTZ, image TEXT, PRIMARY KEY (id));
  INSERT INTO users (name, email, "emailVerified") VALUES ('Mallory', '${VICTIM}', NULL);
  INSERT INTO accounts ("userId", type, provider, "providerAccountId", access_token, token_type) VALUES (1, 'oauth', 'gitlab', 'mallory-7', 'at', 'bearer');
  INSERT INTO sessions ("userId", expires, "sessionToken") VALUES (1, now() + interval '10 days', 'mallory-raw-session-token');
`

/** A browser's cookie jar and requests to authlib's `Auth`. */
class Browser {
  readonly jar = new CookieJar(ORIGIN)
  constructor(readonly config: AuthConfig) {}
  async request(path: string, init: { form?: Record<string, string> } = {}): Promise<Response> {
    const url = new URL(path, ORIGIN)
    const headers = this.jar.apply(new Headers(), url)
    let body: string | undefined
    if (init.form) (headers.set("content-type", "application/x-www-form-urlencoded"), headers.set("origin", ORIGIN), (body = new URLSearchParams(init.form).toString()))
    const res = await Auth(new Request(url, { method: init.form ? "POST" : "GET", headers, ...(body ? { body } : {}) }), this.config)
    return this.jar.keep(res, url)
  }
  async user(): Promise<{ email?: string } | undefined> {
    const session = (await (await this.request("/auth/session")).json()) as { user?: { email?: string } } | null
    return session?.user
  }
}

/** The victim asks for a link, opens it (the confirm page) and presses its button. */
async function proveByEmail(config: AuthConfig, links: string[]): Promise<Response> {
  const victim = new Browser(config)
  const { csrfToken } = (await (await victim.request("/auth/csrf")).json()) as { csrfToken: string }
  await victim.request("/auth/signin/email", { form: { csrfToken, email: VICTIM } })
  const link = new URL(links.at(-1)!)
  const page = await (await victim.request(link.pathname + link.search)).text()
  const fields = Object.fromEntries([...page.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [m[1]!, m[2]!.replace(/&amp;/g, "&")]))
  return victim.request(link.pathname, { form: fields })
}

async function movedDatabase(): Promise<PGlite> {
  const db = new PGlite()
  afterAll(() => db.close())
  await db.exec(AUTHJS_DATABASE)
  expect(await migrateFromAuthJs(db, { from: "pg-adapter" })).toMatchObject({ users: 1, accounts: 1, sessions: 1 })
  return db
}

function config(db: PGlite, links: string[], session: AuthConfig["session"]): AuthConfig {
  return {
    adapter: XataAdapter(db),
    providers: [{ id: "email", name: "Email", type: "email", sendVerificationRequest: ({ url }) => void links.push(url) }],
    secret: SECRET,
    trustHost: true,
    session,
    logger: quiet,
    // Each test its own counters: both send a link to the same address.
    rateLimit: { store: new MemoryRateLimitStore() },
  }
}

describe("a pre-hijacked Auth.js user, moved with migrateFromAuthJs, then proven by e-mail link", () => {
  it("database sessions: Mallory's link and moved session are gone; the victim keeps the user, verified", async () => {
    const db = await movedDatabase()
    const links: string[] = []
    const cfg = config(db, links, { strategy: "database" })
    const adapter = XataAdapter(db)
    const planted = await adapter.getUserByAccount({ provider: "gitlab", providerAccountId: "mallory-7" })
    expect(planted).toMatchObject({ email: VICTIM, emailVerified: null })
    const mallory = new Browser(cfg)
    mallory.jar.set("authjs.session-token", "mallory-raw-session-token")
    expect((await mallory.user())?.email).toBe(VICTIM)

    const done = await proveByEmail(cfg, links)
    expect(done.status).toBe(302)
    expect(done.headers.get("location")).not.toContain("error")
    expect(await adapter.getUserByEmail(VICTIM)).toMatchObject({ id: planted!.id, emailVerified: expect.any(Date) })
    expect(await adapter.getUserByAccount({ provider: "gitlab", providerAccountId: "mallory-7" })).toBeNull()
    expect((await adapter.listAccountsByUserId(planted!.id)).map((a) => a.type)).toEqual(["email"])
    expect(await mallory.user()).toBeUndefined()
  })

  it("JWT sessions: Mallory's Auth.js token no longer reads as the victim", async () => {
    const db = await movedDatabase()
    const links: string[] = []
    const cfg = config(db, links, { strategy: "jwt", checkRevocation: "every-request" })
    const adapter = XataAdapter(db)
    const planted = await adapter.getUserByEmail(VICTIM)
    const token = await encode({ token: { sub: planted!.id, email: VICTIM, name: "Mallory" }, secret: SECRET, salt: "authjs.session-token" })
    const mallory = new Browser(cfg)
    mallory.jar.set("authjs.session-token", token)
    expect((await mallory.user())?.email).toBe(VICTIM)

    const done = await proveByEmail(cfg, links)
    expect(done.headers.get("location")).not.toContain("error")
    expect(await adapter.getUserByAccount({ provider: "gitlab", providerAccountId: "mallory-7" })).toBeNull()
    expect(await mallory.user()).toBeUndefined()
  })
})
