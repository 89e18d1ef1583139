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

    const login = page.locator('input[name="login"]')
    await login.waitFor()
    const idp = new URL(page.url())
    expect(idp.origin).not.toBe(server.origin)
    expect(idp.hostname).toBe("127.0.0.1")
    await screenshot(page, "idp-login")
    await login.fill("grace")
    await page.locator('input[name="password"]').fill("anything")
    await page.getByRole("button", { name: "Sign-in" }).click()

    await page.getByRole("button", { name: "Continue" }).waitFor()
    await screenshot(page, "idp-consent")
    await page.getByRole("button", { name: "Continue" }).click()

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
})
