/**
 * The commands of docs/migrating-from-authjs.md, run as written (through the CLI's entry point,
 * `$DATABASE_URL` a PGlite folder holding an Auth.js app's `@auth/pg-adapter` tables): the guide's
 * snippet is the tested path.
 */
import { readFileSync } from "node:fs"
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { PGlite } from "@electric-sql/pglite"
import { afterAll, describe, expect, it } from "vitest"
import { Auth } from "@authlib/core"
import { runCli } from "../src/cli-run.js"
import { migrate, XataAdapter } from "../src/index.js"

const guide = readFileSync(new URL("../../../docs/migrating-from-authjs.md", import.meta.url), "utf8")

/** The `npx authlib-xata ...` lines of the guide's shell block about database sessions. */
function guideCommands(): string[][] {
  const block = /```sh\n([\s\S]*?)```/.exec(guide)?.[1] ?? ""
  return block.split("\n").filter((line) => line.startsWith("npx authlib-xata ")).map((line) => line.slice("npx authlib-xata ".length).split(" "))
}

const dirs: string[] = []
afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))))

it("the guide's three commands migrate, dry-run and move an Auth.js database", async () => {
  const dir = await mkdtemp(join(tmpdir(), "authlib-guide-"))
  dirs.push(dir)
  const seed = new PGlite(dir)
  await seed.exec(`
    CREATE TABLE verification_token (identifier TEXT NOT NULL, expires TIMESTAMPTZ NOT NULL, token TEXT NOT NULL, PRIMARY KEY (identifier, token));
    CREATE TABLE accounts (id SERIAL, "userId" INTEGER NOT NULL, type VARCHAR(255) NOT NULL, provider VARCHAR(255) NOT NULL, "providerAccountId" VARCHAR(255) NOT NULL,
      refresh_token TEXT, access_token TEXT, expires_at BIGINT, id_token TEXT, scope TEXT, session_state TEXT, token_type TEXT, PRIMARY KEY (id));
    CREATE TABLE sessions (id SERIAL, "userId" INTEGER NOT NULL, expires TIMESTAMPTZ NOT NULL, "sessionToken" VARCHAR(255) NOT NULL, PRIMARY KEY (id));
    CREATE TABLE users (id SERIAL, name VARCHAR(255), email VARCHAR(255), "emailVerified" TIMESTAMPTZ, image TEXT, PRIMARY KEY (id));
    INSERT INTO users (name, email) VALUES ('Ada', 'ada@example.com');
    INSERT INTO accounts ("userId", type, provider, "providerAccountId") VALUES (1, 'oauth', 'github', '1815');
    INSERT INTO sessions ("userId", expires, "sessionToken") VALUES (1, now() + interval '10 days', 'raw-session-token');
  `)
  await seed.close()

  const commands = guideCommands()
  expect(commands.map((c) => c[0])).toEqual(["migrate", "migrate-from-authjs", "migrate-from-authjs"])
  const outputs: string[] = []
  for (const args of commands) {
    const argv = args.map((a) => a.replace(/^"\$DATABASE_URL"$/, `file:${dir}`))
    const out: string[] = []
    const err: string[] = []
    expect(await runCli(argv, { out: (l) => out.push(l), err: (l) => err.push(l), env: {} }), err.join("\n")).toBe(0)
    outputs.push(out.join("\n"))
  }
  expect(outputs[0]).toMatch(/^applied migrations 1, 2, 3/)
  expect(outputs[1]).toBe("dry run: would copy 1 users, 1 accounts, 1 sessions, 0 verification tokens from pg-adapter; nothing was written")
  expect(outputs[2]).toBe("copied 1 users, 1 accounts, 1 sessions, 0 verification tokens from pg-adapter")

  const db = new PGlite(dir)
  const sessions = await db.query<{ user: string }>(`SELECT "user" FROM authlib_sessions WHERE "sessionToken" = rtrim(translate(encode(sha256('authjs.raw-session-token'::bytea), 'base64'), '+/', '-_'), '=')`)
  expect(sessions.rows).toEqual([{ user: "1" }])
  await db.close()
})

