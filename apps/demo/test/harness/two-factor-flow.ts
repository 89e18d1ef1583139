/**
 * Two-step verification on the demo, in Chromium: turned on from the account page with codes
 * computed from the secret it shows (RFC 6238 here, on node:crypto), then sign-ins that stop at
 * authlib's built-in `/auth/two-factor` page with no session cookie until a code is entered.
 *
 * Every code check counts toward core's limit of 5 per user in 5 minutes (successes too), so each
 * journey stays within 5 checks per user.
 */
import { expect } from "vitest"
import type { Page } from "playwright-core"
import { DEMO_LOGIN, IDP_ACCOUNTS, IDP_PASSWORD } from "../../src/lib/demo-login.js"
import { screenshot } from "./browser.js"
import { clickConfirming } from "./confirm.js"
import { stepAt, totp } from "@authlib/e2e-kit/totp"
import type { DemoFixture } from "./use-demo.js"

const CODE_LABEL = "Code from your authenticator app, or a backup code"

/** Whether the browser holds a session cookie for `origin` (the demo's, by default). */
export async function hasSessionCookie(demo: DemoFixture, origin = demo.server.origin): Promise<boolean> {
  return (await demo.browser.context.cookies(origin)).some((c) => c.name.startsWith("authlib.session-token"))
}

/** A page that records uncaught errors (View Transitions aborted by Chromium are the browser's). */
export async function watchedPage(demo: DemoFixture): Promise<{ page: Page; errors: string[] }> {
  const page = await demo.browser.newPage()
  const errors: string[] = []
  page.on("pageerror", (err) => void (/^Transition was aborted/.test(err.message) || errors.push(err.message)))
  return { page, errors }
}

const twoStep = (page: Page) => page.getByRole("region", { name: "Two-step verification" })
export const statusText = async (page: Page) => (await twoStep(page).locator(".two-step-status").textContent())?.trim()

/** The backup codes the page shows (once). */
async function shownCodes(page: Page): Promise<string[]> {
  const list = page.getByRole("region", { name: "Backup codes" }).locator("code")
  await expect.poll(() => list.count()).toBe(10)
  return list.allTextContents()
}

/**
 * On /account/, signed in: sets up two-step verification. Resolves the secret, the time step
 * whose code turned it on (spent: only later steps are accepted) and the 10 backup codes.
 */
export async function turnOn(page: Page, label: string): Promise<{ secret: string; step: number; backupCodes: string[] }> {
  expect(await statusText(page)).toBe("Off.")
  await page.getByRole("button", { name: "Set up two-step verification" }).click()
  const secret = (await page.getByLabel("Secret key").textContent())?.trim() ?? ""
  expect(secret).toMatch(/^[A-Z2-7]{32}$/)
  expect(await twoStep(page).locator(".qr svg[role=img] path").count()).toBe(1)
  await screenshot(page, `two-factor-enrol-${label}`)
  const step = stepAt()
  await page.getByLabel("The 6-digit code your app shows").fill(totp(secret, step))
  await page.getByRole("button", { name: "Turn on" }).click()
  const backupCodes = await shownCodes(page)
  expect(backupCodes.every((c) => /^[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}$/.test(c))).toBe(true)
  await expect.poll(() => statusText(page)).toBe("On · 10 backup codes left")
  expect(await twoStepNotice(page)).toBe(TURNED_ON)
  await screenshot(page, `two-factor-codes-${label}`)
  return { secret, step, backupCodes }
}

export async function signOut(page: Page): Promise<void> {
  await page.locator(".account-menu").getByRole("button", { name: "Sign out" }).click()
  await page.getByRole("link", { name: "Sign in", exact: true }).waitFor()
}

/** The password form on the demo's sign-in page, back to /account/ afterwards. */
export async function submitPassword(page: Page, origin: string): Promise<void> {
  await page.goto(`${origin}/sign-in/?callbackUrl=%2Faccount%2F`)
  await page.getByLabel("Email", { exact: true }).fill(DEMO_LOGIN.email)
  await page.getByLabel("Password", { exact: true }).fill(DEMO_LOGIN.password)
  await page.getByRole("button", { name: "Sign in with email and password" }).click()
}

