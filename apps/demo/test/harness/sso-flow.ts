/**
 * Enterprise SSO on the demo, in Chromium: the sign-in page's "Sign in with SSO" form posts a work
 * address to core's `signin/sso`; an address at a domain no organization has verified is refused with
 * the capability's code; `ada@acme.test` goes to the Demo SAML IdP (another origin: 127.0.0.1 on its
 * own port), which checked the AuthnRequest's signature, is picked there, and the IdP's form POST
 * to the ACS (cross-site from the app at localhost) signs her in, a member of Acme Corp with it
 * active. Grace signs in the same way without MFA.
 */
import { expect } from "vitest"
import type { Page } from "playwright-core"
import { screenshot } from "./browser.js"
import { hasSessionCookie, watchedPage } from "./two-factor-flow.js"
import type { DemoFixture } from "./use-demo.js"

interface SessionJson {
  user?: { email?: string; name?: string }
  activeOrganization?: { slug: string; role: string } | null
}

async function sessionJson(page: Page, origin: string): Promise<SessionJson | null> {
  const res = await page.request.get(`${origin}/auth/session`)
  expect(res.status()).toBe(200)
  return res.json()
}

async function startSso(page: Page, origin: string, email: string): Promise<void> {
  await page.goto(`${origin}/sign-in/?callbackUrl=%2Forganizations%2F`)
  await page.getByLabel("Work email").fill(email)
  await page.getByRole("button", { name: "Sign in with SSO" }).click()
}

/** The IdP's refusal of its SSO URL with the signature altered: it checks what the SP signed. */
async function expectAlteredRequestRefused(idpUrl: string): Promise<void> {
  const url = new URL(idpUrl)
  const signature = url.searchParams.get("Signature")!
  const altered = `${signature[0] === "A" ? "B" : "A"}${signature.slice(1)}`
  const res = await fetch(idpUrl.replace(`Signature=${encodeURIComponent(signature)}`, `Signature=${encodeURIComponent(altered)}`))
  expect(res.status).toBe(400)
  expect(await res.text()).toContain("the request&#39;s signature does not verify with the service provider&#39;s certificate")
}

/** Signs `email` in at the Demo SAML IdP, from the sign-in page to the organization page. */
async function signInWithSso(demo: DemoFixture, page: Page, origin: string, email: string, person: string): Promise<void> {
  await startSso(page, origin, email)
  await page.waitForURL((url) => url.pathname === "/demo-saml-idp/sso")
  const idp = new URL(page.url())
  expect(idp.hostname).toBe("127.0.0.1")
  expect(idp.searchParams.get("SigAlg")).toBe("http://www.w3.org/2001/04/xmldsig-more#rsa-sha256")
  await page.getByRole("heading", { name: "Who signs in?" }).waitFor()
  await screenshot(page, `sso-idp-${email.split("@")[0]}`)
  // The binding cookie that must reach the ACS in the IdP's cross-site POST.
  const binding = (await demo.browser.context.cookies(origin)).find((c) => c.name === "authlib.sso-binding")
  expect(binding).toMatchObject({ sameSite: "None", secure: true, httpOnly: true })
  await expectAlteredRequestRefused(page.url())
  await page.getByRole("button", { name: person }).click()
  await page.waitForURL(`${origin}/organizations/`)
}

export async function ssoJourney(demo: DemoFixture, strategy: "jwt" | "database"): Promise<void> {
  // The app at localhost, the IdP at 127.0.0.1: two sites, as with a real IdP.
  const origin = demo.server.origin.replace("127.0.0.1", "localhost")
  const { page, errors } = await watchedPage(demo)

  // A domain no organization has verified: the capability's refusal, on the demo's sign-in page.
  await startSso(page, origin, "someone@unknown-corp.test")
  await page.waitForURL((url) => url.pathname === "/sign-in/" && url.searchParams.has("error"))
  const refused = new URL(page.url()).searchParams
  expect([refused.get("error"), refused.get("code")]).toEqual(["SsoSignInError", "CONNECTION_UNKNOWN"])
  expect(await page.getByRole("alert").textContent()).toBe("No organization signs in with SSO at that address's domain (CONNECTION_UNKNOWN). Sign in another way.")
  expect(await hasSessionCookie(demo, origin)).toBe(false)
  await screenshot(page, `sso-refused-${strategy}`)

  // Ada, with MFA at her IdP: signed in, a member of Acme Corp, which is active.
  await signInWithSso(demo, page, origin, "ada@acme.test", "Ada Lovelace · ada@acme.test (with MFA)")
  expect(await page.getByLabel("Active organization").textContent()).toBe("Active organization: acme-corp (you are member)")
  expect(await page.getByRole("article", { name: "Acme Corp" }).getByText("acme-corp · you are member").count()).toBe(1)
  await screenshot(page, `sso-signed-in-${strategy}`)
  expect(await sessionJson(page, origin)).toMatchObject({ user: { email: "ada@acme.test", name: "Ada Lovelace" }, activeOrganization: { slug: "acme-corp", role: "member" } })
  await page.goto(`${origin}/session/`)
  const behind = page.getByLabel(strategy === "jwt" ? "Token payload" : "Session record")
  await expect.poll(async () => JSON.parse((await behind.textContent()) ?? "null")?.amr).toEqual(["fed", "mfa"])

  // Grace, with a password only at her IdP, in a fresh browser state.
  await demo.browser.context.clearCookies()
  await signInWithSso(demo, page, origin, "grace@acme.test", "Grace Hopper · grace@acme.test")
  expect(await sessionJson(page, origin)).toMatchObject({ user: { email: "grace@acme.test" }, activeOrganization: { slug: "acme-corp", role: "member" } })
  await page.goto(`${origin}/session/`)
  await expect.poll(async () => JSON.parse((await behind.textContent()) ?? "null")?.amr).toEqual(["fed"])
  expect(errors).toEqual([])
  await page.close()
}

/**
 * The sign-in page's SSO form with JavaScript off (a plain form post through the binding's action):
 * an unknown domain comes back refused, `ada@acme.test` reaches the Demo SAML IdP.
 */
export async function ssoWithoutJavaScript(demo: DemoFixture): Promise<void> {
  const origin = demo.server.origin.replace("127.0.0.1", "localhost")
  await demo.browser.context.clearCookies()
  const page = await demo.browser.newPage()
  const cdp = await demo.browser.context.newCDPSession(page)
  await cdp.send("Emulation.setScriptExecutionDisabled", { value: true })
  await startSso(page, origin, "someone@unknown-corp.test")
  await page.waitForURL((url) => url.pathname === "/sign-in/" && url.searchParams.has("error"))
  expect(new URL(page.url()).searchParams.get("code")).toBe("CONNECTION_UNKNOWN")
  expect(await page.getByRole("alert").textContent()).toContain("CONNECTION_UNKNOWN")
  // Qwik's loader (an inline script on every page) never ran here, as it does on a page with JavaScript.
  const loaderRan = (p: Page) => p.evaluate(() => typeof (window as { qwikevents?: unknown }).qwikevents !== "undefined")
  expect(await loaderRan(page)).toBe(false)
  const scripted = await demo.browser.newPage()
  await scripted.goto(`${origin}/sign-in/`)
  expect(await loaderRan(scripted)).toBe(true)
  await scripted.close()
  await startSso(page, origin, "ada@acme.test")
  await page.waitForURL((url) => url.pathname === "/demo-saml-idp/sso")
  await page.getByRole("heading", { name: "Who signs in?" }).waitFor()
  await page.close()
}
