/**
 * The account page (database sessions) lists where the user is signed in, with what each session
 * recorded (client, network, when), signs the others out or everywhere, and lists, links and
 * unlinks the user's sign-in methods. A second "device" signs in over HTTP with its own cookie jar.
 */
import { describe, expect, it } from "vitest"
import type { Page } from "playwright-core"
import { launchBrowser, screenshot } from "./harness/browser.js"
import { clickConfirming } from "./harness/confirm.js"
import { otherDevice, sessionOf, signInWithPassword } from "./harness/devices.js"
import { useDemo } from "./harness/use-demo.js"

const demo = useDemo({ AUTH_SESSION_STRATEGY: "database" })

describe("the account page's sessions", () => {
  it("lists this browser and another device with their client, network and times, and signs the other out everywhere else", async () => {
    const origin = demo.server.origin
    const device = await otherDevice(origin)
    const page = await demo.browser.newPage()
    await signInWithPassword(page, origin)
    await page.goto(`${origin}/account/`)
    const region = page.getByRole("region", { name: "Where you are signed in" })
    await expect.poll(() => region.locator(".session").count()).toBe(2)
    const rows = await region.locator(".session").allTextContents()
    // Chromium here says HeadlessChrome on Linux; the other device is Node's fetch.
    expect(rows).toEqual(expect.arrayContaining([expect.stringContaining("This browser (Chrome on Linux)"), expect.stringContaining("Node.js")]))
    for (const row of rows) expect(row).toMatch(/127\.0\.0\.0\/24 · signed in \d{1,2} \w{3} \d{4}, \d\d:\d\d UTC · last seen /)
    await screenshot(page, "account-sessions")
    expect(await sessionOf(origin, device)).toMatchObject({ user: { email: "ada@example.com" } })

    await region.getByRole("button", { name: "Sign out everywhere else" }).click()
    await region.getByText("Signed out of 1 other session(s).").waitFor()
    expect(await sessionOf(origin, device)).toBeNull()
    await page.reload()
    await expect.poll(() => region.locator(".session").count()).toBe(1)
    expect(await region.locator(".session").textContent()).toContain("This browser")
    await page.close()
  })

  it("links the Demo IdP to the password user by signing in with it, then unlinks it", async () => {
    const origin = demo.server.origin
    await demo.browser.context.clearCookies()
    const page = await demo.browser.newPage()
    await signInWithPassword(page, origin)
    await page.goto(`${origin}/account/`)
    // The session's expiry is a date a person reads, not an ISO string.
    expect(await page.locator(".facts time").textContent()).toMatch(/^\d{1,2} \w{3} \d{4}, \d{2}:\d{2} UTC$/)
    const methods = page.getByRole("region", { name: "Ways to sign in" })
    // Her ways in: the password, and e-mail links to her (verified) address; neither is unlinked here.
    const password = expect.stringContaining("Email and password")
    const emailLink = expect.stringContaining("Email link (a link to your verified address)")
    expect(await methods.locator(".linked-account").allTextContents()).toEqual([password, emailLink])
    expect(await methods.getByRole("button", { name: "Unlink" }).count()).toBe(0)
    await methods.getByRole("button", { name: "Link the Demo IdP" }).click()
    await loginAtIdp(page, "grace")
    await page.waitForURL(`${origin}/account/`)
    await expect.poll(() => methods.locator(".linked-account").allTextContents()).toEqual([password, expect.stringContaining("Demo IdP"), emailLink])
    // Still Ada (linked, not a second user), and her IdP token now works on this page.
    expect(await page.locator(".facts").textContent()).toContain("ada@example.com")
    expect(await page.getByRole("region", { name: "Calling the Demo IdP's API" }).locator(".idp-answer").textContent()).toBe("The IdP says you are Grace Hopper (grace.hopper@idp.demo).")
    await screenshot(page, "account-linked")
    // "Unlink ...?" first: "Cancel" keeps it; yes unlinks it, and the page says so.
    const unlinkIdp = methods.locator(".linked-account", { hasText: "Demo IdP" }).getByRole("button", { name: "Unlink" })
    const question = "Unlink Demo IdP? It will no longer sign you in to this account."
    expect(await clickConfirming(page, unlinkIdp, "dismiss")).toBe(question)
    expect(await methods.locator(".linked-account").allTextContents()).toEqual([password, expect.stringContaining("Demo IdP"), emailLink])
    expect(await clickConfirming(page, unlinkIdp)).toBe(question)
    await expect.poll(() => methods.locator(".linked-account").allTextContents()).toEqual([password, emailLink])
    expect(await methods.getByRole("status").textContent()).toBe("Unlinked: it no longer signs in to this account.")
    expect(await page.getByRole("region", { name: "Calling the Demo IdP's API" }).textContent()).toContain("Sign in with the Demo IdP to call its API")
    await page.close()
  })

  it("signs out everywhere: this browser lands on the sign-in page, the other devices are signed out too, and another browser is told so", async () => {
    const origin = demo.server.origin
    await demo.browser.context.clearCookies()
    const device = await otherDevice(origin)
    // Another browser, signed in on its own.
    const other = await launchBrowser()
    try {
      const otherPage = await other.newPage()
      await signInWithPassword(otherPage, origin)
      const page = await demo.browser.newPage()
      await signInWithPassword(page, origin)
      await page.goto(`${origin}/account/`)
      await page.getByRole("region", { name: "Where you are signed in" }).getByRole("button", { name: "Sign out everywhere", exact: true }).click()
      await page.waitForURL(`${origin}/sign-in/?signedOut=everywhere`)
      expect(await page.getByRole("status").textContent()).toBe("You are signed out on every device.")
      expect(await sessionOf(origin, device)).toBeNull()
      await page.goto(`${origin}/account/`)
      await page.waitForURL(/\/sign-in\//)
      // This browser signed itself out: nothing to tell it.
      expect(await page.getByRole("status").count()).toBe(0)
      await page.close()

      // The other browser's next page (its account page) sends it to sign in, saying why, once.
      await otherPage.goto(`${origin}/account/`)
      await otherPage.waitForURL(`${origin}/sign-in/?signedOut=ended&callbackUrl=%2Faccount%2F`)
      expect(await otherPage.getByRole("status").textContent()).toBe(ENDED)
      expect((await other.context.cookies(origin)).some((c) => c.name.startsWith("authlib.session-token"))).toBe(false)
      await screenshot(otherPage, "session-ended")
      await otherPage.goto(`${origin}/`)
      expect(await otherPage.getByRole("status").count()).toBe(0)
    } finally {
      await other.close()
    }
  })
})

/** What a browser whose session ended elsewhere is told. */
const ENDED = "You were signed out: your session on this browser ended (signed out on another device, or it expired). Sign in again to continue."

/** The Demo IdP's login and consent pages. */
async function loginAtIdp(page: Page, user: string) {
  await page.getByLabel("User name").fill(user)
  await page.getByLabel("Password").fill("idp-demo")
  await page.getByRole("button", { name: "Sign in" }).click()
  await page.getByRole("button", { name: "Allow" }).click()
}
