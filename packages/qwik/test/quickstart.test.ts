/**
 * The README's quick start (e-mail links and database sessions) runs as written. Its three files
 * (`<app>/src/server/auth.ts`, `<app>/src/routes/plugin@auth.ts`, `<app>/src/routes/index.tsx`) go into an app folder
 * and type-check as an app's (tsc 5.9 and 7, `~/*` paths, Qwik's JSX, this package's built types). Then the
 * plugin file, through Qwik's optimizer as in an app, is the binding: `~/server/auth` becomes the
 * path the alias stands for, the data folder a temporary one, the environment the README's
 * variables with this test's values. The address goes through `useSignIn`, nodemailer delivers the
 * link to a local SMTP server, the link signs the user in, `useSession` answers the user, the session
 * is a row in the PGlite database, `useSignOut` ends it, and authlib printed nothing on the way.
 */
import { execFile } from "node:child_process"
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { afterAll, describe, expect, it, vi } from "vitest"
import type { QwikAuthConfig } from "../src/index.js"
import { startSmtp } from "../../providers/test/helpers.js"
import { ORIGIN } from "./harness/config.js"
import { followLink } from "./harness/email-link.js"
import { browserCookies, fakeEvent, Redirected, runAction, runLoader, type FakeInit } from "./harness/fake-event.js"
import { handle, outcome, type TestAuth } from "./harness/setup.js"

const here = dirname(fileURLToPath(import.meta.url))
const readme = readFileSync(join(here, "..", "README.md"), "utf8")
/** The app is type-checked with the pinned 5.9 and with TypeScript 7, what `npm install -D typescript` installs today. */
const COMPILERS: [version: string, tsc: string][] = [
  ["5.9", join(here, "..", "..", "..", "node_modules", "typescript", "bin", "tsc")],
  ["7", join(here, "..", "node_modules", "typescript7", "bin", "tsc")],
]

/** The fenced block after `<!-- quickstart: <name> -->` in this package's README. */
function block(name: string): string {
  const start = readme.indexOf(`<!-- quickstart: ${name} -->\n\`\`\``)
  if (start < 0) throw new Error(`README.md has no quick-start block "${name}"`)
  const body = readme.slice(readme.indexOf("\n", readme.indexOf("```", start)) + 1)
  return body.slice(0, body.indexOf("```"))
}

/** An app folder inside the package (so it resolves this package's dependencies), gitignored. */
const app = mkdtempSync(join(here, ".quickstart-"))
const dataDir = mkdtempSync(join(tmpdir(), "authlib-qwik-quickstart-"))
let restoreEnv = () => {}
afterAll(() => {
  restoreEnv()
  rmSync(app, { recursive: true, force: true })
  rmSync(dataDir, { recursive: true, force: true })
})

function writeApp(files: Record<string, string>) {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(app, path)), { recursive: true })
    writeFileSync(join(app, path), text)
  }
}

/** A Qwik City app's compiler settings (its `tsconfig.json`), with library checks skipped as its starter does. */
const APP_TSCONFIG = {
  compilerOptions: {
    target: "ES2022", module: "ES2022", moduleResolution: "bundler", lib: ["ES2022", "DOM", "DOM.Iterable"],
    jsx: "react-jsx", jsxImportSource: "@builder.io/qwik", strict: true, noEmit: true, skipLibCheck: true,
    types: ["node"], paths: { "~/*": ["./src/*"] },
  },
  include: ["src"],
}

/** Sets the variables the module reads from `process.env` when it loads, until the file ends. */
function setProcessEnv(values: Record<string, string>) {
  const previous = Object.fromEntries(Object.keys(values).map((k) => [k, process.env[k]]))
  Object.assign(process.env, values)
  restoreEnv = () => {
    for (const [key, value] of Object.entries(previous)) if (value === undefined) delete process.env[key]
    else process.env[key] = value
  }
}