it("refuses a missing or unknown --from, and a database without the Auth.js tables, with a clear line", async () => {
  const err: string[] = []
  const io = { out: () => {}, err: (l: string) => void err.push(l), env: {} }
  expect(await runCli(["migrate-from-authjs", "--database-url", "file:/nonexistent"], io)).toBe(2)
  expect(await runCli(["migrate-from-authjs", "--from", "prisma", "--database-url", "file:/nonexistent"], io)).toBe(2)
  expect(err.join("\n")).toContain("needs --from pg-adapter or --from xata-adapter")
  const dir = await mkdtemp(join(tmpdir(), "authlib-guide-empty-"))
  dirs.push(dir)
  expect(await runCli(["migrate-from-authjs", "--from", "pg-adapter", "--database-url", `file:${dir}`], io)).toBe(1)
  expect(err.at(-1)).toMatch(/^migrate-from-authjs failed: The Auth\.js tables of pg-adapter are not in this database \(missing: users, accounts, sessions, verification_token\)$/)
})

/** The guide's SQL block for Prisma and Drizzle (`<!-- guide: prisma-drizzle-sql -->`). */
function guideSql(): string {
  const marker = "<!-- guide: prisma-drizzle-sql -->\n```sql\n"
  const start = guide.indexOf(marker)
  if (start < 0) throw new Error("the guide has no prisma-drizzle-sql block")
  const body = guide.slice(start + marker.length)
  return body.slice(0, body.indexOf("```"))
}

/**
 * The tables of an Auth.js app, as `prisma migrate` makes them from the Prisma schema in the Auth.js
 * docs, and as Drizzle's default PostgreSQL schema of `@auth/drizzle-adapter` makes them: text ids,
 * `timestamp` without time zone (written in UTC), no id on accounts and sessions; and those of a
 * NextAuth.js v4 app on Prisma, with the session cookie each app sets.
 */
