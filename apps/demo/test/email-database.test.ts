import { describe, expect, it } from "vitest"
import { screenshot } from "./harness/browser.js"
import { useDemo } from "./harness/use-demo.js"

const demo = useDemo({ AUTH_SESSION_STRATEGY: "database" })

describe("database sessions on PGlite (AUTH_SESSION_STRATEGY=database)", () => {
  it("sends the link to the inbox, signs in through it once, shows the database session record, signs out", async () => {
    const page = await demo.browser.newPage()
    const errors: string[] = []
    page.on("pageerror", (err) => errors.push(err.message))

    await page.goto(`${demo.server.origin}/inbox/`)
    await page.getByText("No mail yet.").waitFor()

    await page.goto(`${demo.server.origin}/account/`)
    expect(new URL(page.url()).pathname).toBe("/sign-in/")
    await page.getByLabel("Email for a sign-in link").fill("grace@example.com")
    await page.getByRole("button", { name: "Email me a sign-in link" }).click()
    await page.waitForURL((url) => url.pathname === "/auth/verify-request")
    await page.getByRole("heading", { name: "Check your email" }).waitFor()
    await screenshot(page, "email-verify-request")

    await page.goto(`${demo.server.origin}/inbox/`)
    const mail = page.getByRole("article")
    await mail.waitFor()
    expect(await mail.textContent()).toContain("grace@example.com")
    await screenshot(page, "inbox")
    const link = await page.getByRole("link", { name: "Open the link in this message" }).getAttribute("href")
    expect(new URL(link!).pathname).toBe("/auth/callback/nodemailer")

    await page.goto(link!)
    await page.getByRole("heading", { name: "Confirm sign in" }).waitFor()
    await screenshot(page, "email-confirm")
    await page.getByRole("button", { name: "Sign in" }).click()
    await page.waitForURL(`${demo.server.origin}/account/`)
    expect(await page.locator(".facts dd").nth(1).textContent()).toBe("grace@example.com")

    await page.reload()
    expect(await page.locator(".who").textContent()).toBe("grace@example.com")
    await page.goto(`${demo.server.origin}/session/`)
    const record = JSON.parse((await page.getByLabel("Session record").textContent()) ?? "null")
    expect(record).toMatchObject({ sessionToken: expect.stringContaining("SHA-256 of the cookie") })
    expect(Date.parse(record.expires)).toBeGreaterThan(Date.now())
    const cookie = (await demo.browser.context.cookies(demo.server.origin)).find((c) => c.name === "authlib.session-token")!
    expect(cookie.value.split(".")).toHaveLength(1)
    await screenshot(page, "session-database")

    // The link is single-use: following it again does not sign anyone in.
    await page.getByRole("button", { name: "Sign out" }).click()
    await page.getByRole("link", { name: "Sign in", exact: true }).waitFor()
    // Opened again, the used link says so at once, on the demo's own sign-in page (pages.error).
    await page.goto(link!)
    await page.waitForURL((url) => url.pathname === "/sign-in/" && url.searchParams.get("error") === "Verification")
    expect(await page.getByRole("alert").textContent()).toBe("That sign-in link was already used or has expired. Ask for a new one below.")
    expect((await demo.browser.context.cookies(demo.server.origin)).some((c) => c.name === "authlib.session-token")).toBe(false)
    expect(errors).toEqual([])
    await page.close()
  })

  it("signs in with the password too: the cookie holds a token, the database its record; sign-out ends it", async () => {
    const page = await demo.browser.newPage()
    await page.goto(`${demo.server.origin}/sign-in/?callbackUrl=%2Fsession%2F`)
    await page.getByLabel("Email", { exact: true }).fill("ada@example.com")
    await page.getByLabel("Password", { exact: true }).fill("correct-horse-battery")
    await page.getByRole("button", { name: "Sign in with email and password" }).click()
    await page.waitForURL(`${demo.server.origin}/session/`)
    const record = JSON.parse((await page.getByLabel("Session record").textContent()) ?? "null")
    expect(record).toMatchObject({ sessionToken: expect.stringContaining("SHA-256 of the cookie") })
    expect(JSON.parse((await page.getByLabel("Session JSON").textContent()) ?? "null").user).toMatchObject({ email: "ada@example.com" })
    await page.getByRole("button", { name: "Sign out" }).click()
    await page.getByRole("link", { name: "Sign in", exact: true }).waitFor()
    await page.goto(`${demo.server.origin}/session/`)
    expect(JSON.parse((await page.getByLabel("Session record").textContent()) ?? "undefined")).toBeNull()
    await page.close()
  })

  it("signs in with the Demo IdP too: user and account in the database, the session a record, sign-out ends it", async () => {
    await demo.browser.context.clearCookies()
    const page = await demo.browser.newPage()
    await page.goto(`${demo.server.origin}/sign-in/?callbackUrl=%2Fsession%2F`)
    await page.getByRole("button", { name: "Continue with Demo IdP" }).click()
    await page.getByLabel("User name").fill("alan")
    await page.getByLabel("Password").fill("idp-demo")
    await page.getByRole("button", { name: "Sign in" }).click()
    await page.getByRole("button", { name: "Allow" }).click()
    await page.waitForURL(`${demo.server.origin}/session/`)
    const session = JSON.parse((await page.getByLabel("Session JSON").textContent()) ?? "null")
    expect(session.user).toMatchObject({ name: "Alan Turing", email: "alan.turing@idp.demo" })
    const record = JSON.parse((await page.getByLabel("Session record").textContent()) ?? "null")
    expect(record).toMatchObject({ sessionToken: expect.stringContaining("SHA-256 of the cookie"), userId: expect.any(String) })
    const cookie = (await demo.browser.context.cookies(demo.server.origin)).find((c) => c.name === "authlib.session-token")!
    expect(cookie.value.split(".")).toHaveLength(1)
    await page.getByRole("button", { name: "Sign out" }).click()
    await page.getByRole("link", { name: "Sign in", exact: true }).waitFor()
    await page.goto(`${demo.server.origin}/session/`)
    expect(JSON.parse((await page.getByLabel("Session record").textContent()) ?? "undefined")).toBeNull()
    await page.close()
  })
})
