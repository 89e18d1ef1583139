/**
 * Where the flow gets the provider's endpoints: discovery by issuer or `wellKnown` (cached per
 * issuer, a failure not cached), explicit URLs, and the `http://` opt-in marker.
 */
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import type { OAuthConfig } from "../../../src/index.js"
import { allowInsecureOAuthRequests } from "../../../src/capabilities/oauth/index.js"
import { browserFor, callbackOf, locationOf, signInAtLocalOP, startSignIn, testConfig, type LoggedError } from "./helpers/app.js"
import { clients, startLocalOP, type LocalOP } from "@authlib/e2e-kit/oidc/local-op"

let op: LocalOP
let flaky: Server
let flakyIssuer: string
let flakyHits = 0

beforeAll(async () => {
  op = await startLocalOP([callbackOf("op")])
  // Fails its first discovery request, then serves a copy of the local OP's document.
  flaky = createServer(async (req, res) => {
    flakyHits++
    if (flakyHits === 1) return void res.writeHead(503).end()
    const doc = await (await fetch(`${op.issuer}/.well-known/openid-configuration`)).json()
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ ...doc, issuer: flakyIssuer }))
  })
  await new Promise<void>((resolve) => flaky.listen(0, "127.0.0.1", resolve))
  flakyIssuer = `http://127.0.0.1:${(flaky.address() as AddressInfo).port}`
})
afterAll(async () => {
  flaky.closeAllConnections()
  await new Promise((resolve) => flaky.close(resolve))
  await op.close()
})

let errors: LoggedError[]
beforeEach(() => {
  errors = []
})

/** Provider fields, plus the symbol-keyed http opt-in that the public type leaves out on purpose. */
type TestProvider = Partial<OAuthConfig> & { [allowInsecureOAuthRequests]?: true }

function signInWith(provider: TestProvider) {
  const full = { id: "op", name: "OP", type: "oidc", clientId: clients.basic.client_id, clientSecret: clients.basic.client_secret, ...provider } as unknown as OAuthConfig
  return startSignIn(browserFor(testConfig({ providers: [full] }, errors)), "op")
}

