/**
 * Redirect proxy (spec 2.1): a preview deployment signs in through a stable proxy deployment. The
 * provider only knows the proxy's callback; the proxy forwards to the deployment named inside the
 * encrypted `state`, which finishes the sign-in against its own check cookies.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { encode } from "@authlib/jwt"
import { Auth, type AuthConfig, type OAuthConfig } from "../../../src/index.js"
import { allowInsecureOAuthRequests } from "../../../src/capabilities/oauth/index.js"
import { deliver, locationOf, sessionCookie, startSignIn, testConfig, type LoggedError } from "./helpers/app.js"
import { Browser } from "@authlib/e2e-kit/oidc/browser"
import { loginAtOP } from "@authlib/e2e-kit/oidc/op-login"
import { clients, startLocalOP, type LocalOP } from "@authlib/e2e-kit/oidc/local-op"

const PROXY = "http://proxy.test"
const PREVIEW = "http://preview.test"
const SECRET = "shared-secret-0123456789abcdefghijklmnopqrstuvwxyz"

let op: LocalOP
beforeAll(async () => {
  op = await startLocalOP([`${PROXY}/auth/callback/op`])
})
afterAll(() => op.close())

let errors: LoggedError[]
beforeEach(() => {
  errors = []
})

function provider(extra: Partial<OAuthConfig> = {}): OAuthConfig {
  return {
    id: "op", name: "OP", type: "oidc", issuer: op.issuer, clientId: clients.basic.client_id, clientSecret: clients.basic.client_secret,
    [allowInsecureOAuthRequests]: true, ...extra,
  } as unknown as OAuthConfig
}

/** A deployment at `url` that signs in through the proxy; the proxy forwards to PREVIEW only. */
function deployment(url: string, extra: Partial<AuthConfig> = {}): AuthConfig {
  return testConfig({ secret: SECRET, url, redirectProxyUrl: `${PROXY}/auth`, redirectProxyAllowedOrigins: [PREVIEW], providers: [provider()], ...extra }, errors)
}

/** A browser at the preview deployment that can also reach the proxy deployment. */
function previewBrowser(proxy = deployment(PROXY), preview = deployment(PREVIEW)): Browser {
  return new Browser(PREVIEW, (r) => Auth(r, preview), { [PROXY]: (r) => Auth(r, proxy) })
}

