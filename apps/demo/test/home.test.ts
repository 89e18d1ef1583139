import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { launchBrowser, screenshot, type DemoBrowser } from "./harness/browser.js"
import { startDemo, type DemoServer } from "./harness/server.js"

let server: DemoServer
let browser: DemoBrowser

beforeAll(async () => {
  server = await startDemo()
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
  await server?.stop()
})

describe("GET / (built demo in Chromium)", () => {
  it("renders the home page with its landmarks, headings and navigation", async () => {
    const page = await browser.newPage()
    const errors: string[] = []
    page.on("pageerror", (err) => errors.push(err.message))
    const response = await page.goto(`${server.origin}/`)
    expect(response?.status()).toBe(200)
    await expect(page.title()).resolves.toBe("Home · authlib demo")
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Sign-in that runs on your machine")
    expect(await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Home" }).getAttribute("aria-current")).toBe("page")
    expect(await page.getByRole("main").count()).toBe(1)
    expect(await page.getByRole("region", { name: "Your session" }).textContent()).toContain("You are not signed in.")
    expect(await page.getByRole("heading", { level: 3 }).allTextContents()).toEqual(["E-mail and password", "Demo IdP", "Magic link"])
    await screenshot(page, "home")
    expect(errors).toEqual([])
    await page.close()
  })

  it("keeps authlib's built-in sign-in page reachable at /auth/signin, listing every provider", async () => {
    const page = await browser.newPage()
    const response = await page.goto(`${server.origin}/auth/signin`)
    expect(response?.status()).toBe(200)
    const text = (await page.textContent("body")) ?? ""
    for (const name of ["E-mail and password", "Demo IdP", "E-mail link"]) expect(text).toContain(name)
    await screenshot(page, "builtin-sign-in")
    await page.close()
  })

  it("answers an unknown path with 404", async () => {
    const page = await browser.newPage()
    const response = await page.goto(`${server.origin}/no-such-page/`)
    expect(response?.status()).toBe(404)
    await page.close()
  })
})
