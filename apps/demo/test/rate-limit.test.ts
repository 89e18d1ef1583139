/**
 * authlib's default rate limits as a user of the demo meets them, through the Qwik binding: the
 * sixth wrong password in a minute and a second sign-in link within the cooldown are refused with
 * a message on the sign-in page (the binding's failure shape), not an error page.
 */
import { describe, expect, it } from "vitest"
import { screenshot } from "./harness/browser.js"
import { useDemo } from "./harness/use-demo.js"

const demo = useDemo()

describe("rate limits on the demo's sign-in page", () => {
  it("the 6th wrong password within a minute says to wait; the right one is refused too until then", async () => {
    const page = await demo.browser.newPage()
    await page.goto(`${demo.server.origin}/sign-in/`)
    const submit = async (password: string) => {
      await page.getByLabel("Email", { exact: true }).fill("ada@example.com")
      await page.getByLabel("Password", { exact: true }).fill(password)
      // Each answer is read after its own action request has been answered (the texts repeat).
      await Promise.all([
        page.waitForResponse((res) => res.request().method() === "POST" && res.url().includes("/sign-in/")),
        page.getByRole("button", { name: "Sign in with email and password" }).click(),
      ])
      await page.getByRole("button", { name: "Sign in with email and password" }).and(page.locator(":enabled")).waitFor()
      return page.getByRole("alert").textContent()
    }
    for (let i = 0; i < 5; i++) expect(await submit(`wrong-${i}`)).toBe("That email and password do not match an account.")
    expect(await submit("wrong-5")).toMatch(/^Too many attempts\. Please try again in \d+ seconds\.$/)
    expect(await submit("correct-horse-battery")).toMatch(/^Too many attempts/)
    expect(new URL(page.url()).pathname).toBe("/sign-in/")
    await screenshot(page, "sign-in-rate-limited")
    await page.close()
  })

  it("a second sign-in link for one address within a minute is refused on the page; one mail arrives", async () => {
    const page = await demo.browser.newPage()
    await page.goto(`${demo.server.origin}/sign-in/`)
    await page.getByLabel("Email for a sign-in link").fill("linus@example.com")
    await page.getByRole("button", { name: "Email me a sign-in link" }).click()
    await page.waitForURL((url) => url.pathname === "/auth/verify-request")
    await page.goto(`${demo.server.origin}/sign-in/`)
    await page.getByLabel("Email for a sign-in link").fill("linus@example.com")
    await page.getByRole("button", { name: "Email me a sign-in link" }).click()
    const alert = page.getByRole("alert")
    await alert.waitFor()
    expect(await alert.textContent()).toMatch(/^Too many attempts\. Please try again in \d+ seconds\.$/)
    await page.goto(`${demo.server.origin}/inbox/`)
    expect(await page.getByText("linus@example.com").count()).toBe(1)
    await page.close()
  })
})
