/**
 * Round trips of the sign-in paths with database sessions, counted on the way out of the process
 * (issue 27), and `createSessionForAccount` itself, on the PostgreSQL server of the test run:
 * a returning credentials user is signed in with ONE statement (owner, session and link row),
 * and an account nobody owns writes nothing; a returning e-mail user completes a link with ONE
 * (the link used up, the account's owner read, the session and its link row written:
 * `useVerificationTokenAndCreateSession`) unless a `signIn` callback or two-factor must see the
 * user first (then TWO or more), and a link is still handed to exactly one of concurrent callers.
 */
import { createHash } from "node:crypto"
import { describe, expect, inject, test } from "vitest"
import { Auth, type AuthConfig } from "@authlib/core"
import { XataAdapter, XataAdapterError } from "../src/index.js"
import { recordedSchema } from "./helpers/recorded-schema.js"

const ORIGIN = "http://localhost:3000"
const SECRET = "test-secret-0123456789-abcdefghijklmnopqrstuvwxyz"
const COOKIE = "authlib.session-token"
const url = inject("databaseUrl")

/** Core's `warn` and `debug` lines (the refusals these tests provoke: used and expired links), kept, not printed; `error` stays on the console. */
const logged: Array<{ code: string; message: unknown[] }> = []
const logger = { warn: (code: string, ...message: unknown[]) => void logged.push({ code, message }), debug: () => {} }

