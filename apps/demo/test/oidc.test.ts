import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { launchBrowser, screenshot, type DemoBrowser } from "./harness/browser.js"
import { startDemo, type DemoServer } from "./harness/server.js"

let server: DemoServer
let browser: DemoBrowser
let dataDir: string

beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "authlib-demo-data-"))
  server = await startDemo({ DEMO_DATA_DIR: dataDir })
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
  if (dataDir) await rm(dataDir, { recursive: true, force: true })
})

describe("sign-in with the Demo IdP (local OpenID provider, authorization code + PKCE)", () => {
  it("from the home page's useSignIn button, goes through the IdP's login and consent pages and comes back signed in", async () => {
    const page = await browser.newPage()
    const errors: string[] = []
    page.on("pageerror", (err) => errors.push(err.message))
    await page.goto(`${server.origin}/`)
    const status = page.getByRole("region", { name: "Your session" })
    expect(await status.textContent()).toContain("You are not signed in.")
    await status.getByRole("button", { name: "Continue with Demo IdP" }).click()

    await page.waitForURL((url) => url.origin !== server.origin)
    await page.getByRole("heading", { name: "Sign in", exact: true }).waitFor()
    const idp = new URL(page.url())
    expect(idp.origin).not.toBe(server.origin)
    expect(idp.hostname).toBe("127.0.0.1")
    await page.getByLabel("User name").fill("grace")
    await page.getByLabel("Password").fill("wrong")
    await page.getByRole("button", { name: "Sign in" }).click()
    expect(await page.getByRole("alert").textContent()).toBe("Unknown user name or wrong password.")
    await screenshot(page, "idp-login")
    await page.getByLabel("User name").fill("grace")
    await page.getByLabel("Password").fill("idp-demo")
    await page.getByRole("button", { name: "Sign in" }).click()

    await page.getByRole("heading", { name: "Allow access?" }).waitFor()
    expect(await page.locator("main").textContent()).toContain("grace")
    await screenshot(page, "idp-consent")
    await page.getByRole("button", { name: "Allow" }).click()

    await page.waitForURL(`${server.origin}/account/`)
    expect(await page.locator(".facts dd").first().textContent()).toBe("Grace Hopper")
    expect(await page.locator(".facts dd").nth(1).textContent()).toBe("grace.hopper@idp.demo")
    await page.reload()
    expect(await page.locator(".who").textContent()).toBe("Grace Hopper")
    await screenshot(page, "account-idp")

    await page.goto(`${server.origin}/`)
    expect(await status.textContent()).toContain("Signed in as Grace Hopper (grace.hopper@idp.demo).")
    await screenshot(page, "home-signed-in")
    await status.getByRole("button", { name: "Sign out" }).click()
    await status.getByText("You are not signed in.").waitFor()
    expect((await browser.context.cookies(server.origin)).some((c) => c.name === "authlib.session-token")).toBe(false)
    expect(errors).toEqual([])
    await page.close()
  })

  it("cancelling at the IdP's consent page signs no one in and ends on an error, not a crash", async () => {
    // A new visitor: no app cookies and no session at the IdP from the test before.
    await browser.context.clearCookies()
    const page = await browser.newPage()
    await page.goto(`${server.origin}/sign-in/`)
    await page.getByRole("button", { name: "Continue with Demo IdP" }).click()
    await page.getByLabel("User name").fill("alan")
    await page.getByLabel("Password").fill("idp-demo")
    await page.getByRole("button", { name: "Sign in" }).click()
    await page.getByRole("button", { name: "Cancel" }).click()
    await page.waitForURL((url) => url.origin === server.origin && url.pathname.startsWith("/auth/error"))
    expect(new URL(page.url()).searchParams.get("error")).toBeTruthy()
    expect((await browser.context.cookies(server.origin)).some((c) => c.name === "authlib.session-token")).toBe(false)
    await screenshot(page, "idp-cancelled")
    await page.close()
  })
})
