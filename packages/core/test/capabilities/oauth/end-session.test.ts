/**
 * Signing out at the provider too (OpenID Connect RP-Initiated Logout) with `signOutAtProvider`,
 * against a real OpenID provider: the sign-out ends the app's session and sends the browser to the
 * provider's end_session_endpoint with the ID token and the checked callback URL; the provider signs
 * the user out and sends the browser back.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { AdapterAccount, AuthConfig, OAuthConfig } from "../../../src/index.js"
import { allowInsecureOAuthRequests } from "../../../src/capabilities/oauth/index.js"
import { APP, browserFor, callbackOf, locationOf, sessionCookie, signInAtLocalOP, testConfig, type LoggedError } from "./helpers/app.js"
import { readForm, type Browser } from "@authlib/e2e-kit/oidc/browser"
import { clients, startLocalOP, type LocalOP } from "@authlib/e2e-kit/oidc/local-op"
import { spyAdapter } from "./helpers/spy-adapter.js"

let op: LocalOP
beforeAll(async () => {
  op = await startLocalOP([callbackOf("op")], { postLogoutRedirectUris: [`${APP}/`, `${APP}/bye`] })
})
afterAll(() => op.close())

function setup(over: Record<string, unknown> = {}, errors: LoggedError[] = []) {
  const adapter = spyAdapter()
  const withAccounts = Object.assign(adapter, {
    /** Set to make the accounts read fail (the adapter is wrapped once, so the switch lives inside). */
    failAccounts: false,
    listAccountsByUserId: async (userId: string) => {
      if (withAccounts.failAccounts) throw new Error("accounts table unavailable")
      return adapter.accounts.filter((a: AdapterAccount) => a.userId === userId)
    },
  })
  const provider = { id: "op", name: "Local OP", type: "oidc", issuer: op.issuer, clientId: clients.basic.client_id, clientSecret: clients.basic.client_secret, [allowInsecureOAuthRequests]: true, signOutAtProvider: true, ...over } as unknown as OAuthConfig
  const config: AuthConfig = testConfig({ providers: [provider], adapter: withAccounts, session: { strategy: "database" } }, errors)
  return { config, adapter: withAccounts, browser: browserFor(config) }
}

async function signOut(browser: Browser, callbackUrl: string) {
  const csrf = await browser.request(`${APP}/auth/csrf`)
  const { csrfToken } = JSON.parse(csrf.body) as { csrfToken: string }
  return browser.form(`${APP}/auth/signout`, { csrfToken, callbackUrl }, { origin: APP })
}

describe("signOutAtProvider", () => {
  it("ends the app's session, then the provider's, and the provider sends the browser back to the callback URL", async () => {
    const { browser, adapter } = setup()
    await signInAtLocalOP(browser, "op", "alice")
    const idToken = adapter.accounts.find((a) => a.provider === "op")!.id_token!
    expect(idToken).toBeTruthy()
    const out = await signOut(browser, `${APP}/bye`)
    expect(out.response.status).toBe(302)
    const target = new URL(locationOf(out))
    expect(target.origin).toBe(op.issuer)
    expect(target.searchParams.get("id_token_hint")).toBe(idToken)
    expect(target.searchParams.get("post_logout_redirect_uri")).toBe(`${APP}/bye`)
    expect(target.searchParams.get("client_id")).toBe(clients.basic.client_id)
    expect(sessionCookie(browser)).toBeUndefined()
    expect(adapter.sessions.size).toBe(0)

    // At the provider: its confirmation, then back to the app.
    const confirm = await browser.follow(target.href, (url) => url.startsWith(APP))
    const { action, fields } = readForm(confirm.body, confirm.url)
    const done = await browser.form(action, { ...fields, logout: "yes" })
    const back = await browser.follow(new URL(done.response.headers.get("location")!, done.url).href, (url) => url.startsWith(APP))
    expect(back.url).toBe(`${APP}/bye`)
  })

  it("a callback URL to another site is checked first: the provider is told to come back to the app, never there", async () => {
    const { browser } = setup()
    await signInAtLocalOP(browser, "op", "alice")
    const out = await signOut(browser, "https://evil.example/phish")
    const target = new URL(locationOf(out))
    expect(target.searchParams.get("post_logout_redirect_uri")).toBe(APP)
  })

  it("without signOutAtProvider the sign-out ends on the app as before", async () => {
    const { browser } = setup({ signOutAtProvider: false })
    await signInAtLocalOP(browser, "op", "alice")
    const out = await signOut(browser, `${APP}/bye`)
    expect(locationOf(out)).toBe(`${APP}/bye`)
  })

  it("when the provider's side cannot be worked out (here the accounts read fails), the sign-out still ends on the app and logs it", async () => {
    const errors: LoggedError[] = []
    const { browser, adapter } = setup({}, errors)
    await signInAtLocalOP(browser, "op", "alice")
    adapter.failAccounts = true
    const out = await signOut(browser, `${APP}/bye`)
    expect(locationOf(out)).toBe(`${APP}/bye`)
    expect(sessionCookie(browser)).toBeUndefined()
    expect(adapter.sessions.size).toBe(0)
    expect(JSON.stringify(errors.map((e) => String((e.error as { cause?: { err?: Error } })?.cause?.err?.message ?? e.error)))).toContain("accounts table unavailable")
  })
})