describe("the README's Qwik City quick start", () => {
  it("type-checks as an app; sends a link through SMTP that signs the user in with a database session; prints nothing", async () => {
    const smtp = await startSmtp()
    const printed: unknown[][] = []
    try {
      expect([...block("qwik-email/env").matchAll(/^export (\w+)=/gm)].map((m) => m[1])).toEqual(["AUTH_SECRET", "WEBAUTH_URL", "EMAIL_SERVER", "EMAIL_FROM"])
      const env = { AUTH_SECRET: "quickstart-secret-0123456789abcdefghijklmnop", WEBAUTH_URL: ORIGIN, EMAIL_SERVER: smtp.url, EMAIL_FROM: "Quick Start <sign-in@example.com>" }
      writeApp({
        "tsconfig.json": JSON.stringify(APP_TSCONFIG),
        "src/server/auth.ts": block("qwik-email/src/server/auth.ts").replaceAll("./.data", join(dataDir, ".data")),
        "src/routes/plugin@auth.ts": block("qwik-email/src/routes/plugin@auth.ts"),
        "src/routes/index.tsx": block("qwik-email/src/routes/index.tsx"),
      })
      const typecheck = Promise.all(COMPILERS.map(([version, tsc]) =>
        promisify(execFile)("node", [tsc, "-p", app], { timeout: 120_000 }).then(() => "", (err: { stdout?: string }) => `TypeScript ${version}: ${err.stdout ?? String(err)}`)))

      // Everything authlib would print from here on (its logger writes to the console).
      for (const level of ["log", "info", "warn", "error", "debug"] as const) vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void printed.push([level, ...args]))
      // The plugin, as the app's router loads it; its config module reads EMAIL_* from process.env.
      setProcessEnv({ EMAIL_SERVER: env.EMAIL_SERVER, EMAIL_FROM: env.EMAIL_FROM })
      // A copy beside the app's sources (tsc is reading those), its `~/` import pointing where the alias does.
      const plugin = join(app, "plugin@auth.ts")
      writeFileSync(plugin, block("qwik-email/src/routes/plugin@auth.ts").replace('import("~/server/auth")', `import(${JSON.stringify(join(app, "src", "server", "auth.ts"))})`))
      const auth = (await import(plugin)) as TestAuth
      const { authConfig } = (await import(join(app, "src", "server", "auth.ts"))) as { authConfig: QwikAuthConfig }
      const server: FakeInit = { env, clientAddress: "203.0.113.9" }

      // The page with the form (any request runs the plugin), then the form's action with the address.
      const page = fakeEvent(`${ORIGIN}/`, server)
      await handle(auth, page)
      expect(await runLoader(auth.useSession, page)).toBeNull()
      const action = fakeEvent(`${ORIGIN}/?qaction=abc123`, { ...server, method: "POST", cookie: browserCookies("", page), headers: { origin: ORIGIN, "content-type": "application/x-www-form-urlencoded" } })
      await handle(auth, action)
      const thrown = await outcome(runAction(auth.useSignIn, action, { providerId: "nodemailer", options: { email: "grace@example.com" } }))
      expect(thrown).toBeInstanceOf(Redirected)
      expect(new URL((thrown as Redirected).location).pathname).toBe("/auth/verify-request")

      await expect.poll(() => smtp.received.length, { timeout: 10_000 }).toBe(1)
      const mail = smtp.received[0]!
      expect(mail.to).toEqual(["grace@example.com"])
      expect(mail.mail.from?.value).toEqual([{ address: "sign-in@example.com", name: "Quick Start" }])
      const link = /https?:\/\/\S+\/auth\/callback\/nodemailer\?\S+/.exec(mail.mail.text ?? "")?.[0]
      expect(link?.startsWith(`${ORIGIN}/auth/callback/nodemailer?`)).toBe(true)
      const cookie = browserCookies(browserCookies("", page), action)
      const opened = await followLink(auth, link!, cookie, server)
      const home = fakeEvent(`${ORIGIN}/`, { ...server, cookie: browserCookies(cookie, opened) })
      await handle(auth, home)
      expect(await runLoader(auth.useSession, home)).toMatchObject({ user: { email: "grace@example.com" } })

      // Database sessions: the cookie holds a token, the PGlite database the session.
      const stored = await authConfig.adapter!.getUserByEmail!("grace@example.com")
      expect(stored?.emailVerified).toBeInstanceOf(Date)
      expect(await authConfig.adapter!.listSessionsByUserId!(stored!.id)).toHaveLength(1)

      // The page's other form: sign out ends the database session.
      const signOut = fakeEvent(`${ORIGIN}/?qaction=def456`, { ...server, method: "POST", cookie: browserCookies(cookie, opened), headers: { origin: ORIGIN, "content-type": "application/x-www-form-urlencoded" } })
      await handle(auth, signOut)
      expect(await outcome(runAction(auth.useSignOut, signOut, {}))).toBeInstanceOf(Redirected)
      expect(await authConfig.adapter!.listSessionsByUserId!(stored!.id)).toHaveLength(0)

      // What the README says a first run prints: nothing of authlib's.
      expect(printed).toEqual([])
      expect(await typecheck).toEqual(["", ""])
    } finally {
      vi.restoreAllMocks()
      await smtp.close()
    }
  }, 180_000)
})
