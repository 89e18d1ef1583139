/**
 * `@authlib/nextjs/react` in Debian's Chromium against the fixture app (`next start`): `useSession`
 * shows a session a server action changed without a reload (the provider takes the new `session`
 * prop of the layout Next renders again), `update()` from the client, and a second tab following
 * every change through BroadcastChannel, sign-out included.
 */
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { chromium, type BrowserContext, type Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { startFixture, type NextVersion, type RunningApp } from "../helpers/next-app.js"

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium"
const ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"]

let context: BrowserContext
let profile: string

beforeAll(async () => {
  profile = await mkdtemp(join(tmpdir(), "authlib-nextjs-chromium-"))
  context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: ARGS, timeout: 30_000 })
  context.setDefaultTimeout(10_000)
  await context.route(/^https?:\/\/(?!127\.0\.0\.1[:/]|localhost[:/])/, (route) => route.abort())
}, 60_000)

afterAll(async () => {
  await context?.close()
  await rm(profile, { recursive: true, force: true })
})

const textOf = (page: Page, id: string) => page.locator(`#${id}`).textContent()

/** Marks the document, so a test can tell that the page was not reloaded. */
async function mark(page: Page): Promise<void> {
  await page.evaluate(() => ((window as { __kept?: boolean }).__kept = true))
}
const kept = (page: Page) => page.evaluate(() => (window as { __kept?: boolean }).__kept === true)

describe.each(["16", "15"] as NextVersion[])("Next %s in Chromium", (version) => {
  let app: RunningApp
  beforeAll(async () => {
    app = await startFixture(version)
    await context.clearCookies()
  })
  afterAll(async () => {
    await app?.stop()
  })

  it("useSession follows server actions without a reload, client updates, and other tabs", async () => {
    const first = await context.newPage()
    await first.goto(`${app.url}/client`)
    await expect.poll(() => textOf(first, "status")).toBe("unauthenticated")

    // Sign in through the server action (JavaScript on: Next's client posts it).
    await first.goto(`${app.url}/`)
    await first.locator("#sign-in button").click()
    await expect.poll(() => first.locator("#session").textContent()).toContain("Ada Lovelace")

    await first.goto(`${app.url}/client`)
    await expect.poll(() => textOf(first, "name")).toBe("Ada Lovelace")
    const second = await context.newPage()
    await second.goto(`${app.url}/client`)
    await expect.poll(() => textOf(second, "name")).toBe("Ada Lovelace")
    await mark(first)
    await mark(second)

    // A server action changes the session: this tab shows it without a reload, the other follows.
    await first.locator("#rename-submit").click()
    await expect.poll(() => textOf(first, "name")).toBe("Ada Renamed")
    await expect.poll(() => textOf(second, "name")).toBe("Ada Renamed")

    // update() from the client.
    await first.locator("#client-update").click()
    await expect.poll(() => textOf(first, "name")).toBe("Client Named")
    await expect.poll(() => textOf(second, "name")).toBe("Client Named")

    // Sign-out from the client: both tabs.
    await first.locator("#client-sign-out").click()
    await expect.poll(() => textOf(first, "status")).toBe("unauthenticated")
    await expect.poll(() => textOf(second, "status")).toBe("unauthenticated")
    expect(await kept(first)).toBe(true)
    expect(await kept(second)).toBe(true)
    await first.close()
    await second.close()
  })

  it("client signIn (redirect: false) updates useSession here and in the other tab; helpers answer; required sends to sign-in", async () => {
    await context.clearCookies()
    const first = await context.newPage()
    await first.goto(`${app.url}/client`)
    await expect.poll(() => textOf(first, "helpers")).toBe("credentials,example|true|none")
    const second = await context.newPage()
    await second.goto(`${app.url}/client`)
    await expect.poll(() => textOf(second, "status")).toBe("unauthenticated")

    await first.locator("#client-wrong-password").click()
    await expect.poll(() => textOf(first, "sign-in-result")).toBe("false:CredentialsSignin:wrong_password")
    await first.locator("#client-sign-in").click()
    await expect.poll(() => textOf(first, "sign-in-result")).toBe("true:")
    await expect.poll(() => textOf(first, "name")).toBe("Ada Lovelace")
    await expect.poll(() => textOf(second, "name")).toBe("Ada Lovelace")
    await second.goto(`${app.url}/required`)
    await expect.poll(() => textOf(second, "required")).toBe("authenticated:ada@example.test")

    await context.clearCookies()
    await second.goto(`${app.url}/required`)
    await second.waitForURL((url) => url.pathname === "/api/auth/signin" && url.searchParams.get("error") === "SessionRequired")
    expect(new URL(second.url()).searchParams.get("callbackUrl")).toBe(`${app.url}/required`)
    await first.close()
    await second.close()
  })
})