describe("redirect proxy", () => {
  it("sends the proxy's callback as redirect_uri and an encrypted state even though checks default to pkce only", async () => {
    const start = await startSignIn(previewBrowser(), "op")
    const url = new URL(locationOf(start))
    expect(url.searchParams.get("redirect_uri")).toBe(`${PROXY}/auth/callback/op`)
    const state = url.searchParams.get("state")!
    expect(state.split(".")).toHaveLength(5) // JWE compact: the origin inside is not readable
    expect(state).not.toContain("preview")
  })

  it("forwards the callback from the proxy to the preview, which finishes the sign-in", async () => {
    const browser = previewBrowser()
    const start = await startSignIn(browser, "op")
    const answer = await loginAtOP(browser, locationOf(start), "alice")
    if (answer.kind !== "redirect") throw new Error("expected a redirect answer")
    expect(answer.url.startsWith(`${PROXY}/auth/callback/op?`)).toBe(true)
    const atProxy = await deliver(browser, answer)
    const forwarded = locationOf(atProxy)
    expect(forwarded.startsWith(`${PREVIEW}/auth/callback/op?`)).toBe(true)
    expect(new URL(forwarded).searchParams.get("code")).toBe(new URL(answer.url).searchParams.get("code"))
    const done = await browser.request(forwarded)
    expect(errors).toEqual([])
    expect(locationOf(done)).toBe(`${PREVIEW}/dashboard`)
    expect(sessionCookie(browser)).toBeDefined()
    expect([...browser.cookies(PROXY).keys()].some((n) => n.includes("session-token"))).toBe(false)
  })

  it.each([
    ["tampered", (state: string) => `${state.slice(0, -6)}AAAAAA`],
    ["missing", () => undefined],
  ])("refuses a %s state at the proxy and forwards nothing", async (_label, change) => {
    const browser = previewBrowser()
    const start = new URL(locationOf(await startSignIn(browser, "op")))
    const callback = new URL(`${PROXY}/auth/callback/op`)
    callback.searchParams.set("code", "stolen-code")
    const state = change(start.searchParams.get("state")!)
    if (state) callback.searchParams.set("state", state)
    const atProxy = await browser.request(callback.href)
    expect(locationOf(atProxy)).toBe(`${PROXY}/auth/error?error=Configuration`)
    expect(errors[0]?.code).toMatch(/^CHECK_STATE_(TAMPERED|MISSING)$/)
  })

  it("refuses a state that names an attacker's site but was sealed with another secret", async () => {
    const forged = await encode({ token: { origin: "https://evil.example/auth/callback/op", random: "x" }, secret: "attacker-secret-0123456789abcdefghijkl", salt: "authlib.redirect-proxy-state" })
    const browser = previewBrowser()
    const atProxy = await browser.request(`${PROXY}/auth/callback/op?code=c&state=${forged}`)
    expect(locationOf(atProxy)).toBe(`${PROXY}/auth/error?error=Configuration`)
    expect(errors[0]?.code).toBe("CHECK_STATE_TAMPERED")
  })

  it("forwards to a preview matched by a wildcard origin", async () => {
    const branch = "http://pr-42.previews.test"
    const proxy = deployment(PROXY, { redirectProxyAllowedOrigins: ["http://*.previews.test"] })
    const preview = deployment(branch)
    const browser = new Browser(branch, (r) => Auth(r, preview), { [PROXY]: (r) => Auth(r, proxy) })
    const answer = await loginAtOP(browser, locationOf(await startSignIn(browser, "op")), "alice")
    const forwarded = locationOf(await deliver(browser, answer))
    expect(forwarded.startsWith(`${branch}/auth/callback/op?`)).toBe(true)
    expect(locationOf(await browser.request(forwarded))).toBe(`${branch}/dashboard`)
    expect(errors).toEqual([])
  })

  it("with no allow list the proxy forwards nowhere: the error page, the code in no URL", async () => {
    const proxy = deployment(PROXY, { redirectProxyAllowedOrigins: undefined })
    const browser = previewBrowser(proxy)
    const answer = await loginAtOP(browser, locationOf(await startSignIn(browser, "op")), "alice")
    if (answer.kind !== "redirect") throw new Error("expected a redirect answer")
    const atProxy = await deliver(browser, answer)
    expect(locationOf(atProxy)).toBe(`${PROXY}/auth/error?error=Configuration`)
    expect(errors[0]?.code).toBe("REDIRECT_PROXY_TARGET_NOT_ALLOWED")
    expect((errors[0]?.error as Error).message).toContain("redirectProxyAllowedOrigins")
  })

  it("signs in on the proxy deployment itself without forwarding", async () => {
    const proxy = deployment(PROXY)
    const browser = new Browser(PROXY, (r) => Auth(r, proxy))
    const start = await startSignIn(browser, "op")
    const answer = await loginAtOP(browser, locationOf(start), "bob")
    const done = await deliver(browser, answer)
    expect(errors).toEqual([])
    expect(locationOf(done)).toBe(`${PROXY}/dashboard`)
    expect(sessionCookie(browser)).toBeDefined()
  })

  it("a per-provider redirectProxyUrl wins over the global one", async () => {
    const config = deployment(PREVIEW, { redirectProxyUrl: "http://elsewhere.test/auth", providers: [provider({ redirectProxyUrl: `${PROXY}/auth` })] })
    const url = new URL(locationOf(await startSignIn(new Browser(PREVIEW, (r) => Auth(r, config)), "op")))
    expect(url.searchParams.get("redirect_uri")).toBe(`${PROXY}/auth/callback/op`)
  })
})