describe.skipIf(url === null)("sign-in statements on PostgreSQL", () => {
  const { statements, client, schema } = recordedSchema(url!, "signin_statements")

  /** Ada, stored, with a credentials account whose id is what `authorize` answers. */
  async function ada() {
    const adapter = XataAdapter(schema().pool)
    const email = `${crypto.randomUUID()}@example.com`
    const user = await adapter.createUser({ id: crypto.randomUUID(), email, name: "Ada", emailVerified: null })
    const login = `login-${crypto.randomUUID()}`
    await adapter.linkAccount({ userId: user.id, type: "credentials", provider: "credentials", providerAccountId: login })
    return { user, login }
  }

  const config = (login: string): AuthConfig => ({
    adapter: XataAdapter(client),
    secret: SECRET,
    trustHost: true,
    logger,
    session: { strategy: "database" },
    providers: [{ id: "credentials", name: "Credentials", type: "credentials", credentials: { username: {} }, authorize: async () => ({ id: login, name: "Ada" }) }],
  })

  async function signIn(cfg: AuthConfig, cookie = "") {
    const csrf = await Auth(new Request(`${ORIGIN}/auth/csrf`), cfg)
    const { csrfToken } = (await csrf.json()) as { csrfToken: string }
    const jar = [cookie, ...csrf.headers.getSetCookie().map((c) => c.split(";")[0]!)].filter(Boolean).join("; ")
    statements.length = 0
    const res = await Auth(
      new Request(`${ORIGIN}/auth/callback/credentials`, {
        method: "POST",
        headers: { cookie: jar, origin: ORIGIN, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ csrfToken, username: "ada" }),
      }),
      cfg,
    )
    const session = res.headers.getSetCookie().find((c) => c.startsWith(`${COOKIE}=`))?.split(";")[0]?.slice(COOKIE.length + 1)
    return { res, session }
  }

  const storedSession = async (token: string) =>
    schema().query(
      `SELECT s."user", l."user" AS link_user FROM authlib_sessions s LEFT JOIN authlib_users_sessions l ON l.session = s.xata_id WHERE s."sessionToken" = $1`,
      [createHash("sha256").update(token).digest("base64url")],
    )

  test("a returning credentials user: one statement stores the session and its link row for the account's owner", async () => {
    const { user, login } = await ada()
    const { res, session } = await signIn(config(login))
    expect(res.status).toBe(302)
    expect(statements).toHaveLength(1)
    expect(await storedSession(session!)).toEqual([{ user: user.id, link_user: user.id }])
    // How and when the user authenticated is kept (step-up reads it back), as `createSession` keeps it.
    const [row] = await schema().query(`SELECT "authTime", amr FROM authlib_sessions WHERE "sessionToken" = $1`, [createHash("sha256").update(session!).digest("base64url")])
    expect(row).toEqual({ authTime: expect.any(String), amr: ["pwd"] })
  })

  test("a first credentials sign-in (no account yet) takes the usual path: the user is stored, the account linked", async () => {
    const login = `login-${crypto.randomUUID()}`
    const { res, session } = await signIn(config(login))
    expect(res.status).toBe(302)
    const [row] = await storedSession(session!)
    const owner = await XataAdapter(schema().pool).getUserByAccount({ provider: "credentials", providerAccountId: login })
    expect(owner?.id).toBeDefined()
    expect(row).toEqual({ user: owner!.id, link_user: owner!.id })
    // The next one is a returning user's: one statement.
    await signIn(config(login))
    expect(statements).toHaveLength(1)
  })

  test("signing in again ends the browser's previous session: one more statement, not two", async () => {
    const { login } = await ada()
    const first = await signIn(config(login))
    const second = await signIn(config(login), `${COOKIE}=${first.session}`)
    expect(statements).toHaveLength(2)
    expect(await storedSession(first.session!)).toEqual([])
    expect(await storedSession(second.session!)).toHaveLength(1)
  })

  test("sign-out is one statement on the session table alone: its link row goes by the schema's cascade", async () => {
    const { user, login } = await ada()
    const { session } = await signIn(config(login))
    const cfg = config(login)
    const csrf = await Auth(new Request(`${ORIGIN}/auth/csrf`), cfg)
    const { csrfToken } = (await csrf.json()) as { csrfToken: string }
    const jar = [`${COOKIE}=${session}`, ...csrf.headers.getSetCookie().map((c) => c.split(";")[0]!)].join("; ")
    statements.length = 0
    const res = await Auth(
      new Request(`${ORIGIN}/auth/signout`, { method: "POST", headers: { cookie: jar, origin: ORIGIN, "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ csrfToken }) }),
      cfg,
    )
    expect(res.status).toBe(302)
    expect(statements).toHaveLength(1)
    expect(statements[0]).not.toContain("authlib_users_sessions")
    expect(await storedSession(session!)).toEqual([])
    expect(await schema().query(`SELECT count(*)::int AS n FROM authlib_users_sessions WHERE "user" = $1`, [user.id])).toEqual([{ n: 0 }])
  })

  /** A stored link of `email` (hashed as core stores it); the token the mail would carry. */
  async function link(email: string, expiresIn = 600_000) {
    const token = crypto.randomUUID()
    const hashed = createHash("sha256").update(`${token}${SECRET}`).digest("hex")
    await XataAdapter(schema().pool).createVerificationToken({ identifier: email, token: hashed, expires: new Date(Date.now() + expiresIn) })
    return { token, hashed }
  }

  const emailConfig = (extra: Partial<AuthConfig> = {}): AuthConfig => ({
    adapter: XataAdapter(client),
    secret: SECRET,
    trustHost: true,
    logger,
    session: { strategy: "database" },
    providers: [{ id: "email", name: "Email", type: "email", sendVerificationRequest: async () => {} } as never],
    ...extra,
  })

  /** A stored user of a new address, verified unless told, who owns its `email` account. */
  async function emailUser(emailVerified: Date | null = new Date()) {
    const adapter = XataAdapter(schema().pool)
    const email = `${crypto.randomUUID()}@example.com`
    const user = await adapter.createUser({ id: crypto.randomUUID(), email, emailVerified })
    await adapter.linkAccount({ userId: user.id, type: "email", provider: "email", providerAccountId: email })
    return { user, email }
  }

  const sessionCookieOf = (res: Response) => res.headers.getSetCookie().find((c) => c.startsWith(`${COOKIE}=`))?.split(";")[0]?.slice(COOKIE.length + 1)
  /** Statements that used a link and wrote a session at once. */
  const atOnce = () => statements.filter((s) => s.includes('"authlib_verificationTokens"') && s.includes("INSERT INTO authlib_sessions"))

  async function complete(cfg: AuthConfig, email: string, token: string) {
    const csrf = await Auth(new Request(`${ORIGIN}/auth/csrf`), cfg)
    const { csrfToken } = (await csrf.json()) as { csrfToken: string }
    const jar = csrf.headers.getSetCookie().map((c) => c.split(";")[0]!).join("; ")
    statements.length = 0
    return Auth(
      new Request(`${ORIGIN}/auth/callback/email`, {
        method: "POST",
        headers: { cookie: jar, origin: ORIGIN, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ csrfToken, token, email }),
      }),
      cfg,
    )
  }

  test("a returning e-mail user completes a link with ONE statement: link used, owner read, session and its link row written", async () => {
    const { user, email } = await emailUser()
    const { token } = await link(email)
    const res = await complete(emailConfig(), email, token)
    expect(res.status).toBe(302)
    expect(res.headers.get("location")).toBe(`${ORIGIN}/`)
    expect(statements).toHaveLength(1)
    expect(await storedSession(sessionCookieOf(res)!)).toEqual([{ user: user.id, link_user: user.id }])
    // Used up: the same link again is refused, and writes nothing.
    const again = await complete(emailConfig(), email, token)
    expect(again.headers.get("location")).toContain("error=Verification")
    expect(sessionCookieOf(again)).toBeUndefined()
    expect(statements).toHaveLength(1)
  })

  test("with session.absoluteMaxAge both one-statement sign-ins store when the session started and an expiry cut at sign-in + absoluteMaxAge; a read keeps to it", async () => {
    const cap = 3600
    const hashOf = (token: string) => createHash("sha256").update(token).digest("base64url")
    const row = async (token: string) =>
      (await schema().query(`SELECT "createdAt", expires FROM authlib_sessions WHERE "sessionToken" = $1`, [hashOf(token)]))[0] as { createdAt: Date | string; expires: Date | string }
    const { login } = await ada()
    const credentials = { ...config(login), session: { strategy: "database" as const, absoluteMaxAge: cap } }
    const before = Date.now()
    const { session: viaAccount } = await signIn(credentials)
    expect(statements).toHaveLength(1)
    const { email } = await emailUser()
    const { token } = await link(email)
    const viaLink = sessionCookieOf(await complete(emailConfig({ session: { strategy: "database", absoluteMaxAge: cap } }), email, token))
    expect(statements).toHaveLength(1)
    for (const [sessionToken, cfg] of [[viaAccount!, credentials], [viaLink!, emailConfig({ session: { strategy: "database", absoluteMaxAge: cap } })]] as const) {
      const stored = await row(sessionToken)
      const createdAt = new Date(stored.createdAt).getTime()
      expect(createdAt).toBeGreaterThanOrEqual(before - 1000)
      expect(createdAt).toBeLessThanOrEqual(Date.now())
      expect(new Date(stored.expires).getTime()).toBeLessThanOrEqual(createdAt + cap * 1000)
      const res = await Auth(new Request(`${ORIGIN}/auth/session`, { headers: { cookie: `${COOKIE}=${sessionToken}` } }), cfg)
      expect(Date.parse(((await res.json()) as { expires: string }).expires)).toBeLessThanOrEqual(createdAt + cap * 1000)
    }
  })

  test("with session.absoluteMaxAge a stored session without createdAt (moved from Auth.js) gets one on its first read, and ends that long after it", async () => {
    const cap = 3600
    const { login } = await ada()
    const { session } = await signIn(config(login))
    const hash = createHash("sha256").update(session!).digest("base64url")
    // As `migrateFromAuthJs` stores a session: no createdAt, no authTime, a long sliding expiry.
    await schema().query(`UPDATE authlib_sessions SET "createdAt" = NULL, "authTime" = NULL, expires = now() + interval '30 days' WHERE "sessionToken" = $1`, [hash])
    const cfg = { ...config(login), session: { strategy: "database" as const, absoluteMaxAge: cap } }
    const before = Date.now()
    const res = await Auth(new Request(`${ORIGIN}/auth/session`, { headers: { cookie: `${COOKIE}=${session}` } }), cfg)
    const expires = Date.parse(((await res.json()) as { expires: string }).expires)
    const [row] = (await schema().query(`SELECT "createdAt" FROM authlib_sessions WHERE "sessionToken" = $1`, [hash])) as { createdAt: Date | string | null }[]
    expect(row!.createdAt).not.toBeNull()
    const createdAt = new Date(row!.createdAt!).getTime()
    expect(createdAt).toBeGreaterThanOrEqual(before - 1000)
    expect(expires).toBeLessThanOrEqual(createdAt + cap * 1000)
  })

  test("a signIn callback, or two-factor, sees the stored user before any session: the link is used without one", async () => {
    const { user, email } = await emailUser()
    const seen: unknown[] = []
    const first = await link(email)
    const res = await complete(emailConfig({ callbacks: { signIn: ({ user }) => (seen.push(user.id), true) } }), email, first.token)
    expect(seen).toEqual([user.id])
    expect(atOnce()).toEqual([])
    expect(statements).toHaveLength(2)
    expect(await storedSession(sessionCookieOf(res)!)).toEqual([{ user: user.id, link_user: user.id }])
    const second = await link(email)
    const held = await complete(emailConfig({ twoFactor: {} }), email, second.token)
    expect(held.status).toBe(302)
    expect(atOnce()).toEqual([])
  })

  test("the first link of a new address creates the user, then the session; that user's next link takes one statement", async () => {
    const email = `${crypto.randomUUID()}@example.com`
    const first = await link(email)
    const res = await complete(emailConfig(), email, first.token)
    const owner = await XataAdapter(schema().pool).getUserByAccount({ provider: "email", providerAccountId: email })
    expect(owner).toMatchObject({ email, emailVerified: expect.any(Date) })
    expect(await storedSession(sessionCookieOf(res)!)).toEqual([{ user: owner!.id, link_user: owner!.id }])
    const second = await link(email)
    await complete(emailConfig(), email, second.token)
    expect(statements).toHaveLength(1)
  })

  test("an unverified owner is verified on the usual path (the link proves the address), not signed in at once", async () => {
    const { user, email } = await emailUser(null)
    const { token } = await link(email)
    const res = await complete(emailConfig(), email, token)
    expect(atOnce()).toHaveLength(1)
    expect(statements.length).toBeGreaterThan(1)
    expect(await XataAdapter(schema().pool).getUser(user.id)).toMatchObject({ emailVerified: expect.any(Date) })
    expect(await storedSession(sessionCookieOf(res)!)).toEqual([{ user: user.id, link_user: user.id }])
  })

  test("16 parallel completions of one link: exactly one signs in, one session is stored; an expired link signs nobody in", async () => {
    const { user, email } = await emailUser()
    const { token } = await link(email)
    logged.length = 0
    const answers = await Promise.all(Array.from({ length: 16 }, () => complete(emailConfig(), email, token)))
    expect(answers.filter((res) => sessionCookieOf(res) !== undefined)).toHaveLength(1)
    expect(answers.filter((res) => res.headers.get("location")?.includes("error=Verification"))).toHaveLength(15)
    // Each refused completion is logged once, as a refusal.
    expect(logged.filter((l) => l.code === "Verification" && (l.message[0] as { code?: string }).code === "TOKEN_INVALID")).toHaveLength(15)
    expect(await schema().query(`SELECT count(*)::int AS n FROM authlib_sessions WHERE "user" = $1`, [user.id])).toEqual([{ n: 1 }])
    const stale = await link(email, -1000)
    const res = await complete(emailConfig(), email, stale.token)
    expect(res.headers.get("location")).toContain("error=Verification")
    expect(statements).toHaveLength(1)
    expect(await schema().query(`SELECT count(*)::int AS n FROM authlib_sessions WHERE "user" = $1`, [user.id])).toEqual([{ n: 1 }])
    expect(await XataAdapter(schema().pool).getVerificationToken({ identifier: email, token: stale.hashed })).toBeNull()
  })

  test("useVerificationTokenForAccount: exactly one of concurrent callers receives the link, with the owner; an expired link is used up but signs nobody in", async () => {
    const adapter = XataAdapter(schema().pool)
    const email = `${crypto.randomUUID()}@example.com`
    const user = await adapter.createUser({ id: crypto.randomUUID(), email, emailVerified: null })
    await adapter.linkAccount({ userId: user.id, type: "email", provider: "email", providerAccountId: email })
    const { hashed } = await link(email)
    const answers = await Promise.all(
      Array.from({ length: 16 }, () => adapter.useVerificationTokenForAccount({ identifier: email, token: hashed }, { provider: "email", providerAccountId: email })),
    )
    const received = answers.filter((a) => a !== null)
    expect(received).toHaveLength(1)
    expect(received[0]).toEqual({ token: { identifier: email, token: hashed, expires: expect.any(Date) }, owner: user })
    const stale = await link(email, -1000)
    const res = await complete(emailConfig(), email, stale.token)
    expect(res.headers.get("location")).toContain("error=Verification")
    expect(await adapter.getVerificationToken({ identifier: email, token: stale.hashed })).toBeNull()
  })

  test("useVerificationTokenForAccount: no owner reads as null; an unknown token answers null and uses nothing", async () => {
    const adapter = XataAdapter(schema().pool)
    const email = `${crypto.randomUUID()}@example.com`
    const { hashed } = await link(email)
    expect(await adapter.useVerificationTokenForAccount({ identifier: email, token: "unknown" }, { provider: "email", providerAccountId: email })).toBeNull()
    expect(await adapter.useVerificationTokenForAccount({ identifier: email, token: hashed }, { provider: "email\u0000", providerAccountId: email })).toEqual({
      token: { identifier: email, token: hashed, expires: expect.any(Date) },
      owner: null,
    })
  })

  test("createSessionForAccount: an account nobody owns writes nothing and answers null", async () => {
    const adapter = XataAdapter(schema().pool)
    const before = await schema().query(`SELECT count(*)::int AS n FROM authlib_sessions`)
    const token = createHash("sha256").update(crypto.randomUUID()).digest("base64url")
    expect(await adapter.createSessionForAccount({ provider: "credentials", providerAccountId: "nobody" }, { sessionToken: token, expires: new Date(Date.now() + 60_000) })).toBeNull()
    expect(await schema().query(`SELECT count(*)::int AS n FROM authlib_sessions`)).toEqual(before)
  })

  test("createSessionForAccount: answers the session and the owner; a taken token is refused and nothing is written", async () => {
    const { user, login } = await ada()
    const adapter = XataAdapter(schema().pool)
    const sessionToken = createHash("sha256").update(crypto.randomUUID()).digest("base64url")
    const expires = new Date(Date.now() + 60_000)
    const createdAt = new Date(Date.now() - 1000)
    const stored = await adapter.createSessionForAccount({ provider: "credentials", providerAccountId: login }, { sessionToken, expires, createdAt, clientNetwork: "203.0.113.0/24" })
    expect(stored).toEqual({ session: { sessionToken, userId: user.id, expires, createdAt, clientNetwork: "203.0.113.0/24" }, user })
    const links = await schema().query(`SELECT count(*)::int AS n FROM authlib_users_sessions`)
    await expect(adapter.createSessionForAccount({ provider: "credentials", providerAccountId: login }, { sessionToken, expires })).rejects.toBeInstanceOf(XataAdapterError)
    expect(await schema().query(`SELECT count(*)::int AS n FROM authlib_users_sessions`)).toEqual(links)
    expect(await adapter.createSessionForAccount({ provider: "credentials\u0000", providerAccountId: login }, { sessionToken: "x".repeat(43), expires })).toBeNull()
  })
})
