import { describe, expect, it } from "vitest"
import { screenshot } from "./harness/browser.js"
import { useDemo } from "./harness/use-demo.js"

const demo = useDemo()

describe("sign-in with email and password (credentials provider, JWT session)", () => {
  it("protects /account/, refuses a wrong password with a message, signs in, keeps the session across reloads, signs out", async () => {
    const page = await demo.browser.newPage()
    const errors: string[] = []
    page.on("pageerror", (err) => errors.push(err.message))

    await page.goto(`${demo.server.origin}/account/`)
    expect(new URL(page.url()).pathname).toBe("/sign-in/")
    expect(new URL(page.url()).searchParams.get("callbackUrl")).toBe("/account/")
    await page.getByRole("heading", { level: 1, name: "Sign in" }).waitFor()
    await screenshot(page, "sign-in")

    await page.getByLabel("Email", { exact: true }).fill("ada@example.com")
    await page.getByLabel("Password", { exact: true }).fill("not-the-password")
    await page.getByRole("button", { name: "Sign in with email and password" }).click()
    const alert = page.getByRole("alert")
    await alert.waitFor()
    expect(await alert.textContent()).toBe("That email and password do not match an account.")
    expect(new URL(page.url()).pathname).toBe("/sign-in/")
    await screenshot(page, "sign-in-wrong-password")

    await page.getByLabel("Password", { exact: true }).fill("correct-horse-battery")
    await page.getByRole("button", { name: "Sign in with email and password" }).click()
    await page.waitForURL(`${demo.server.origin}/account/`)
    await page.getByRole("heading", { level: 1, name: "Your account" }).waitFor()
    expect(await page.locator(".facts dd").first().textContent()).toBe("Ada Lovelace")
    await screenshot(page, "account")

    await page.reload()
    await page.getByRole("heading", { level: 1, name: "Your account" }).waitFor()
    expect(await page.locator(".who").textContent()).toBe("Ada Lovelace")
    const cookies = await demo.browser.context.cookies(demo.server.origin)
    const session = cookies.find((c) => c.name === "authlib.session-token")
    expect(session).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/" })

    await page.goto(`${demo.server.origin}/session/`)
    const sessionJson = JSON.parse((await page.getByLabel("Session JSON").textContent()) ?? "null")
    expect(sessionJson.user).toMatchObject({ name: "Ada Lovelace", email: "ada@example.com" })
    const token = JSON.parse((await page.getByLabel("Token payload").textContent()) ?? "null")
    expect(token).toMatchObject({ email: "ada@example.com", sub: "demo-ada" })
    await screenshot(page, "session")

    await page.getByRole("button", { name: "Sign out" }).click()
    await page.getByRole("link", { name: "Sign in", exact: true }).waitFor()
    expect(new URL(page.url()).pathname).toBe("/")
    expect((await demo.browser.context.cookies(demo.server.origin)).some((c) => c.name === "authlib.session-token")).toBe(false)
    await page.goto(`${demo.server.origin}/account/`)
    expect(new URL(page.url()).pathname).toBe("/sign-in/")
    expect(errors).toEqual([])
    await page.close()
  })
})