/** An e-mail link to `email` from the sign-in page, opened from the inbox and confirmed. */
export async function followEmailLink(page: Page, origin: string, email: string): Promise<void> {
  await page.goto(`${origin}/sign-in/?callbackUrl=%2Faccount%2F`)
  await page.getByLabel("Email for a sign-in link").fill(email)
  await page.getByRole("button", { name: "Email me a sign-in link" }).click()
  await page.waitForURL((url) => url.pathname === "/auth/verify-request")
  await page.goto(`${origin}/inbox/`)
  // The newest mail comes first.
  const link = await page.getByRole("link", { name: "Open the link in this message" }).first().getAttribute("href")
  await page.goto(link!)
  await page.getByRole("button", { name: "Sign in" }).click()
}

/** A Demo IdP sign-in as `user` from a fresh browser (no IdP session: its login and consent pages each time). */
export async function idpSignIn(demo: DemoFixture, page: Page, user: string): Promise<void> {
  await demo.browser.context.clearCookies()
  await page.goto(`${demo.server.origin}/sign-in/?callbackUrl=%2Faccount%2F`)
  await page.getByRole("button", { name: "Continue with Demo IdP" }).click()
  await page.getByLabel("User name").fill(user)
  await page.getByLabel("Password").fill(IDP_PASSWORD)
  await page.getByRole("button", { name: "Sign in" }).click()
  await page.getByRole("button", { name: "Allow" }).click()
}

/** On the two-factor page: no session yet; enters `code`. */
export async function enterCode(demo: DemoFixture, page: Page, code: string): Promise<void> {
  await page.waitForURL((url) => url.pathname === "/auth/two-factor")
  expect(await hasSessionCookie(demo)).toBe(false)
  await page.getByLabel(CODE_LABEL).fill(code)
  await page.getByRole("button", { name: "Verify" }).click()
}

/** Back on the account page, signed in as `email`. */
export async function signedInAs(demo: DemoFixture, page: Page, email: string): Promise<void> {
  await page.waitForURL(`${demo.server.origin}/account/`)
  expect(await page.locator(".facts dd").nth(1).textContent()).toBe(email)
  expect(await hasSessionCookie(demo)).toBe(true)
}

const TURN_OFF_QUESTION = "Turn off two-step verification? Sign-in will no longer ask for a code, and your backup codes will stop working."
export const TURNED_OFF = "Two-step verification is off: sign-in no longer asks for a code, and your backup codes no longer work."
export const TURNED_ON = "Two-step verification is on: sign-in now also asks for a code from your app. Save your backup codes below."
const NEW_CODES = "New backup codes: the old ones no longer work. Save these below."

/** What the two-step section says happened (its `status` line), if anything. */
export const twoStepNotice = async (page: Page) => {
  const notice = twoStep(page).getByRole("status")
  return (await notice.count()) === 0 ? undefined : (await notice.textContent())?.trim()
}

/** Turns it off with `code` after saying yes to "Turn off ...?" (the page says so, or shows a refusal). */
export async function turnOff(page: Page, code: string): Promise<void> {
  await page.getByLabel("Current code, to turn it off").fill(code)
  expect(await clickConfirming(page, page.getByRole("button", { name: "Turn off two-step verification" }))).toBe(TURN_OFF_QUESTION)
}

const refusal = (page: Page) => twoStep(page).getByRole("alert")
const WRONG = "That code did not work. Enter the current code from your app, or a backup code you have not used."

/**
 * Ada: turn on; sign in with the password and a code (a wrong one first), then with an e-mail link
 * and a backup code; turn off with another; the password alone signs in again. Grace (an e-mail
 * link, a new user): turn on, new backup codes (the old ones die), turn off. Alan (the Demo IdP):
 * turn on, and the IdP's sign-in stops for a code too. Core allows one link per mailbox a minute,
 * so each mailbox gets one.
 */
