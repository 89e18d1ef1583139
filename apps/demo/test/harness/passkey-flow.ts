/**
 * The passkey journey on the demo, in Chromium with the DevTools virtual authenticator (CTAP2,
 * internal, resident keys, user verification): sign in with the password, add a passkey on the
 * account page, rename it, sign out, sign in with the passkey button and through autofill (also
 * with two-step verification on: no code asked), delete it. Passkeys need a domain name, so the
 * browser uses `localhost` (the demo answers loopback names).
 */
import { expect } from "vitest"
import type { Page } from "playwright-core"
import { screenshot } from "./browser.js"
import { statusText, turnOff, turnOn } from "./two-factor-flow.js"
import { clickConfirming } from "./confirm.js"
import type { DemoFixture } from "./use-demo.js"

async function withAuthenticator(demo: DemoFixture): Promise<Page> {
  const page = await demo.browser.newPage()
  const cdp = await demo.browser.context.newCDPSession(page)
  await cdp.send("WebAuthn.enable")
  await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: { protocol: "ctap2", transport: "internal", hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  })
  return page
}

export async function passkeyJourney(demo: DemoFixture, label: string): Promise<void> {
  const origin = demo.server.origin.replace("127.0.0.1", "localhost")
  await demo.browser.context.clearCookies()
  const page = await withAuthenticator(demo)
  const errors: string[] = []
  // Qwik City's client navigations use View Transitions; Chromium rejects one that a resize or a
  // slow DOM update interrupts ("Transition was aborted ..."), which is the browser's, not the app's.
  page.on("pageerror", (err) => void (/^Transition was aborted/.test(err.message) || errors.push(err.message)))

  await page.goto(`${origin}/sign-in/?callbackUrl=%2Faccount%2F`)
  await page.getByLabel("Email", { exact: true }).fill("ada@example.com")
  await page.getByLabel("Password", { exact: true }).fill("correct-horse-battery")
  await page.getByRole("button", { name: "Sign in with email and password" }).click()
  await page.waitForURL(`${origin}/account/`)
  expect(await page.locator(".passkey").count()).toBe(0)

  await page.getByRole("button", { name: "Add a passkey" }).click()
  await page.waitForURL(`${origin}/account/?added=1`)
  await expect.poll(() => page.locator(".passkey").count()).toBe(1)
  // Named after the browser that made it; listed as a way in with no "Unlink" (it goes with the passkey).
  expect(await page.locator(".passkey input[name=name]").inputValue()).toBe("Chrome on Linux")
  const ways = page.getByRole("region", { name: "Ways to sign in" })
  const passkeyRow = ways.locator(".linked-account", { hasText: "Passkey" })
  expect(await passkeyRow.textContent()).toContain("1 passkey: manage it under Passkeys")
  expect(await passkeyRow.getByRole("button", { name: "Unlink" }).count()).toBe(0)
  await page.locator(".passkey input[name=name]").fill("Laptop")
  await page.getByRole("button", { name: "Rename" }).click()
  await expect.poll(() => page.locator(".passkey input[name=name]").inputValue()).toBe("Laptop")
  await screenshot(page, `account-passkeys-${label}`)
  await page.setViewportSize({ width: 390, height: 844 })
  await screenshot(page, `account-passkeys-${label}-phone`)
  // At phone width nothing scrolls sideways (the header wraps).
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)
  await page.setViewportSize({ width: 1280, height: 860 })

  // The button. The sign-in page starts autofill on load, which the virtual authenticator would
  // answer at once: that request's options are refused here, so only the button's run.
  await demo.browser.context.clearCookies()
  let optionsRequests = 0
  await page.route("**/auth/webauthn-options/**", (route) => (optionsRequests++ === 0 ? route.abort() : route.continue()))
  await page.goto(`${origin}/sign-in/?callbackUrl=%2Faccount%2F`)
  await expect.poll(() => optionsRequests).toBe(1)
  await screenshot(page, `sign-in-passkey-${label}`)
  await page.getByRole("button", { name: "Sign in with a passkey" }).click()
  await page.waitForURL(`${origin}/account/`)
  await page.unroute("**/auth/webauthn-options/**")
  expect(await page.locator(".facts dd").first().textContent()).toBe("Ada Lovelace")

  // Autofill: the e-mail field offers the passkey; the virtual authenticator picks it.
  await demo.browser.context.clearCookies()
  await page.goto(`${origin}/sign-in/?callbackUrl=%2Faccount%2F`)
  await page.waitForURL(`${origin}/account/`)
  expect(await page.locator(".facts dd").first().textContent()).toBe("Ada Lovelace")

  // With two-step verification on, a passkey (verified with the screen lock) counts as both steps:
  // autofill signs in straight to the account page, no code asked.
  const { backupCodes } = await turnOn(page, `passkey-${label}`)
  await demo.browser.context.clearCookies()
  await page.goto(`${origin}/sign-in/?callbackUrl=%2Faccount%2F`)
  await page.waitForURL(`${origin}/account/`)
  expect(await statusText(page)).toBe("On · 10 backup codes left")
  await turnOff(page, backupCodes[0]!)
  await expect.poll(() => statusText(page)).toBe("Off.")

  // Ada has an e-mail address and the demo offers e-mail links: deleting her only passkey is allowed,
  // once she says yes to "Delete ...?" ("Cancel" keeps it); the page then says it is gone.
  const name = await page.locator(".passkey").getByLabel("Name").inputValue()
  const question = `Delete the passkey "${name || "Unnamed passkey"}"? It will no longer sign you in.`
  expect(await clickConfirming(page, page.getByRole("button", { name: "Delete" }), "dismiss")).toBe(question)
  expect(await page.locator(".passkey").count()).toBe(1)
  expect(await clickConfirming(page, page.getByRole("button", { name: "Delete" }))).toBe(question)
  await expect.poll(() => page.locator(".passkey").count()).toBe(0)
  expect(await page.getByRole("status").filter({ hasText: "Passkey deleted" }).textContent()).toBe("Passkey deleted: it no longer signs in here.")
  expect(errors, errors.join("\n")).toEqual([])
  await page.close()
}
