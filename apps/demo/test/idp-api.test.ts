/**
 * The account page calls the Demo IdP's API with the user's access token, which authlib's
 * `getAccessToken` keeps fresh on the server (the IdP's tokens live 5 minutes, its refresh tokens
 * work once): the API answers, a reload reuses the token, and "Refresh the token now" gives a token
 * with a later expiry that works too.
 */
import { describe, expect, it } from "vitest"
import { screenshot } from "./harness/browser.js"
import { useDemo } from "./harness/use-demo.js"

const demo = useDemo({ AUTH_SESSION_STRATEGY: "database" })

describe("calling the Demo IdP's API from the account page", () => {
  it("shows what the IdP's API answered with the access token, and a refresh gives a later expiry", async () => {
    const page = await demo.browser.newPage()
    await page.goto(`${demo.server.origin}/sign-in/`)
    await page.getByRole("button", { name: "Continue with Demo IdP" }).click()
    await page.getByLabel("User name").fill("alan")
    await page.getByLabel("Password").fill("idp-demo")
    await page.getByRole("button", { name: "Sign in" }).click()
    await page.getByRole("button", { name: "Allow" }).click()
    await page.waitForURL(`${demo.server.origin}/`)
    await page.goto(`${demo.server.origin}/account/`)

    const card = page.getByRole("region", { name: "Calling the Demo IdP's API" })
    expect(await card.locator(".idp-answer").textContent()).toBe("The IdP says you are Alan Turing (alan.turing@idp.demo).")
    const first = Date.parse((await card.locator(".idp-expiry").getAttribute("datetime")) ?? "")
    expect(first).toBeGreaterThan(Date.now())
    expect(first).toBeLessThanOrEqual(Date.now() + 301_000)
    await screenshot(page, "account-idp-api")
    // A reload reuses the token (it is not due), so the button below is what changes it.
    await page.reload()
    expect(Date.parse((await card.locator(".idp-expiry").getAttribute("datetime")) ?? "")).toBe(first)

    await page.waitForTimeout(1100)
    await card.getByRole("button", { name: "Refresh the token now" }).click()
    await page.waitForFunction((before) => Date.parse(document.querySelector(".idp-expiry")?.getAttribute("datetime") ?? "") > before, first)
    expect(await card.locator(".idp-answer").textContent()).toBe("The IdP says you are Alan Turing (alan.turing@idp.demo).")
    await page.close()
  })

  it("a user signed in with a password has no IdP account: the page says how to get one", async () => {
    await demo.browser.context.clearCookies()
    const page = await demo.browser.newPage()
    await page.goto(`${demo.server.origin}/sign-in/`)
    await page.getByLabel("Email", { exact: true }).fill("ada@example.com")
    await page.getByLabel("Password", { exact: true }).fill("correct-horse-battery")
    await page.getByRole("button", { name: "Sign in with email and password" }).click()
    await page.waitForURL(`${demo.server.origin}/`)
    await page.goto(`${demo.server.origin}/account/`)
    expect(await page.getByRole("region", { name: "Calling the Demo IdP's API" }).textContent()).toContain("Sign in with the Demo IdP to call its API")
    await page.close()
  })
})