export async function twoFactorJourney(demo: DemoFixture, label: string): Promise<void> {
  const origin = demo.server.origin
  await demo.browser.context.clearCookies()
  const { page, errors } = await watchedPage(demo)

  await submitPassword(page, origin)
  await signedInAs(demo, page, DEMO_LOGIN.email)
  const ada = await turnOn(page, `${label}-ada`)
  await signOut(page)
  await submitPassword(page, origin)
  await page.waitForURL((url) => url.pathname === "/auth/two-factor")
  await screenshot(page, `two-factor-page-${label}`)
  await enterCode(demo, page, totp(ada.secret, ada.step - 10))
  await page.waitForURL((url) => url.searchParams.get("code") === "CODE_INVALID")
  expect(await page.getByRole("alert").textContent()).toBe(WRONG)
  // The next step's code: the one used to turn it on is spent.
  await enterCode(demo, page, totp(ada.secret, ada.step + 1))
  await signedInAs(demo, page, DEMO_LOGIN.email)
  expect(await statusText(page)).toBe("On · 10 backup codes left")
  await signOut(page)
  await followEmailLink(page, origin, DEMO_LOGIN.email)
  await enterCode(demo, page, ada.backupCodes[0]!)
  await signedInAs(demo, page, DEMO_LOGIN.email)
  expect(await statusText(page)).toBe("On · 9 backup codes left")
  // "Cancel" keeps it on and spends nothing; yes turns it off, and the page says what that means.
  await page.getByLabel("Current code, to turn it off").fill(ada.backupCodes[1]!)
  await clickConfirming(page, page.getByRole("button", { name: "Turn off two-step verification" }), "dismiss")
  expect(await statusText(page)).toBe("On · 9 backup codes left")
  await turnOff(page, ada.backupCodes[1]!)
  await expect.poll(() => statusText(page)).toBe("Off.")
  expect(await twoStepNotice(page)).toBe(TURNED_OFF)
  await signOut(page)
  await submitPassword(page, origin)
  await signedInAs(demo, page, DEMO_LOGIN.email)

  const grace = `grace-${label}@example.com`
  await signOut(page)
  await followEmailLink(page, origin, grace)
  await signedInAs(demo, page, grace)
  const codes = (await turnOn(page, `${label}-grace`)).backupCodes
  await page.getByLabel("Current code, for new backup codes").fill(codes[0]!)
  await page.getByRole("button", { name: "New backup codes" }).click()
  await expect.poll(async () => (await shownCodes(page)).filter((c) => codes.includes(c))).toEqual([])
  expect(await statusText(page)).toBe("On · 10 backup codes left")
  expect(await twoStepNotice(page)).toBe(NEW_CODES)
  const fresh = await shownCodes(page)
  await turnOff(page, codes[1]!)
  await expect.poll(() => refusal(page).textContent()).toBe(WRONG)
  expect(await statusText(page)).toBe("On · 10 backup codes left")
  // A refusal is no news: the last change's notice is gone.
  expect(await twoStepNotice(page)).toBeUndefined()
  await turnOff(page, fresh[0]!)
  await expect.poll(() => statusText(page)).toBe("Off.")
  expect(await refusal(page).count()).toBe(0)
  expect(await twoStepNotice(page)).toBe(TURNED_OFF)

  await idpSignIn(demo, page, "alan")
  await signedInAs(demo, page, IDP_ACCOUNTS.alan!.email)
  const alan = await turnOn(page, `${label}-alan`)
  await idpSignIn(demo, page, "alan")
  await enterCode(demo, page, totp(alan.secret, alan.step + 1))
  await signedInAs(demo, page, IDP_ACCOUNTS.alan!.email)
  expect(errors, errors.join("\n")).toEqual([])
  await page.close()
}
