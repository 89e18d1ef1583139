/**
 * A passkey as the second step, in Chromium with the DevTools virtual authenticator: Ada, with
 * two-step verification on and a passkey, signs in with her password, lands on authlib's built-in
 * `/auth/two-factor` page and chooses "Use a passkey": signed in, no code asked. What the demo
 * config promises around it is checked too: its passkey provider requires user verification, so a
 * passkey the authenticator cannot verify is refused on that page (the code still works), and a
 * passkey sign-in from the sign-in page (verified) counts as both steps (core's
 * `passkeyCountsAsTwoFactors`, on by default). The two-factor page runs core's bundled passkey
 * script under the page's own Content-Security-Policy: the browser must report no violation.
 */
import { expect } from "vitest"
import type { CDPSession, Page } from "playwright-core"
import { DEMO_LOGIN } from "../../src/lib/demo-login.js"
import { screenshot } from "./browser.js"
import { hasSessionCookie, signOut, statusText, submitPassword, turnOn } from "./two-factor-flow.js"
import { stepAt, totp } from "@authlib/e2e-kit/totp"
import type { DemoFixture } from "./use-demo.js"

export interface Authenticated {
  page: Page
  cdp: CDPSession
  authenticatorId: string
  /** Uncaught page errors (not View Transitions Chromium aborts). */
  errors: string[]
  /** Console messages that report a Content-Security-Policy violation. */
  cspViolations: string[]
}

/** A page with a DevTools virtual authenticator (user verification on), recording page errors and CSP violations. */
export async function pageWithAuthenticator(demo: DemoFixture): Promise<Authenticated> {
  const page = await demo.browser.newPage()
  const cdp = await demo.browser.context.newCDPSession(page)
  await cdp.send("WebAuthn.enable")
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: { protocol: "ctap2", transport: "internal", hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
  })
  const errors: string[] = []
  const cspViolations: string[] = []
  page.on("pageerror", (err) => void (/^Transition was aborted/.test(err.message) || errors.push(err.message)))
  page.on("console", (msg) => void (/Content.Security.Policy/i.test(msg.text()) && cspViolations.push(`${page.url()}: ${msg.text()}`)))
  return { page, cdp, authenticatorId, errors, cspViolations }
}

/** Passkey options asked outside the sign-in page, as answered; and the way to stop refusing the sign-in page's. */
interface OptionsWatch {
  answers: { options: { allowCredentials?: { id: string }[] } }[]
  allowAutofill: () => Promise<void>
}

/**
 * The demo's sign-in page starts passkey autofill on load, which the virtual authenticator would
 * answer at once (a passkey sign-in, no password): options asked from that page are refused, so
 * the password form is what signs in. Options asked from any other page go through, and are kept.
 */
export async function watchPasskeyOptions(page: Page): Promise<OptionsWatch> {
  const pattern = "**/auth/webauthn-options/**"
  const answers: OptionsWatch["answers"] = []
  await page.route(pattern, async (route) => {
    if (new URL(route.request().frame().url()).pathname.startsWith("/sign-in")) return route.abort()
    const response = await route.fetch()
    answers.push((await response.json()) as OptionsWatch["answers"][number])
    await route.fulfill({ response })
  })
  return { answers, allowAutofill: () => page.unroute(pattern) }
}

const isTwoFactorPage = (url: URL) => url.pathname === "/auth/two-factor"

/** The password form, stopping at the two-factor page (no session); resolves that page's CSP. */
async function passwordToTwoFactorPage(demo: DemoFixture, page: Page, origin: string): Promise<string> {
  const answer = page.waitForResponse((r) => isTwoFactorPage(new URL(r.url())) && r.request().method() === "GET")
  await submitPassword(page, origin)
  const csp = (await answer).headers()["content-security-policy"] ?? ""
  await page.waitForURL(isTwoFactorPage)
  expect(await hasSessionCookie(demo, origin)).toBe(false)
  return csp
}

/** How the session says Ada authenticated (RFC 8176 `amr`), from the demo's /session/ page. */
async function amrOf(page: Page, origin: string): Promise<string[]> {
  await page.goto(`${origin}/session/`)
  const shown = await page.locator("pre.code").nth(1).textContent()
  const detail = JSON.parse(shown ?? "null") as { amr?: string[] } | null
  await page.goto(`${origin}/account/`)
  return [...(detail?.amr ?? [])].sort()
}

