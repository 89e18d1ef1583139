/**
 * A hostile OpenID provider forges the authorization response and the tokens. Every forgery must
 * end on the error page with no session cookie and no adapter write, under both session strategies.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest"
import type { CookieJar } from "@authlib/e2e-kit/cookie-jar"
import type { AuthConfig, OAuthConfig } from "../../../src/index.js"
import { allowInsecureOAuthRequests } from "../../../src/capabilities/oauth/index.js"
import { APP, browserFor, callbackOf, locationOf, sessionCookie, startSignIn, testConfig, type LoggedError } from "./helpers/app.js"
import type { Browser, Step } from "@authlib/e2e-kit/oidc/browser"
import { startHostileOP, type HostileOP, type Scenario } from "./helpers/hostile-op.js"
import { spyAdapter, type SpyAdapter } from "./helpers/spy-adapter.js"

let op: HostileOP
beforeAll(async () => {
  op = await startHostileOP()
})
afterAll(() => op.close())

function provider(id: string, extra: Partial<OAuthConfig> = {}): OAuthConfig {
  return {
    id, name: id, type: "oidc", issuer: op.issuer, clientId: op.clientId, clientSecret: "s3cret",
    checks: ["pkce", "state", "nonce"], [allowInsecureOAuthRequests]: true, ...extra,
  } as unknown as OAuthConfig
}

let errors: LoggedError[]
let adapter: SpyAdapter
afterEach(() => {
  vi.useRealTimers()
})
beforeEach(() => {
  errors = []
  adapter = spyAdapter()
  op.scenario = "honest"
  op.tokenRequests = 0
})

const strategies = [
  ["jwt", () => ({})],
  ["database", () => ({ adapter })],
] as const

function configFor(strategy: () => Partial<AuthConfig>, providers = [provider("hostile"), provider("hostile-b")]): AuthConfig {
  return testConfig({ providers, ...strategy() }, errors)
}

/** Starts at the app, lets the OP answer (a redirect back to the app), returns the callback URL. */
async function callbackUrlFrom(browser: Browser, id: string): Promise<string> {
  const start = await startSignIn(browser, id)
  const answer = await browser.follow(locationOf(start), (url) => url.startsWith(APP))
  return answer.url
}

function expectRefused(step: Step, browser: Browser, code?: string | RegExp): void {
  const location = new URL(locationOf(step))
  expect(location.origin + location.pathname).toBe(`${APP}/auth/error`)
  expect(["Configuration", "AccessDenied"]).toContain(location.searchParams.get("error"))
  expect(step.response.headers.getSetCookie().some((c) => c.startsWith("authlib.session-token") && !/Max-Age=0/i.test(c))).toBe(false)
  expect(sessionCookie(browser)).toBeUndefined()
  expect(adapter.writes).toEqual([])
  if (code) expect(errors.map((e) => e.code)).toContainEqual(typeof code === "string" ? code : expect.stringMatching(code))
}

