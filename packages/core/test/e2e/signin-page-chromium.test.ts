/**
 * The built-in sign-in page as a new user sees it, in Debian's Chromium at 1280x800, served by
 * `toNodeHandler` with a page as long as the demo's (password, e-mail link, an OAuth provider,
 * passkeys): one label spelling, buttons on one line, an icon the page declares (no request for
 * `/favicon.ico`, nothing the CSP refuses), no error code on the page, a rate-limited password
 * form answered on the sign-in page itself, and a passkey button at `127.0.0.1` (no valid RP ID)
 * saying what to do, next to the button and in view.
 */
import { mkdtemp, rm } from "node:fs/promises"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { chromium, type BrowserContext, type Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { MemoryRateLimitStore, type AuthConfig, type OAuthConfig } from "../../src/index.js"
import { toNodeHandler } from "../../src/node/index.js"
import { credentials, SECRET } from "../helpers/harness.js"
import { emailProvider } from "../capabilities/email/helpers.js"
import { passkeyAdapter, passkeyProvider } from "../capabilities/webauthn/setup.js"

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium"
const ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"]

let context: BrowserContext
let profile: string
let server: Server
let port: number

function config(): AuthConfig {
  return {
    secret: SECRET,
    trustHost: true,
    adapter: passkeyAdapter(),
    experimental: { enableWebAuthn: true },
    logger: { error: () => {}, warn: () => {}, debug: () => {} },
    rateLimit: { store: new MemoryRateLimitStore(), credentials: { perIdentifier: { limit: 2, window: 60 }, perClient: false } },
    providers: [
      credentials({
        id: "password",
        name: "Email and password",
        credentials: { email: { label: "Email", type: "email", autocomplete: "username" }, password: { label: "Password", type: "password" } },
        authorize: async () => null,
      }),
      emailProvider({ sent: [] }, { name: "Email link" }),
      { id: "idp", name: "Demo IdP", type: "oauth", clientId: "demo", clientSecret: "demo-secret", authorization: "https://idp.invalid/authorize", token: "https://idp.invalid/token" } as OAuthConfig,
      // Passkeys belong to localhost; the page below is opened at 127.0.0.1, where browsers refuse them.
      passkeyProvider({ relyingParty: { id: "localhost", origin: `http://localhost:${port}`, name: "Test" } }),
    ],
  }
}

beforeAll(async () => {
  server = createServer()
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  port = (server.address() as AddressInfo).port
  const auth = toNodeHandler(config())
  server.on("request", (req, res) => auth(req, res, () => void res.writeHead(200, { "content-type": "text/plain" }).end("app")))
  profile = await mkdtemp(join(tmpdir(), "authlib-core-chromium-"))
  context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: ARGS, timeout: 30_000, viewport: { width: 1280, height: 800 } })
  context.setDefaultTimeout(10_000)
  await context.route(/^https?:\/\/(?!127\.0\.0\.1[:/]|localhost[:/])/, (route) => route.abort())
}, 60_000)

afterAll(async () => {
  await context?.close()
  await rm(profile, { recursive: true, force: true })
  server?.closeAllConnections()
  await new Promise((resolve) => server?.close(resolve))
})

/** Opens the sign-in page at 127.0.0.1, recording every request path and what the console said. */
async function openSignIn(query = ""): Promise<{ page: Page; paths: string[]; console: string[] }> {
  const page = await context.newPage()
  const paths: string[] = []
  const console: string[] = []
  page.on("request", (r) => paths.push(new URL(r.url()).pathname))
  page.on("console", (m) => console.push(m.text()))
  await page.goto(`http://127.0.0.1:${port}/auth/signin${query}`)
  return { page, paths, console }
}

describe("the built-in sign-in page at 1280x800", () => {
  it("one spelling of Email, every button on one line, a declared icon (no /favicon.ico, nothing refused by the CSP)", async () => {
    const { page, paths, console } = await openSignIn()
    const labels = await page.locator("label").allTextContents()
    expect(labels).toEqual(["Email", "Password", "Email"])
    expect(await page.locator("main").innerText()).not.toMatch(/E-mail/i)
    // A rectangle per line of the label's text: a wrapped label has two.
    const lines = await page.locator(".button span").evaluateAll((spans) =>
      spans.map((s) => {
        const range = document.createRange()
        range.selectNodeContents(s)
        return [s.textContent, new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size]
      }))
    expect(lines.length).toBe(4)
    for (const [text, count] of lines) expect(count, String(text)).toBe(1)
    const icon = await page.locator('link[rel="icon"]').getAttribute("href")
    expect(icon?.startsWith("data:image/svg+xml,")).toBe(true)
    // Headless Chromium fetches no icon itself: load it as an image, under the page's CSP.
    const loads = await page.evaluate((href) => new Promise((resolve) => Object.assign(new Image(), { onload: () => resolve(true), onerror: () => resolve(false), src: href })), icon!)
    expect(loads).toBe(true)
    await page.waitForLoadState("networkidle")
    expect(paths).not.toContain("/favicon.ico")
    expect(console.filter((line) => /Content Security Policy/i.test(line))).toEqual([])
    await page.close()
  })

  it("a wrong password says so without an error code; over the limit, the sign-in page says to wait (the code only in the URL)", async () => {
    const { page } = await openSignIn()
    const attempt = async () => {
      await page.fill("#p0-f0", "ada@example.com")
      await page.fill("#p0-f1", "wrong")
      await page.click('button:has-text("Sign in with Email and password")')
      await page.waitForLoadState()
    }
    await attempt()
    expect(new URL(page.url()).searchParams.get("error")).toBe("CredentialsSignin")
    expect(await page.locator(".alert").first().textContent()).toContain("Sign in failed.")
    expect(await page.locator("main").innerText()).not.toMatch(/Error code|credentials/i)
    await attempt()
    await attempt()
    const url = new URL(page.url())
    expect(url.pathname).toBe("/auth/signin")
    expect(Object.fromEntries(url.searchParams)).toMatchObject({ error: "RateLimited", code: "LIMIT_REACHED" })
    expect(await page.locator('[role="alert"]').first().textContent()).toContain("There have been too many attempts. Please wait a little, then try again.")
    expect(await page.locator("form").count()).toBeGreaterThanOrEqual(4)
    await page.close()
  })

  it("at 127.0.0.1 the passkey button says to open the site as localhost, next to the button and in view, without a raw code", async () => {
    const { page } = await openSignIn()
    await page.click('button:has-text("Sign in with Passkey")')
    const alert = page.locator("[data-passkey-error]")
    await expect.poll(() => alert.isVisible()).toBe(true)
    expect(await alert.textContent()).toContain("Open this site as localhost")
    expect(await alert.textContent()).not.toMatch(/ERROR_|connection/)
    expect(await alert.getAttribute("data-code")).toBe("INVALID_DOMAIN")
    const box = (await alert.boundingBox())!
    expect(box.y).toBeGreaterThanOrEqual(0)
    expect(box.y + box.height).toBeLessThanOrEqual(800)
    await page.close()
  })
})