/** Back on the account page at `origin`, signed in as Ada. */
async function signedInHere(demo: DemoFixture, page: Page, origin: string): Promise<void> {
  await page.waitForURL(`${origin}/account/`)
  expect(await page.locator(".facts dd").nth(1).textContent()).toBe(DEMO_LOGIN.email)
  expect(await hasSessionCookie(demo, origin)).toBe(true)
}

/** CDP gives credential ids in base64; WebAuthn JSON in base64url. */
const base64url = (base64: string) => Buffer.from(base64, "base64").toString("base64url")

const usePasskey = (page: Page) => page.getByRole("button", { name: "Use a passkey" })

export async function twoFactorPasskeyJourney(demo: DemoFixture, label: string): Promise<void> {
  // Passkeys need a domain name: the demo's relying party is localhost.
  const origin = demo.server.origin.replace("127.0.0.1", "localhost")
  await demo.browser.context.clearCookies()
  const { page, cdp, authenticatorId, errors, cspViolations } = await pageWithAuthenticator(demo)
  const optionsSeen = await watchPasskeyOptions(page)

  // Ada adds a passkey, then turns two-step verification on.
  await submitPassword(page, origin)
  await page.waitForURL(`${origin}/account/`)
  await page.getByRole("button", { name: "Add a passkey" }).click()
  await page.waitForURL(`${origin}/account/?added=1`)
  await expect.poll(() => page.locator(".passkey").count()).toBe(1)
  const { secret, step } = await turnOn(page, `passkey-second-${label}`)
  // The account page says a passkey works as the second step.
  expect(await page.getByRole("region", { name: "Two-step verification" }).locator("p.muted").textContent()).toContain("or one of your passkeys")
  await signOut(page)

  // The password stops at the two-factor page, which offers her passkey; it signs her in, no code.
  const csp = await passwordToTwoFactorPage(demo, page, origin)
  expect(csp).toMatch(/script-src 'sha256-[A-Za-z0-9+/]+={0,2}'/)
  expect(csp).toContain(`connect-src ${origin}`)
  await screenshot(page, `two-factor-passkey-${label}`)
  // The options name Ada's one passkey only (a second factor is never "any passkey").
  optionsSeen.answers.length = 0
  await usePasskey(page).click()
  await signedInHere(demo, page, origin)
  const { credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId })
  expect(credentials.length).toBe(1)
  const ids = optionsSeen.answers.map((a) => a.options.allowCredentials?.map((c) => c.id))
  expect(ids).toEqual([[base64url(credentials[0]!.credentialId)]])
  // No backup code spent; the session records the password, the passkey and both factors (no code: no `otp`).
  expect(await statusText(page)).toBe("On · 10 backup codes left")
  expect(await amrOf(page, origin)).toEqual(["hwk", "mfa", "pwd"])
  await signOut(page)

  // The provider requires user verification: a passkey the authenticator cannot verify is refused
  // on the page (the browser does not answer), nothing is signed in, and a code still works.
  await cdp.send("WebAuthn.setUserVerified", { authenticatorId, isUserVerified: false })
  await passwordToTwoFactorPage(demo, page, origin)
  await usePasskey(page).click()
  const refused = page.locator("[data-passkey-error]")
  await refused.waitFor({ state: "visible" })
  // Chromium refuses before anything is sent (NotAllowedError): the page says so and offers the code form still.
  expect(await refused.getAttribute("data-code")).toBe("PROMPT_CANCELLED")
  expect(isTwoFactorPage(new URL(page.url()))).toBe(true)
  expect(await hasSessionCookie(demo, origin)).toBe(false)
  await page.getByLabel("Code from your authenticator app, or a backup code").fill(totp(secret, Math.max(step + 1, stepAt())))
  await page.getByRole("button", { name: "Verify" }).click()
  await signedInHere(demo, page, origin)
  expect(await amrOf(page, origin)).toEqual(["mfa", "otp", "pwd"])
  await signOut(page)
  await cdp.send("WebAuthn.setUserVerified", { authenticatorId, isUserVerified: true })

  // A passkey sign-in (verified) counts as both steps: the sign-in page's autofill signs in straight away.
  await optionsSeen.allowAutofill()
  await page.goto(`${origin}/sign-in/?callbackUrl=%2Faccount%2F`)
  await page.waitForURL(`${origin}/account/`)
  expect(await amrOf(page, origin)).toEqual(["hwk", "mfa", "user"])

  expect(errors, errors.join("\n")).toEqual([])
  expect(cspViolations, cspViolations.join("\n")).toEqual([])
  await page.close()
}
