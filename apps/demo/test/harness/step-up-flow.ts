/**
 * Step-up on the demo's account page, in Chromium with the DevTools virtual authenticator: Ada has
 * a passkey and two-step verification on; once her second factor is older than
 * `twoFactor.freshAge` (shortened by the test's `AUTH_TWO_FACTOR_FRESH_AGE`), adding and deleting
 * a passkey are refused with `ReauthenticationRequired`, the page shows "Confirm it is you", and
 * after a code, a backup code or a passkey the change goes through on its own. Renaming changes no
 * way in and asks nothing.
 */
import { expect } from "vitest"
import type { Page } from "playwright-core"
import { screenshot } from "./browser.js"
import { submitPassword, turnOn } from "./two-factor-flow.js"
import { clickConfirming } from "./confirm.js"
import { pageWithAuthenticator, watchPasskeyOptions } from "./two-factor-passkey-flow.js"
import { stepAt, totp } from "@authlib/e2e-kit/totp"
import type { DemoFixture } from "./use-demo.js"

const stepUpForm = (page: Page) => page.getByRole("region", { name: "Confirm it is you" })
const passkeys = (page: Page) => page.locator(".passkey")

/** Waits until the second factor is stale: `freshAge` seconds and one more. */
const staleAfter = (freshAge: number) => new Promise((resolve) => setTimeout(resolve, (freshAge + 1) * 1000))

export async function stepUpJourney(demo: DemoFixture, freshAge: number, label: string): Promise<void> {
  // Passkeys need a domain name: the demo's relying party is localhost.
  const origin = demo.server.origin.replace("127.0.0.1", "localhost")
  await demo.browser.context.clearCookies()
  const { page, cdp, authenticatorId, errors } = await pageWithAuthenticator(demo)
  await watchPasskeyOptions(page)

  // Ada adds a passkey while two-step verification is off, then turns it on (its code is a fresh second factor).
  await submitPassword(page, origin)
  await page.waitForURL(`${origin}/account/`)
  await page.getByRole("button", { name: "Add a passkey" }).click()
  await page.waitForURL(`${origin}/account/?added=1`)
  await expect.poll(() => passkeys(page).count()).toBe(1)
  const { secret, step, backupCodes } = await turnOn(page, `step-up-${label}`)
  // Her second device: the first authenticator already holds her passkey and would refuse another.
  await cdp.send("WebAuthn.removeVirtualAuthenticator", { authenticatorId })
  await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: { protocol: "ctap2", transport: "internal", hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  })

  // Stale: "Add a passkey" asks her to confirm it is her; a code from the app, then the passkey is added.
  await staleAfter(freshAge)
  await page.getByRole("button", { name: "Add a passkey" }).click()
  await stepUpForm(page).waitFor()
  expect(await passkeys(page).count()).toBe(1)
  await screenshot(page, `step-up-form-${label}`)
  await stepUpForm(page).getByLabel("Code from your authenticator app, or a backup code").fill(totp(secret, Math.max(step + 1, stepAt())))
  await stepUpForm(page).getByRole("button", { name: "Verify and continue" }).click()
  await page.waitForURL(`${origin}/account/?added=1`)
  await expect.poll(() => passkeys(page).count()).toBe(2)

  // Renaming changes no way in: no step-up, even now.
  await staleAfter(freshAge)
  await passkeys(page).first().getByLabel("Name").fill("Work laptop")
  await passkeys(page).first().getByRole("button", { name: "Rename" }).click()
  await expect.poll(() => page.getByRole("status").filter({ hasText: "Passkey renamed." }).count()).toBe(1)
  expect(await stepUpForm(page).count()).toBe(0)

  // Deleting does ask: "Delete ...?" first, then a backup code (asked once: the retry is not asked
  // again), and the first device's passkey is deleted.
  await clickConfirming(page, passkeys(page).first().getByRole("button", { name: "Delete" }))
  await stepUpForm(page).waitFor()
  await stepUpForm(page).getByLabel("Code from your authenticator app, or a backup code").fill(backupCodes[0]!)
  await stepUpForm(page).getByRole("button", { name: "Verify and continue" }).click()
  await expect.poll(() => page.getByRole("status").filter({ hasText: "Passkey deleted" }).count()).toBe(1)
  await page.reload()
  expect(await passkeys(page).count()).toBe(1)
  expect(await passkeys(page).first().getByLabel("Name").inputValue()).not.toBe("Work laptop")

  // Stale again: deleting the other one asks again; "Use a passkey" (that device's, verified by the
  // authenticator), and it is deleted too (her e-mail address still signs her in).
  await staleAfter(freshAge)
  await clickConfirming(page, passkeys(page).first().getByRole("button", { name: "Delete" }))
  await stepUpForm(page).waitFor()
  await stepUpForm(page).getByRole("button", { name: "Use a passkey" }).click()
  await expect.poll(() => page.getByRole("status").filter({ hasText: "Passkey deleted" }).count()).toBe(1)
  await page.reload()
  expect(await passkeys(page).count()).toBe(0)

  expect(errors, errors.join("\n")).toEqual([])
  await page.close()
}
