import { describe, expect, it } from "vitest"
import { screenshot } from "./harness/browser.js"
import { useDemo } from "./harness/use-demo.js"

const demo = useDemo()

describe("sign-in with the Demo IdP (local OpenID provider, authorization code + PKCE)", () => {
  it("from the home page's useSignIn button, goes through the IdP's login and consent pages and comes back signed in", async () => {
    const page = await demo.browser.newPage()
    const errors: string[] = []
    page.on("pageerror", (err) => errors.push(err.message))
    await page.goto(`${demo.server.origin}/`)
    const status = page.getByRole("region", { name: "Your session" })
    expect(await status.textContent()).toContain("You are not signed in.")
    await status.getByRole("button", { name: "Continue with Demo IdP" }).click()

    await page.waitForURL((url) => url.origin !== demo.server.origin)
    await page.getByRole("heading", { name: "Sign in", exact: true }).waitFor()
    const idp = new URL(page.url())
    expect(idp.origin).not.toBe(demo.server.origin)
    expect(idp.hostname).toBe("127.0.0.1")
    await page.getByLabel("User name").fill("grace")
    await page.getByLabel("Password").fill("wrong")
    await page.getByRole("button", { name: "Sign in" }).click()
    expect(await page.getByRole("alert").textContent()).toBe("Unknown user name or wrong password.")
    await screenshot(page, "idp-login")
    await page.getByLabel("User name").fill("grace")
    await page.getByLabel("Password").fill("idp-demo")
    await page.getByRole("button", { name: "Sign in" }).click()

    await page.getByRole("heading", { name: "Allow access?" }).waitFor()
    expect(await page.locator("main").textContent()).toContain("grace")
    await screenshot(page, "idp-consent")
    await page.getByRole("button", { name: "Allow" }).click()

    await page.waitForURL(`${demo.server.origin}/account/`)
    expect(await page.locator(".facts dd").first().textContent()).toBe("Grace Hopper")
    expect(await page.locator(".facts dd").nth(1).textContent()).toBe("grace.hopper@idp.demo")
    await page.reload()
    expect(await page.locator(".who").textContent()).toBe("Grace Hopper")
    await screenshot(page, "account-idp")

    await page.goto(`${demo.server.origin}/`)
    expect(await status.textContent()).toContain("Signed in as Grace Hopper (grace.hopper@idp.demo).")
    await screenshot(page, "home-signed-in")
    await status.getByRole("button", { name: "Sign out" }).click()
    await status.getByText("You are not signed in.").waitFor()
    expect((await demo.browser.context.cookies(demo.server.origin)).some((c) => c.name === "authlib.session-token")).toBe(false)
    expect(errors).toEqual([])
    await page.close()
  })

  it("cancelling at the IdP's consent page signs no one in and ends on an error, not a crash", async () => {
    // A new visitor: no app cookies and no session at the IdP from the test before.
    await demo.browser.context.clearCookies()
    const page = await demo.browser.newPage()
    await page.goto(`${demo.server.origin}/sign-in/`)
    await page.getByRole("button", { name: "Continue with Demo IdP" }).click()
    await page.getByLabel("User name").fill("alan")
    await page.getByLabel("Password").fill("idp-demo")
    await page.getByRole("button", { name: "Sign in" }).click()
    await page.getByRole("button", { name: "Cancel" }).click()
    // Back on the demo's own sign-in page (pages.error), where the user started, not core's error page.
    await page.waitForURL((url) => url.origin === demo.server.origin && url.pathname === "/sign-in/")
    expect(new URL(page.url()).searchParams.get("error")).toBe("OAuthCallbackCancelled")
    // It reads as cancelled (not "you do not have permission"), with the ways to try again beside it.
    expect(await page.getByRole("alert").textContent()).toBe("You cancelled the sign-in at the provider. Try again when you are ready.")
    expect(await page.getByRole("button", { name: "Continue with Demo IdP" }).count()).toBe(1)
    expect((await demo.browser.context.cookies(demo.server.origin)).some((c) => c.name === "authlib.session-token")).toBe(false)
    await screenshot(page, "idp-cancelled")
    await page.close()
  })
})