describe("discovery", () => {
  it("refuses an http:// issuer unless the provider carries allowInsecureOAuthRequests", async () => {
    const step = await signInWith({ issuer: op.issuer })
    expect(locationOf(step)).toMatch(/\/auth\/error\?error=Configuration$/)
    expect(errors[0]).toMatchObject({ type: "OAuthSignInError", code: "DISCOVERY_FAILED" })
    expect((errors[0]!.error as any).cause.err.code).toBe("OAUTH_HTTP_REQUEST_FORBIDDEN")
    // The log names the URL and the setting that allows it for local development.
    expect((errors[0]!.error as Error).message).toBe(
      `Discovery of provider "op" failed: ${op.issuer}/ is not https (only requests to HTTPS are allowed); ` +
        'for local development, put [allowInsecureOAuthRequests]: true (exported from "@authlib/core") on the provider config; production issuers must be https',
    )
  })

  it("refuses an http:// wellKnown without the marker, naming the marker", async () => {
    const step = await signInWith({ wellKnown: `${op.issuer}/.well-known/openid-configuration` })
    expect(locationOf(step)).toMatch(/error=Configuration$/)
    expect(errors[0]).toMatchObject({ type: "OAuthSignInError", code: "DISCOVERY_FAILED" })
    expect((errors[0]!.error as Error).message).toBe(
      `Discovery of provider "op" failed: "wellKnown" must be an https URL (${op.issuer}/.well-known/openid-configuration is not); ` +
        'for local development, put [allowInsecureOAuthRequests]: true (exported from "@authlib/core") on the provider config; production issuers must be https',
    )
    expect((errors[0]!.error as any).cause.err).toMatchObject({ type: "OAuthSignInError", code: "DISCOVERY_INSECURE" })
    expect((errors[0]!.error as any).cause.err.message).toContain("[allowInsecureOAuthRequests]: true")
  })

  it("refuses an http:// token endpoint without the marker at the callback, naming the marker", async () => {
    const browser = browserFor(testConfig({ providers: [{
      id: "op", name: "OP", type: "oauth", clientId: clients.basic.client_id, clientSecret: clients.basic.client_secret,
      authorization: `${op.issuer}/auth?scope=openid`, token: `${op.issuer}/token`, userinfo: `${op.issuer}/me`,
    } as unknown as OAuthConfig] }, errors))
    const step = await signInAtLocalOP(browser, "op", "alice")
    expect(locationOf(step)).toMatch(/error=Configuration$/)
    expect(errors[0]).toMatchObject({ type: "OAuthCallbackError", code: "TOKEN_RESPONSE_INVALID" })
    expect((errors[0]!.error as Error).message).toBe(
      `The token response of provider "op" failed: ${op.issuer}/token is not https (only requests to HTTPS are allowed); ` +
        'for local development, put [allowInsecureOAuthRequests]: true (exported from "@authlib/core") on the provider config; production issuers must be https',
    )
  })

  it("discovers from a wellKnown URL alone, deriving the issuer from it", async () => {
    const step = await signInWith({ wellKnown: `${op.issuer}/.well-known/openid-configuration`, [allowInsecureOAuthRequests]: true as const })
    expect(errors).toEqual([])
    expect(locationOf(step).startsWith(`${op.issuer}/auth?`)).toBe(true)
  })

  it("refuses a discovery document whose issuer is not the configured one", async () => {
    const step = await signInWith({ wellKnown: `${op.issuer}/.well-known/openid-configuration`, issuer: "http://127.0.0.1:1/other", [allowInsecureOAuthRequests]: true as const })
    expect(locationOf(step)).toMatch(/error=Configuration$/)
    expect(errors[0]?.code).toBe("DISCOVERY_FAILED")
  })

  it("does not cache a failed discovery: the next sign-in tries again and succeeds", async () => {
    const first = await signInWith({ issuer: flakyIssuer, [allowInsecureOAuthRequests]: true as const })
    expect(locationOf(first)).toMatch(/error=Configuration$/)
    const second = await signInWith({ issuer: flakyIssuer, [allowInsecureOAuthRequests]: true as const })
    expect(locationOf(second).startsWith(`${op.issuer}/auth?`)).toBe(true)
    await signInWith({ issuer: flakyIssuer, [allowInsecureOAuthRequests]: true as const })
    expect(flakyHits).toBe(2)
  })

  it("uses explicit endpoint URLs without any discovery request, keeping their query parameters", async () => {
    const before = op.discoveryRequests
    const step = await signInWith({
      type: "oauth",
      authorization: `${op.issuer}/auth?prompt=consent&scope=openid`,
      token: `${op.issuer}/token`,
      userinfo: `${op.issuer}/me`,
      [allowInsecureOAuthRequests]: true as const,
    })
    const url = new URL(locationOf(step))
    expect(url.searchParams.get("prompt")).toBe("consent")
    expect(url.searchParams.get("scope")).toBe("openid")
    expect(op.discoveryRequests).toBe(before)
  })

  it("refuses a provider without clientId at start-up, naming the env variable, before anyone clicks", async () => {
    const before = op.discoveryRequests
    const step = await signInWith({ issuer: op.issuer, clientId: undefined, [allowInsecureOAuthRequests]: true as const })
    expect(step.response.status).toBe(500)
    expect(step.body).toContain("Server error")
    expect(errors[0]).toMatchObject({ type: "Configuration", code: "CLIENT_ID_MISSING" })
    expect((errors[0]!.error as Error).message).toContain("AUTH_OP_ID")
    expect(op.discoveryRequests).toBe(before)
  })

  it("answers with the error page when the provider has no authorization endpoint", async () => {
    const step = await signInWith({ type: "oauth", token: `${op.issuer}/token`, [allowInsecureOAuthRequests]: true as const })
    expect(locationOf(step)).toMatch(/error=Configuration$/)
    expect(errors[0]?.code).toBe("AUTHORIZATION_ENDPOINT_MISSING")
  })
})