describe.each(strategies)("hostile OP, %s sessions", (_name, strategy) => {
  it("an honest answer from the same server signs in (the harness itself works)", async () => {
    const browser = browserFor(configFor(strategy))
    const done = await browser.request(await callbackUrlFrom(browser, "hostile"))
    expect(errors).toEqual([])
    expect(locationOf(done)).toBe(`${APP}/dashboard`)
    expect(sessionCookie(browser)).toBeDefined()
  })

  it("passes a JSON `user` field of the response (Apple's first sign-in) on as profile.user", async () => {
    let seen: any
    const config = testConfig({ providers: [provider("hostile")], ...strategy(), callbacks: { signIn: ({ profile }) => ((seen = profile), true) } }, errors)
    const browser = browserFor(config)
    const callback = new URL(await callbackUrlFrom(browser, "hostile"))
    callback.searchParams.set("user", JSON.stringify({ name: { firstName: "Ann", lastName: "Lee" } }))
    await browser.request(callback.href)
    expect(errors).toEqual([])
    expect(seen.user).toEqual({ name: { firstName: "Ann", lastName: "Lee" } })
    expect(seen.sub).toBe("mallory-sub")
  })

  it.each<[Scenario, string]>([
    ["wrong-iss", "ID_TOKEN_ISS_MISMATCH"],
    ["wrong-aud", "ID_TOKEN_AUD_MISMATCH"],
    ["expired", "ID_TOKEN_EXPIRED"],
    ["bad-signature", "ID_TOKEN_SIGNATURE_INVALID"],
    ["alg-none", "ID_TOKEN_ALG_REFUSED"],
    ["wrong-nonce", "CHECK_NONCE_MISMATCH"],
    ["no-iss-param", "ISSUER_MISSING"],
    ["wrong-iss-param", "ISSUER_MISMATCH"],
  ])("refuses %s", async (scenario, code) => {
    op.scenario = scenario
    const browser = browserFor(configFor(strategy))
    const done = await browser.request(await callbackUrlFrom(browser, "hostile"))
    expectRefused(done, browser, code)
  })

  it("signs in through a multi-tenant issuer template (Entra common): iss must be the template filled with tid", async () => {
    op.scenario = "tenant"
    const common = [provider("hostile", { issuer: `${op.issuer}/common/v2.0` })]
    const browser = browserFor(configFor(strategy, common))
    const done = await browser.request(await callbackUrlFrom(browser, "hostile"))
    expect(errors).toEqual([])
    expect(locationOf(done)).toBe(`${APP}/dashboard`)
  })

  it("refuses a multi-tenant ID token whose iss names another tenant than its tid", async () => {
    op.scenario = "tenant-mismatch"
    const common = [provider("hostile", { issuer: `${op.issuer}/common/v2.0` })]
    const browser = browserFor(configFor(strategy, common))
    const done = await browser.request(await callbackUrlFrom(browser, "hostile"))
    expectRefused(done, browser, "ID_TOKEN_ISS_MISMATCH")
  })

  it("refuses a userinfo response whose sub differs from the ID token's (idToken: false)", async () => {
    op.scenario = "userinfo-other-sub"
    const browser = browserFor(configFor(strategy, [provider("hostile", { idToken: false })]))
    const done = await browser.request(await callbackUrlFrom(browser, "hostile"))
    expectRefused(done, browser, "USERINFO_SUBJECT_MISMATCH")
  })

  it("refuses a replayed callback: its check cookies were spent by the first use", async () => {
    const browser = browserFor(configFor(strategy))
    const callback = await callbackUrlFrom(browser, "hostile")
    await browser.request(callback)
    // Another browser that has the spent callback URL but no (or stale) check cookies.
    const attacker = browserFor(configFor(strategy))
    await startSignIn(attacker, "hostile")
    adapter.writes.length = 0
    errors.length = 0
    const tokenRequests = op.tokenRequests
    const replay = await attacker.request(callback)
    expectRefused(replay, attacker, "CHECK_STATE_MISMATCH")
    expect(op.tokenRequests).toBe(tokenRequests)
  })

  it("refuses a state from an earlier sign-in once a newer one has started", async () => {
    const browser = browserFor(configFor(strategy))
    const first = await callbackUrlFrom(browser, "hostile")
    await callbackUrlFrom(browser, "hostile")
    const done = await browser.request(first)
    expectRefused(done, browser, "CHECK_STATE_MISMATCH")
  })

  it("refuses check cookies minted for provider A on provider B's callback", async () => {
    const browser = browserFor(configFor(strategy))
    const forA = new URL(await callbackUrlFrom(browser, "hostile"))
    const onB = `${callbackOf("hostile-b")}${forA.search}`
    const done = await browser.request(onB)
    expectRefused(done, browser, "CHECK_STATE_PROVIDER_MISMATCH")
    expect(op.tokenRequests).toBe(0)
  })

  it.each([
    ["missing", (jar: CookieJar) => jar.delete("authlib.pkce.code_verifier"), "CHECK_PKCE_COOKIE_MISSING"],
    ["tampered", (jar: CookieJar) => jar.set("authlib.nonce", `${jar.get("authlib.nonce")!.slice(0, -4)}AAAA`), "CHECK_NONCE_COOKIE_INVALID"],
  ] as const)("refuses a %s check cookie before calling the token endpoint", async (_label, mutate, code) => {
    const browser = browserFor(configFor(strategy))
    const callback = await callbackUrlFrom(browser, "hostile")
    mutate(browser.cookies(APP))
    expectRefused(await browser.request(callback), browser, code)
    expect(op.tokenRequests).toBe(0)
  })

  it("answers a form_post POST with a 303 to the GET callback, never signing in on the POST itself", async () => {
    const browser = browserFor(configFor(strategy))
    const callback = new URL(await callbackUrlFrom(browser, "hostile"))
    const posted = await browser.form(`${APP}${callback.pathname}`, Object.fromEntries(callback.searchParams), { origin: op.issuer })
    expect(posted.response.status).toBe(303)
    expect(locationOf(posted)).toBe(callback.href)
    expect(sessionCookie(browser)).toBeUndefined()
    expect(op.tokenRequests).toBe(0)
  })

  it("refuses a code the provider rejects (invalid_grant), with the provider's error in the log", async () => {
    const browser = browserFor(configFor(strategy))
    const callback = new URL(await callbackUrlFrom(browser, "hostile"))
    callback.searchParams.set("code", "forged-code")
    expectRefused(await browser.request(callback.href), browser, "TOKEN_RESPONSE_ERROR")
    expect((errors[0]!.error as any).cause.error).toBe("invalid_grant")
  })

  it("refuses a callback without a code", async () => {
    const browser = browserFor(configFor(strategy))
    const callback = new URL(await callbackUrlFrom(browser, "hostile"))
    callback.searchParams.delete("code")
    expectRefused(await browser.request(callback.href), browser, /^TOKEN_RESPONSE_/)
    expect(op.tokenRequests).toBe(0)
  })

  it("refuses check cookies older than 15 minutes", async () => {
    const browser = browserFor(configFor(strategy))
    const callback = await callbackUrlFrom(browser, "hostile")
    vi.useFakeTimers({ toFake: ["Date"] })
    vi.setSystemTime(Date.now() + 16 * 60 * 1000)
    expectRefused(await browser.request(callback), browser, "CHECK_STATE_COOKIE_INVALID")
    expect(op.tokenRequests).toBe(0)
  })

  it("turns an error answer from the provider into the error page (access_denied -> OAuthCallbackCancelled)", async () => {
    const browser = browserFor(configFor(strategy))
    const callback = new URL(await callbackUrlFrom(browser, "hostile"))
    callback.searchParams.delete("code")
    callback.searchParams.set("error", "access_denied")
    const done = await browser.request(callback.href)
    expect(new URL(locationOf(done)).searchParams.get("error")).toBe("OAuthCallbackCancelled")
    expect(sessionCookie(browser)).toBeUndefined()
    expect(adapter.writes).toEqual([])
  })
})
