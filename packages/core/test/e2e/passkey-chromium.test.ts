/**
 * Passkeys in Debian's Chromium with the DevTools virtual authenticator (CTAP2, internal, resident
 * keys, user verification), on the built-in pages, in both session strategies: a signed-in user
 * adds a passkey, signs out, signs in with the sign-in page's passkey button, and through autofill.
 */
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { chromium, type BrowserContext, type Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { credentials, SECRET } from "../helpers/harness.js"
import { passkeyAdapter, passkeyProvider, type PasskeyAdapter } from "../capabilities/webauthn/setup.js"
import { alice } from "../helpers/harness.js"
import { startServer, type TestServer } from "./server.js"

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium"
const ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"]

let context: BrowserContext
let profile: string

beforeAll(async () => {
  profile = await mkdtemp(join(tmpdir(), "authlib-core-chromium-"))
  context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, headless: true, args: ARGS, timeout: 30_000 })
  context.setDefaultTimeout(10_000)
  await context.route(/^https?:\/\/(?!127\.0\.0\.1[:/]|localhost[:/])/, (route) => route.abort())
}, 60_000)

afterAll(async () => {
  await context?.close()
  await rm(profile, { recursive: true, force: true })
})

/** A page with a virtual platform authenticator that answers every prompt (user present and verified). */
async function pageWithAuthenticator(): Promise<Page> {
  const page = await context.newPage()
  const cdp = await context.newCDPSession(page)
  await cdp.send("WebAuthn.enable")
  await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: { protocol: "ctap2", transport: "internal", hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  })
  return page
}

for (const strategy of ["jwt", "database"] as const) {
  describe(`built-in pages, ${strategy} sessions`, () => {
    let server: TestServer
    let adapter: PasskeyAdapter

    beforeAll(async () => {
      adapter = passkeyAdapter()
      adapter.users.set(alice.id!, { ...alice, id: alice.id!, email: alice.email!, emailVerified: null })
      server = await startServer((origin) => ({
        url: origin,
        secret: SECRET,
        trustHost: true,
        adapter,
        session: { strategy },
        experimental: { enableWebAuthn: true },
        logger: { error: () => {}, warn: () => {}, debug: () => {} },
        providers: [credentials(), passkeyProvider()],
      }))
    })
    afterAll(() => server?.close())

    it("adds a passkey while signed in, signs out, signs in with the passkey button and through autofill", async () => {
      await context.clearCookies()
      const page = await pageWithAuthenticator()
      await page.goto(`${server.origin}/auth/signin`)
      await page.fill('input[name="username"]', "alice")
      await page.fill('input[name="password"]', "wonderland")
      await page.click('button:has-text("Sign in with Password")')
      await page.waitForURL(`${server.origin}/`)
      await expect.poll(() => page.textContent("#who")).toBe(`Signed in as ${alice.email}`)

      await page.click('button:has-text("Add a passkey")')
      await page.waitForURL(`${server.origin}/?added=1`)
      expect([...adapter.authenticators.values()].map((a) => a.userId)).toEqual([alice.id])

      // The button. The virtual authenticator would answer the autofill request the page starts
      // on load at once, so that request's options are refused here: only the button's run.
      await context.clearCookies()
      let optionsRequests = 0
      await page.route("**/auth/webauthn-options/**", (route) => (optionsRequests++ === 0 ? route.abort() : route.continue()))
      await page.goto(`${server.origin}/auth/signin`)
      await expect.poll(() => optionsRequests).toBe(1)
      await page.click('button:has-text("Sign in with Passkey")')
      await page.waitForURL(`${server.origin}/`)
      await page.unroute("**/auth/webauthn-options/**")
      expect(await page.textContent("#who")).toBe(`Signed in as ${alice.email}`)

      // Autofill: the sign-in page starts a conditional request on load; the authenticator answers
      // it (the user picking the passkey among the user-name field's suggestions) and signs in.
      await context.clearCookies()
      await page.goto(`${server.origin}/auth/signin`)
      await page.waitForURL(`${server.origin}/`)
      expect(await page.textContent("#who")).toBe(`Signed in as ${alice.email}`)
      await page.close()
    }, 60_000)
  })
}
