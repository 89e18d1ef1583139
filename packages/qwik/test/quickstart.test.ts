/**
 * The README's quick start (e-mail links and database sessions) runs as written: its
 * `src/server/auth.ts` block, with its data folder moved to a temporary one, is the binding's
 * configuration; the environment is the README's variables with this test's values. The address
 * goes through `useSignIn`, nodemailer delivers the link to a local SMTP server, the link signs the
 * user in, and the session is a row in the PGlite database.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, describe, expect, it } from "vitest"
import { getSession, type QwikAuthConfig } from "../src/index.js"
import { startSmtp } from "../../providers/test/helpers.js"
import { ORIGIN } from "./harness/config.js"
import { followLink } from "./harness/email-link.js"
import { browserCookies, fakeEvent, Redirected, runAction } from "./harness/fake-event.js"
import { handle, outcome, setup } from "./harness/setup.js"

const here = dirname(fileURLToPath(import.meta.url))
const readme = readFileSync(join(here, "..", "README.md"), "utf8")

/** The fenced block after `<!-- quickstart: <name> -->` in this package's README. */
function block(name: string): string {
  const start = readme.indexOf(`<!-- quickstart: ${name} -->\n\`\`\``)
  if (start < 0) throw new Error(`README.md has no quick-start block "${name}"`)
  const body = readme.slice(readme.indexOf("\n", readme.indexOf("```", start)) + 1)
  return body.slice(0, body.indexOf("```"))
}

const dataDir = mkdtempSync(join(tmpdir(), "authlib-qwik-quickstart-"))
const moduleFile = join(here, `.quickstart-auth-${process.pid}.ts`)
let restoreEnv = () => {}
afterAll(() => {
  restoreEnv()
  rmSync(moduleFile, { force: true })
  rmSync(dataDir, { recursive: true, force: true })
})

describe("the README's Qwik City quick start", () => {
  it("sends a link through SMTP that signs the user in with a database session", async () => {
    const smtp = await startSmtp()
    try {
      const names = [...block("qwik-email/env").matchAll(/^export (\w+)=/gm)].map((m) => m[1])
      expect(names).toEqual(["AUTH_SECRET", "WEBAUTH_URL", "EMAIL_SERVER", "EMAIL_FROM"])
      const env = { AUTH_SECRET: "quickstart-secret-0123456789abcdefghijklmnop", WEBAUTH_URL: ORIGIN, EMAIL_SERVER: smtp.url, EMAIL_FROM: "Quick Start <sign-in@example.com>" }
      // The block reads EMAIL_SERVER/EMAIL_FROM from process.env when it is loaded, as an app's module does.
      const previous = { EMAIL_SERVER: process.env.EMAIL_SERVER, EMAIL_FROM: process.env.EMAIL_FROM }
      Object.assign(process.env, { EMAIL_SERVER: env.EMAIL_SERVER, EMAIL_FROM: env.EMAIL_FROM })
      restoreEnv = () => {
        for (const [key, value] of Object.entries(previous)) if (value === undefined) delete process.env[key]
        else process.env[key] = value
      }
      writeFileSync(moduleFile, block("qwik-email/src/server/auth.ts").replaceAll("./.data", join(dataDir, ".data")))
      const { authConfig } = (await import(moduleFile)) as { authConfig: QwikAuthConfig }
      const { auth } = setup(authConfig)

      // The sign-in form: CSRF first (any page load), then the action with the address.
      const page = fakeEvent(`${ORIGIN}/sign-in/`, { env })
      await handle(auth, page)
      const action = fakeEvent(`${ORIGIN}/sign-in/?qaction=abc123`, { method: "POST", env, cookie: browserCookies("", page), headers: { origin: ORIGIN, "content-type": "application/x-www-form-urlencoded" } })
      await handle(auth, action)
      const thrown = await outcome(runAction(auth.useSignIn, action, { providerId: "nodemailer", options: { email: "grace@example.com" }, redirectTo: "/account/" }))
      expect(thrown).toBeInstanceOf(Redirected)
      expect(new URL((thrown as Redirected).location).pathname).toBe("/auth/verify-request")

      await expect.poll(() => smtp.received.length, { timeout: 10_000 }).toBe(1)
      const mail = smtp.received[0]!
      expect(mail.to).toEqual(["grace@example.com"])
      const link = /https?:\/\/\S+\/auth\/callback\/nodemailer\?\S+/.exec(mail.mail.text ?? "")?.[0]
      expect(link).toBeDefined()
      const cookie = browserCookies(browserCookies("", page), action)
      const opened = await followLink(auth, link!, cookie)
      const account = fakeEvent(`${ORIGIN}/account/`, { env, cookie: browserCookies(cookie, opened) })
      await handle(auth, account)
      expect((await getSession(account)).data?.user?.email).toBe("grace@example.com")

      // Database sessions: the cookie holds a token, the PGlite database the session.
      expect(authConfig.session?.strategy).toBe("database")
      const stored = await authConfig.adapter!.getUserByEmail!("grace@example.com")
      expect(stored?.emailVerified).toBeInstanceOf(Date)
      expect(await authConfig.adapter!.listSessionsByUserId!(stored!.id)).toHaveLength(1)
    } finally {
      await smtp.close()
    }
  })
})
