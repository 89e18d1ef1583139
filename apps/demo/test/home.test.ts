import { readdir, readFile } from "node:fs/promises"
import { describe, expect, it } from "vitest"
import { screenshot } from "./harness/browser.js"
import { rawGet } from "./harness/http.js"
import { useDemo } from "./harness/use-demo.js"

const demo = useDemo()

describe("starting the demo", () => {
  it("prints only what a user can act on: the generated secret, the address, the passkey hint and the experimental-WebAuthn warning the spec requires", async () => {
    // Pages have been served by now, so the configuration (IdP, inbox, database) has started.
    expect((await fetch(`${demo.server.origin}/auth/providers`)).status).toBe(200)
    const lines = demo.server.output().split("\n").filter((l) => l.trim() !== "" && !l.startsWith(">"))
    const warnings = lines.filter((l) => /warn/i.test(l))
    expect(warnings).toEqual([expect.stringContaining("[authlib][warn][experimental-webauthn]")])
    expect(lines.join("\n")).not.toMatch(/oidc-provider|deprecat|stack|    at /i)
  })
})

describe("GET / (built demo in Chromium)", () => {
  it("renders the home page with its landmarks, headings and navigation", async () => {
    const page = await demo.browser.newPage()
    const errors: string[] = []
    page.on("pageerror", (err) => errors.push(err.message))
    const response = await page.goto(`${demo.server.origin}/`)
    expect(response?.status()).toBe(200)
    await expect(page.title()).resolves.toBe("Home · authlib demo")
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Sign-in that runs on your machine")
    expect(await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Home" }).getAttribute("aria-current")).toBe("page")
    expect(await page.getByRole("main").count()).toBe(1)
    expect(await page.getByRole("region", { name: "Your session" }).textContent()).toContain("You are not signed in.")
    expect(await page.getByRole("heading", { level: 3 }).allTextContents()).toEqual(["Email and password", "Demo IdP", "Magic link", "Passkey"])
    await screenshot(page, "home")
    expect(errors).toEqual([])
    await page.close()
  })

  it("keeps authlib's built-in sign-in page reachable at /auth/signin, listing every provider", async () => {
    const page = await demo.browser.newPage()
    const response = await page.goto(`${demo.server.origin}/auth/signin`)
    expect(response?.status()).toBe(200)
    const text = (await page.textContent("body")) ?? ""
    for (const name of ["Email and password", "Demo IdP", "Email link", "Sign in with SSO"]) expect(text).toContain(name)
    // One spelling on the page: the password form's field and the link form's field are both "Email"
    // (and the SSO form's, core's e-mail-first form, "Work email").
    expect(await page.locator(".card label").allTextContents()).toEqual(["Email", "Password", "Email", "Work email"])
    expect(await page.locator(".card").innerText()).not.toMatch(/e-mail/i)
    // The page declares the theme logo as its icon (no request for /favicon.ico).
    expect(await page.locator('link[rel="icon"]').getAttribute("href")).toBe(await page.locator(".brand img.logo").getAttribute("src"))
    // The demo's theme: its name and logo above the card (the logo loads under the page's CSP), its title.
    expect(await page.locator(".brand .app-name").textContent()).toBe("authlib demo")
    expect(await page.title()).toBe("Sign in · authlib demo")
    expect(await page.locator(".brand img.logo").evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true)
    await screenshot(page, "builtin-sign-in")
    await page.close()
  })

  it("answers an unknown path with 404", async () => {
    const page = await demo.browser.newPage()
    const response = await page.goto(`${demo.server.origin}/no-such-page/`)
    expect(response?.status()).toBe(404)
    await page.close()
  })
})

describe("embedded defaults stay on this machine (no WEBAUTH_URL)", () => {
  it("answers 421 to a Host that is not a loopback name (DNS rebinding, forged Host), and to X-Forwarded-Host/-Proto", async () => {
    const host = new URL(demo.server.origin).host
    expect((await rawGet(demo.server.origin, "/", { host })).status).toBe(200)
    expect((await rawGet(demo.server.origin, "/", { host: `localhost:${new URL(demo.server.origin).port}` })).status).toBe(200)
    const forgeries: Record<string, string>[] = [{ host: "evil.example" }, { host: "evil.example:80" }, { host, "x-forwarded-host": "evil.example" }, { host, "x-forwarded-proto": "https" }]
    for (const forged of forgeries) {
      const res = await rawGet(demo.server.origin, "/auth/signin", forged)
      expect(res.status, JSON.stringify(forged)).toBe(421)
      expect(res.body).not.toContain("<form")
    }
  })

  it("shows the inbox to this machine only: a request through a proxy (X-Forwarded-For) gets 403 and no mail", async () => {
    const host = new URL(demo.server.origin).host
    const direct = await rawGet(demo.server.origin, "/inbox/", { host })
    expect(direct.status).toBe(200)
    expect(direct.body).toContain("No mail yet.")
    const proxied = await rawGet(demo.server.origin, "/inbox/", { host, "x-forwarded-for": "203.0.113.9" })
    expect(proxied.status).toBe(403)
    expect(proxied.body).toContain("only shown to a browser on the machine that runs the demo")
    expect(proxied.body).not.toContain("No mail yet.")
  })

  it("ships no server-only module to the browser (the config function's imports stay behind isServer)", async () => {
    const dir = new URL("../dist/build/", import.meta.url)
    const files = (await readdir(dir)).filter((f) => f.endsWith(".js"))
    expect(files.length).toBeGreaterThan(0)
    for (const file of files) {
      const code = await readFile(new URL(file, dir), "utf8")
      for (const marker of ["node:crypto", "node:fs", "smtp-server", "oidc-provider", "@electric-sql/pglite", "demoAuthConfig", "SMTPServer"]) {
        expect(code.includes(marker), `${file} contains ${marker}`).toBe(false)
      }
    }
  })
})