const LAYOUTS = {
  prisma: {
    cookie: "authjs.session-token",
    names: { user: `"User"`, account: `"Account"`, session: `"Session"`, token: `"VerificationToken"` },
    ddl: `
      CREATE TABLE "User" ("id" TEXT NOT NULL, "name" TEXT, "email" TEXT NOT NULL, "emailVerified" TIMESTAMP(3), "image" TEXT,
        "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP, "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP, CONSTRAINT "User_pkey" PRIMARY KEY ("id"));
      CREATE TABLE "Account" ("userId" TEXT NOT NULL, "type" TEXT NOT NULL, "provider" TEXT NOT NULL, "providerAccountId" TEXT NOT NULL, "refresh_token" TEXT,
        "access_token" TEXT, "expires_at" INTEGER, "token_type" TEXT, "scope" TEXT, "id_token" TEXT, "session_state" TEXT,
        "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP, "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
        CONSTRAINT "Account_pkey" PRIMARY KEY ("provider", "providerAccountId"));
      CREATE TABLE "Session" ("sessionToken" TEXT NOT NULL, "userId" TEXT NOT NULL, "expires" TIMESTAMP(3) NOT NULL,
        "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP, "updatedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP);
      CREATE UNIQUE INDEX "Session_sessionToken_key" ON "Session"("sessionToken");
      CREATE TABLE "VerificationToken" ("identifier" TEXT NOT NULL, "token" TEXT NOT NULL, "expires" TIMESTAMP(3) NOT NULL,
        CONSTRAINT "VerificationToken_pkey" PRIMARY KEY ("identifier", "token"));`,
  },
  drizzle: {
    cookie: "authjs.session-token",
    names: { user: `"user"`, account: `"account"`, session: `"session"`, token: `"verificationToken"` },
    ddl: `
      CREATE TABLE "user" ("id" text PRIMARY KEY NOT NULL, "name" text, "email" text UNIQUE, "emailVerified" timestamp, "image" text);
      CREATE TABLE "account" ("userId" text NOT NULL REFERENCES "user"("id") ON DELETE cascade, "type" text NOT NULL, "provider" text NOT NULL,
        "providerAccountId" text NOT NULL, "refresh_token" text, "access_token" text, "expires_at" integer, "token_type" text, "scope" text,
        "id_token" text, "session_state" text, CONSTRAINT "account_provider_providerAccountId_pk" PRIMARY KEY("provider", "providerAccountId"));
      CREATE TABLE "session" ("sessionToken" text PRIMARY KEY NOT NULL, "userId" text NOT NULL REFERENCES "user"("id") ON DELETE cascade, "expires" timestamp NOT NULL);
      CREATE TABLE "verificationToken" ("identifier" text NOT NULL, "token" text NOT NULL, "expires" timestamp NOT NULL,
        CONSTRAINT "verificationToken_identifier_token_pk" PRIMARY KEY("identifier", "token"));`,
  },
  /**
   * A NextAuth.js v4 app on `@next-auth/prisma-adapter`, with the schema of v4's docs: the same table
   * and column names, plus an `id` on accounts and sessions and no `createdAt`/`updatedAt`. The `id`
   * defaults stand in for Prisma's client-side `cuid()`; its session cookie is v4's.
   */
  "prisma (NextAuth.js v4)": {
    cookie: "next-auth.session-token",
    names: { user: `"User"`, account: `"Account"`, session: `"Session"`, token: `"VerificationToken"` },
    ddl: `
      CREATE TABLE "Account" ("id" TEXT NOT NULL DEFAULT md5(random()::text), "userId" TEXT NOT NULL, "type" TEXT NOT NULL, "provider" TEXT NOT NULL,
        "providerAccountId" TEXT NOT NULL, "refresh_token" TEXT, "access_token" TEXT, "expires_at" INTEGER, "token_type" TEXT, "scope" TEXT,
        "id_token" TEXT, "session_state" TEXT, CONSTRAINT "Account_pkey" PRIMARY KEY ("id"));
      CREATE TABLE "Session" ("id" TEXT NOT NULL DEFAULT md5(random()::text), "sessionToken" TEXT NOT NULL, "userId" TEXT NOT NULL,
        "expires" TIMESTAMP(3) NOT NULL, CONSTRAINT "Session_pkey" PRIMARY KEY ("id"));
      CREATE TABLE "User" ("id" TEXT NOT NULL, "name" TEXT, "email" TEXT, "emailVerified" TIMESTAMP(3), "image" TEXT, CONSTRAINT "User_pkey" PRIMARY KEY ("id"));
      CREATE TABLE "VerificationToken" ("identifier" TEXT NOT NULL, "token" TEXT NOT NULL, "expires" TIMESTAMP(3) NOT NULL);
      CREATE UNIQUE INDEX "Account_provider_providerAccountId_key" ON "Account"("provider", "providerAccountId");
      CREATE UNIQUE INDEX "Session_sessionToken_key" ON "Session"("sessionToken");
      CREATE UNIQUE INDEX "User_email_key" ON "User"("email");
      CREATE UNIQUE INDEX "VerificationToken_token_key" ON "VerificationToken"("token");
      CREATE UNIQUE INDEX "VerificationToken_identifier_token_key" ON "VerificationToken"("identifier", "token");`,
  },
} as const

