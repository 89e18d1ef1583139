/** Signing ada in from a browser page, and from "another device" (plain HTTP with its own cookies). */
import { expect } from "vitest"
import type { Page } from "playwright-core"
import { CookieJar } from "@authlib/e2e-kit/cookie-jar"
import { DEMO_LOGIN } from "../../src/lib/demo-login.js"

/** Signs ada in from "another device": plain HTTP with its own cookies; answers its Cookie header. */
export async function otherDevice(origin: string): Promise<string> {
  const jar = new CookieJar(origin)
  const keep = (res: Response) => jar.keep(res)
  const header = () => jar.header()
  const csrf = await fetch(`${origin}/auth/csrf`)
  keep(csrf)
  const { csrfToken } = (await csrf.json()) as { csrfToken: string }
  const signIn = await fetch(`${origin}/auth/callback/password`, {
    method: "POST",
    redirect: "manual",
    headers: { cookie: header(), origin, "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ csrfToken, email: DEMO_LOGIN.email, password: DEMO_LOGIN.password }),
  })
  keep(signIn)
  expect(jar.has("authlib.session-token")).toBe(true)
  return header()
}

/** The session `cookie` reads as (JSON of GET /auth/session). */
export async function sessionOf(origin: string, cookie: string): Promise<unknown> {
  return (await fetch(`${origin}/auth/session`, { headers: { cookie } })).json()
}

/** Signs ada in on the demo's sign-in page and waits for the home page. */
export async function signInWithPassword(page: Page, origin: string): Promise<void> {
  await page.goto(`${origin}/sign-in/`)
  await page.getByLabel("Email", { exact: true }).fill(DEMO_LOGIN.email)
  await page.getByLabel("Password", { exact: true }).fill(DEMO_LOGIN.password)
  await page.getByRole("button", { name: "Sign in with email and password" }).click()
  await page.waitForURL(`${origin}/`)
}
