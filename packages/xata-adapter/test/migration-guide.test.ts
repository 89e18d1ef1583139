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
import { afterAll, expect, it } from "vitest"
import { runCli } from "../src/cli-run.js"

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