describe.each(Object.entries(LAYOUTS))("the guide's SQL on %s's tables", (_, layout) => {
  it("copies users, accounts, live sessions and tokens (UTC kept, run twice), and Auth.js's cookie signs the user in on authlib", async () => {
    const db = new PGlite()
    // The session's time zone is not UTC: the block must still read the timestamps as UTC.
    await db.exec(`SET TimeZone = 'America/New_York';${layout.ddl}`)
    const t = layout.names
    await db.exec(`
      INSERT INTO ${t.user} (id, name, email, "emailVerified") VALUES ('clx_ada', 'Ada', 'ada@example.com', '2026-01-02 03:04:05');
      INSERT INTO ${t.account} ("userId", type, provider, "providerAccountId", access_token, expires_at) VALUES ('clx_ada', 'oauth', 'github', '1815', 'gho_x', 1900000000);
      INSERT INTO ${t.session} ("sessionToken", "userId", expires) VALUES ('raw-live-token', 'clx_ada', '2030-01-01 00:00:00'), ('raw-old-token', 'clx_ada', '2020-01-01 00:00:00');
      INSERT INTO ${t.token} (identifier, token, expires) VALUES ('ada@example.com', 'hashed-by-authjs', '2030-01-01 00:00:00');
    `)
    await migrate(db)
    // Written for Prisma's names; for Drizzle's, replaced as the guide says.
    const sql = guideSql()
      .replaceAll(`"User"`, t.user)
      .replaceAll(`"Account"`, t.account)
      .replaceAll(`"Session"`, t.session)
      .replaceAll(`"VerificationToken"`, t.token)
    const counts = async () =>
      (await db.query<Record<string, number>>(`SELECT (SELECT count(*) FROM authlib_users)::int AS users, (SELECT count(*) FROM authlib_accounts)::int AS accounts,
        (SELECT count(*) FROM authlib_users_accounts)::int AS links, (SELECT count(*) FROM authlib_sessions)::int AS sessions,
        (SELECT count(*) FROM authlib_users_sessions)::int AS "sessionLinks", (SELECT count(*) FROM "authlib_verificationTokens")::int AS tokens`)).rows[0]
    await db.exec(sql)
    const once = await counts()
    expect(once).toEqual({ users: 1, accounts: 1, links: 1, sessions: 1, sessionLinks: 1, tokens: 1 })
    await db.exec(sql)
    expect(await counts()).toEqual(once)

    const adapter = XataAdapter(db)
    expect(await adapter.getUser("clx_ada")).toEqual({ id: "clx_ada", name: "Ada", email: "ada@example.com", emailVerified: new Date("2026-01-02T03:04:05Z"), image: null })
    expect(await adapter.getUserByAccount({ provider: "github", providerAccountId: "1815" })).toMatchObject({ id: "clx_ada" })
    const expires = await db.query<{ expires: Date }>(`SELECT expires FROM authlib_sessions`)
    expect(expires.rows[0]!.expires.toISOString()).toBe("2030-01-01T00:00:00.000Z")
    expect(await adapter.useVerificationToken({ identifier: "ada@example.com", token: "hashed-by-authjs" })).toMatchObject({ expires: new Date("2030-01-01T00:00:00Z") })

    const config = {
      adapter,
      providers: [{ id: "email", name: "Email", type: "email" as const, sendVerificationRequest: () => {} }],
      secret: "guide-secret-0123456789abcdefghijklmnopqrstuvwxyz",
      trustHost: true,
      session: { strategy: "database" as const },
      logger: { error: () => {}, warn: () => {}, debug: () => {} },
    }
    const res = await Auth(new Request("http://localhost:3000/auth/session", { headers: { cookie: `${layout.cookie}=raw-live-token` } }), config)
    expect(await res.json()).toMatchObject({ user: { email: "ada@example.com", name: "Ada" } })
    expect(res.headers.getSetCookie().join("\n")).toContain("authlib.session-token=authjs.raw-live-token")
    expect(res.headers.getSetCookie().join("\n")).toContain(`${layout.cookie}=;`)
    const old = await Auth(new Request("http://localhost:3000/auth/session", { headers: { cookie: `${layout.cookie}=raw-old-token` } }), config)
    expect(await old.json()).toBeNull()
    await db.close()
  })
})
