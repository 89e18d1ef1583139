/**
 * The account page lists where the user is signed in (database sessions) and signs the others out:
 * a second "device" signs in over HTTP with its own cookie jar; after "Sign out everywhere else" its
 * session is gone and this browser's stays.
 */
import { describe, expect, it } from "vitest"
import { screenshot } from "./harness/browser.js"
import { useDemo } from "./harness/use-demo.js"

const demo = useDemo({ AUTH_SESSION_STRATEGY: "database" })

/** Signs ada in from "another device": plain HTTP with its own cookies; answers its Cookie header. */
async function otherDevice(origin: string): Promise<string> {
  const jar = new Map<string, string>()
  const keep = (res: Response) => {
    for (const line of res.headers.getSetCookie()) {
      const pair = line.split(";")[0]!
      const name = pair.slice(0, pair.indexOf("="))
      jar.set(name, pair.slice(name.length + 1))
    }
  }
  const header = () => [...jar].map(([k, v]) => `${k}=${v}`).join("; ")
  const csrf = await fetch(`${origin}/auth/csrf`)
  keep(csrf)
  const { csrfToken } = (await csrf.json()) as { csrfToken: string }
  const signIn = await fetch(`${origin}/auth/callback/password`, {
    method: "POST",
    redirect: "manual",
    headers: { cookie: header(), origin, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ csrfToken, email: "ada@example.com", password: "correct-horse-battery" }),
  })
  keep(signIn)
  expect(jar.has("authlib.session-token")).toBe(true)
  return header()
}

async function sessionOf(origin: string, cookie: string): Promise<unknown> {
  return (await fetch(`${origin}/auth/session`, { headers: { cookie } })).json()
}

describe("the account page's sessions", () => {
  it("lists this browser and another device, and signs the other out everywhere", async () => {
    const origin = demo.server.origin
    const device = await otherDevice(origin)
    const page = await demo.browser.newPage()
    await page.goto(`${origin}/sign-in/`)
    await page.getByLabel("E-mail", { exact: true }).fill("ada@example.com")
    await page.getByLabel("Password", { exact: true }).fill("correct-horse-battery")
    await page.getByRole("button", { name: "Sign in with e-mail and password" }).click()
    await page.waitForURL(`${origin}/`)
    await page.goto(`${origin}/account/`)
    const region = page.getByRole("region", { name: "Where you are signed in" })
    await expect.poll(() => region.locator(".session").count()).toBe(2)
    expect(await region.locator(".session").allTextContents()).toEqual(expect.arrayContaining([expect.stringContaining("This browser"), expect.stringContaining("Another browser or device")]))
    await screenshot(page, "account-sessions")
    expect(await sessionOf(origin, device)).toMatchObject({ user: { email: "ada@example.com" } })

    await region.getByRole("button", { name: "Sign out everywhere else" }).click()
    await region.getByText("Signed out of 1 other session(s).").waitFor()
    expect(await sessionOf(origin, device)).toBeNull()
    await page.reload()
    await expect.poll(() => region.locator(".session").count()).toBe(1)
    expect(await region.locator(".session").textContent()).toContain("This browser")
    await page.close()
  })
})
