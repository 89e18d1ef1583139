/**
 * Every way into the demo, in Chromium against `next start`, for both session strategies: the Demo
 * IdP (OpenID Connect, through a server action), an e-mail link from the demo's inbox, a passkey
 * added on the account page and used to sign in (DevTools virtual authenticator), and two-step
 * verification turned on from the account page (server actions) and then asked by authlib's page.
 */
import { IDP_ACCOUNTS, IDP_PASSWORD } from "@authlib/demo/lib/demo-login"
import { stepAt, totp } from "@authlib/e2e-kit/totp"
import type { Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest"
import { startDemo, type DemoInstance } from "./harness/app.js"
import { ADA, launchBrowser, sessionCookie, signInWithForm, type DemoBrowser } from "./harness/browser.js"

const GRACE = IDP_ACCOUNTS.grace!

describe.each(["jwt", "database"] as const)("%s sessions", (strategy) => {
  let demo: DemoInstance
  let browser: DemoBrowser
  let page: Page

  beforeAll(async () => {
    ;[demo, browser] = await Promise.all([startDemo({ strategy, databaseUrl: strategy === "database" ? inject("databaseUrl") : undefined }), launchBrowser()])
    page = await browser.newPage()
  })
  afterAll(async () => {
    await browser?.close()
    await demo?.stop()
  })

  /** A Demo IdP sign-in from a browser without an IdP session (its login and consent pages each time). */
  async function idpSignIn(): Promise<void> {
    await browser.context.clearCookies()
    await page.goto(`${demo.url}/sign-in`)
    await page.click("#idp-sign-in button")
    await page.getByLabel("User name").fill("grace")
    await page.getByLabel("Password").fill(IDP_PASSWORD)
    await page.getByRole("button", { name: "Sign in" }).click()
    await page.getByRole("button", { name: "Allow" }).click()
  }

  test("the Demo IdP (OpenID Connect) signs in", async () => {
    await idpSignIn()
    await page.waitForURL(`${demo.url}/`)
    await expect(page.textContent("#server-email")).resolves.toBe(GRACE.email)
  })

  test("an e-mail link from the inbox signs in", async () => {
    await browser.context.clearCookies()
    const email = `link-${strategy}@example.com`
    await page.goto(`${demo.url}/sign-in`)
    await page.fill("#link-email", email)
    await Promise.all([page.waitForURL((u) => u.pathname === "/api/auth/verify-request"), page.click("#email-sign-in button")])
    await page.goto(`${demo.url}/inbox`)
    const text = (await page.locator(".message", { hasText: email }).first().textContent()) ?? ""
    const link = /https?:\/\/\S+\/api\/auth\/callback\/nodemailer\?\S+/.exec(text)?.[0]
    expect(link).toBeTruthy()
    await page.goto(link!)
    // Core asks for a click before using the link (mail scanners open links too).
    await Promise.all([page.waitForURL(`${demo.url}/`), page.getByRole("button", { name: "Sign in" }).click()])
    await expect(page.textContent("#server-email")).resolves.toBe(email)
  })

  test("a passkey added on the account page signs in", async () => {
    // Passkeys need a domain name: this test uses localhost (its own cookies).
    const origin = demo.url.replace("127.0.0.1", "localhost")
    const keyPage = await browser.newPage()
    const cdp = await browser.context.newCDPSession(keyPage)
    await cdp.send("WebAuthn.enable")
    await cdp.send("WebAuthn.addVirtualAuthenticator", {
      options: { protocol: "ctap2", transport: "internal", hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
    })
    await signInWithForm(keyPage, origin, "/account")
    await keyPage.waitForURL(`${origin}/account`)
    const before = await keyPage.locator(".passkey").count()
    await Promise.all([keyPage.waitForURL(`${origin}/account?added=1`), keyPage.click("#add-passkey")])
    await expect.poll(() => keyPage.locator(".passkey").count()).toBe(before + 1)

    await Promise.all([keyPage.waitForURL(`${origin}/`), keyPage.click("#sign-out")])
    await keyPage.waitForSelector("#server-status:text-is('signed out')")
    await keyPage.goto(`${origin}/sign-in`)
    await Promise.all([keyPage.waitForURL(`${origin}/`), keyPage.click("#passkey-sign-in")])
    await expect(keyPage.textContent("#server-email")).resolves.toBe(ADA.email)
    await keyPage.close()
  })

  test("two-step verification turned on in the account page is asked at the next sign-in", async () => {
    await idpSignIn()
    await page.waitForURL(`${demo.url}/`)
    await page.goto(`${demo.url}/account`)
    await expect(page.textContent("#two-step-status")).resolves.toBe("Off")
    await page.click("#two-step-start")
    const secret = (await page.locator("#two-step-secret").textContent()) ?? ""
    expect(secret).toMatch(/^[A-Z2-7]{32}$/)
    const step = stepAt()
    await page.fill("#two-step-code", totp(secret, step))
    await page.click("#two-step-code ~ button")
    await page.waitForSelector("#backup-codes li")
    await expect(page.locator("#backup-codes li").count()).resolves.toBe(10)
    await page.goto(`${demo.url}/account`)
    await expect(page.textContent("#two-step-status")).resolves.toBe("On (10 backup codes left)")

    // The next sign-in stops at authlib's two-factor page, without a session, until a new code.
    await idpSignIn()
    await page.waitForURL((u) => u.pathname === "/api/auth/two-factor")
    expect(await sessionCookie(page)).toBeUndefined()
    await page.getByLabel("Code from your authenticator app, or a backup code").fill(totp(secret, step + 1))
    await Promise.all([page.waitForURL(`${demo.url}/`), page.getByRole("button", { name: "Verify" }).click()])
    await expect(page.textContent("#server-email")).resolves.toBe(GRACE.email)
  })
})
