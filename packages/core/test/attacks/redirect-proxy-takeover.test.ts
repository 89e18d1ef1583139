/**
 * The redirect-proxy account takeover, played end to end against a real OpenID provider.
 *
 * The attack on a deployment that took its own origin from headers: the attacker starts a sign-in
 * at a preview deployment with `X-Forwarded-Host: evil.example`, keeps the check cookies, and sends
 * the authorization URL to a victim. The victim logs in at the provider; the proxy forwards the
 * victim's code to evil.example, and the attacker replays it at the preview's callback with their
 * own check cookies: a session as the victim. Each step below must fail.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { Auth, type AuthConfig, type OAuthConfig } from "../../src/index.js"
import { allowInsecureOAuthRequests } from "../../src/capabilities/oauth/index.js"
import { locationOf, sessionCookie, testConfig, type LoggedError } from "../capabilities/oauth/helpers/app.js"
import { Browser, type Step } from "@authlib/e2e-kit/oidc/browser"
import { loginAtOP } from "@authlib/e2e-kit/oidc/op-login"
import { clients, startLocalOP, type LocalOP } from "@authlib/e2e-kit/oidc/local-op"

const PROXY = "http://proxy.test"
const PREVIEW = "http://preview.test"
const EVIL = "http://evil.example"
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

function deployment(extra: Partial<AuthConfig>): AuthConfig {
  const provider = {
    id: "op", name: "OP", type: "oidc", issuer: op.issuer, clientId: clients.basic.client_id, clientSecret: clients.basic.client_secret,
    [allowInsecureOAuthRequests]: true,
  } as unknown as OAuthConfig
  return testConfig({ secret: SECRET, redirectProxyUrl: `${PROXY}/auth`, providers: [provider], ...extra }, errors)
}

const proxy = () => deployment({ url: PROXY, redirectProxyAllowedOrigins: [PREVIEW] })

/** The attacker's POST signin/op at `origin`, with a forged X-Forwarded-Host. */
async function attackerStarts(attacker: Browser, origin: string): Promise<Step> {
  const forged = { "x-forwarded-host": "evil.example", "x-forwarded-proto": "http" }
  const csrf = await attacker.request(`${origin}/auth/csrf`, { headers: forged })
  const { csrfToken } = JSON.parse(csrf.body) as { csrfToken: string }
  return attacker.form(`${origin}/auth/signin/op`, { csrfToken, callbackUrl: `${origin}/` }, { origin, ...forged })
}

/**
 * The victim opens the attacker's link and logs in at the provider, then the proxy answers.
 * Returns the proxy's Location (where the victim's code would travel).
 */
async function victimLogsIn(authorizationUrl: string, proxyConfig: AuthConfig): Promise<string> {
  const victim = new Browser(PREVIEW, () => Promise.reject(new Error("the victim never reaches the preview in this test")), {
    [PROXY]: (r) => Auth(r, proxyConfig),
  })
  const answer = await loginAtOP(victim, authorizationUrl, "alice")
  if (answer.kind !== "redirect") throw new Error("expected a redirect answer")
  expect(answer.url.startsWith(`${PROXY}/auth/callback/op?`)).toBe(true)
  return locationOf(await victim.request(answer.url))
}

/** What the attacker does with a forwarded URL that reached their site: replay it at the preview. */
async function attackerRedeems(attacker: Browser, forwardedTo: string): Promise<void> {
  const url = new URL(forwardedTo)
  if (url.origin !== EVIL) return // the code never reached the attacker
  await attacker.request(`${PREVIEW}/auth/callback/op${url.search}`)
}

describe("redirect proxy + forged X-Forwarded-Host (account takeover)", () => {
  it("a deployment without url cannot start a proxied sign-in at all: a start-up Configuration error, no link to send", async () => {
    const preview = deployment({})
    const attacker = new Browser(PREVIEW, (r) => Auth(r, preview))
    const start = await attackerStarts(attacker, PREVIEW)
    expect(start.response.status).toBe(500)
    expect(start.response.headers.get("location")).toBeNull()
    expect(start.body).not.toContain("evil.example")
    expect(errors.map((e) => e.code)).toContain("REDIRECT_PROXY_NEEDS_APP_URL")
  })

  it("with url set, the forged header changes nothing: the victim's code goes to the preview, never to evil.example", async () => {
    const preview = deployment({ url: PREVIEW })
    const attacker = new Browser(PREVIEW, (r) => Auth(r, preview))
    const start = await attackerStarts(attacker, PREVIEW)
    const forwardedTo = await victimLogsIn(locationOf(start), proxy())
    expect(new URL(forwardedTo).origin).toBe(PREVIEW)
    await attackerRedeems(attacker, forwardedTo)
    expect(sessionCookie(attacker)).toBeUndefined()
    expect(errors).toEqual([])
  })

  it("a state sealed for an unlisted origin (a rogue deployment holding the secret) is refused at the proxy; the code is put in no URL", async () => {
    const rogue = deployment({ url: EVIL })
    const attacker = new Browser(EVIL, (r) => Auth(r, rogue), { [PREVIEW]: (r) => Auth(r, deployment({ url: PREVIEW })) })
    const start = await attackerStarts(attacker, EVIL)
    const forwardedTo = await victimLogsIn(locationOf(start), proxy())
    expect(forwardedTo).toBe(`${PROXY}/auth/error?error=Configuration`)
    expect(forwardedTo).not.toContain("code=")
    expect(errors.map((e) => e.code)).toEqual(["REDIRECT_PROXY_TARGET_NOT_ALLOWED"])
    await attackerRedeems(attacker, forwardedTo)
    expect(sessionCookie(attacker)).toBeUndefined()
    expect([...attacker.cookies(PREVIEW).keys()].some((n) => n.includes("session-token"))).toBe(false)
  })
})
