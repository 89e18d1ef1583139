/**
 * Chromium for the demo's tests: the Qwik demo's launcher (Debian's Chromium through playwright-core,
 * the flags CI uses, a fresh profile), plus the steps these tests repeat.
 */
import type { Page } from "playwright-core"
export { launchBrowser, type DemoBrowser } from "../../../demo/test/harness/browser.js"

/** The demo's password user (apps/demo's users.ts). */
export const ADA = { id: "demo-ada", name: "Ada Lovelace", email: "ada@example.com", password: "correct-horse-battery" }

/** Signs in with the password form of /sign-in (a server action); resolves once the browser is back. */
export async function signInWithForm(page: Page, base: string, to = "/"): Promise<void> {
  if (!page.url().startsWith(`${base}/sign-in`)) await page.goto(`${base}/sign-in?callbackUrl=${encodeURIComponent(to)}`)
  await page.fill("#email", ADA.email)
  await page.fill("#password", ADA.password)
  await Promise.all([page.waitForURL((u) => !u.pathname.startsWith("/sign-in")), page.click("#password-sign-in button[type=submit]")])
}

/** The value of authlib's session cookie in the page's context (`undefined` when none). */
export async function sessionCookie(page: Page): Promise<string | undefined> {
  return (await page.context().cookies()).find((c) => c.name === "authlib.session-token")?.value
}
