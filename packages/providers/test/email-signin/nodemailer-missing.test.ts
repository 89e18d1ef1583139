/**
 * The Nodemailer provider on a server where the optional peer `nodemailer` is not installed: the
 * user is told the mail could not be sent (a fault of the site, not of the address they typed),
 * the redirect keeps the error's code, the log says what to install, and no token is left behind.
 */
import { afterAll, beforeAll, expect, it, vi } from "vitest"
import { Browser } from "./helpers/browser.js"
import { APP, setup, startDatabase, type Database } from "./helpers/setup.js"

vi.mock("nodemailer", () => {
  throw new Error("Cannot find package 'nodemailer' imported from @authlib/providers")
})

let database: Database
beforeAll(async () => {
  database = await startDatabase()
}, 30_000)
afterAll(async () => {
  await database?.db.close()
})

it("nodemailer not installed: error page with NODEMAILER_MISSING, a server-side message, nothing stored", async () => {
  const { config, log } = setup(database, "smtp://127.0.0.1:9")
  const browser = new Browser(config, APP)
  const res = await browser.requestLink("jane@example.com")
  expect(res.headers.get("location")).toBe(`${APP}/auth/error?error=EmailSignInError&code=NODEMAILER_MISSING`)
  expect(await database.count("verificationTokens")).toBe(0)
  const logged = log.entries.filter((e) => e.level === "error").map((e) => String((e.message[0] as Error).message))
  expect(logged.join("\n")).toContain("pnpm add nodemailer")
  const page = await browser.request(res.headers.get("location")!)
  expect(page.status).toBe(500)
  const text = await page.text()
  expect(text).toContain("The problem is on this site&#39;s side")
  expect(text).not.toContain("Check the address")
})
