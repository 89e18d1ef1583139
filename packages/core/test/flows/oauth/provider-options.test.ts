/**
 * Provider options that change where identity comes from, against a real OpenID provider:
 * `jwks_endpoint` (the explicit JWKS URL is the one the ID token is checked against), `idToken: false`
 * (the profile is the userinfo response) and the ID token an OIDC provider must send.
 */
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { exportJWK, generateKeyPair } from "jose"
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import type { AuthConfig, OAuthConfig, Profile } from "../../../src/index.js"
import { allowInsecureOAuthRequests } from "../../../src/flows/oauth/index.js"
import { APP, browserFor, callbackOf, locationOf, sessionCookie, sessionOf, signInAtLocalOP, testConfig, type LoggedError } from "./helpers/app.js"
import { clients, startLocalOP, type LocalOP } from "./helpers/local-op.js"

let op: LocalOP
let jwks: { url: string; requests: number; close(): Promise<void> }
const ids = ["op-jwks", "op-jwks-foreign", "op-userinfo-profile", "op-idtoken-profile", "op-no-idtoken", "op-no-idtoken-userinfo"]

/**
 * A JWKS server: the OP's own keys (fetched from it), or, at `?foreign`, a key the OP never signed
 * with. (Two URLs, as core caches a JWKS per URL.)
 */
async function startJwks(issuer: string) {
  const { publicKey } = await generateKeyPair("RS256")
  const foreign = { keys: [{ ...(await exportJWK(publicKey)), kid: "not-the-op", use: "sig", alg: "RS256" }] }
  const state = { requests: 0 }
  const server: Server = createServer(async (req, res) => {
    state.requests++
    const body = req.url?.endsWith("?foreign") ? JSON.stringify(foreign) : await (await fetch(`${issuer}/jwks`)).text()
    res.writeHead(200, { "content-type": "application/json" }).end(body)
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/keys`
  return Object.assign(state, { url, close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))) })
}

beforeAll(async () => {
  op = await startLocalOP(ids.map(callbackOf))
  jwks = await startJwks(op.issuer)
})
afterAll(async () => {
  await jwks.close()
  await op.close()
})

let errors: LoggedError[]
let profiles: Profile[]
beforeEach(() => {
  errors = []
  profiles = []
})

/** Strips `id_token` from the token endpoint's answer. */
async function withoutIdToken(response: Response): Promise<Response> {
  const { id_token: _dropped, ...rest } = (await response.json()) as Record<string, unknown>
  return Response.json(rest, { status: response.status, headers: { "content-type": "application/json" } })
}

function config(): AuthConfig {
  const base = { name: "Local OP", type: "oidc" as const, issuer: op.issuer, clientId: clients.basic.client_id, clientSecret: clients.basic.client_secret, [allowInsecureOAuthRequests]: true }
  const recordProfile = (profile: Profile) => (profiles.push(profile), { id: String(profile.sub), email: profile.email as string, name: profile.name as string })
  const providers = [
    { ...base, id: "op-jwks", jwks_endpoint: jwks.url },
    { ...base, id: "op-jwks-foreign", jwks_endpoint: `${jwks.url}?foreign` },
    { ...base, id: "op-userinfo-profile", idToken: false, profile: recordProfile },
    { ...base, id: "op-idtoken-profile", profile: recordProfile },
    { ...base, id: "op-no-idtoken", token: { conform: withoutIdToken } },
    { ...base, id: "op-no-idtoken-userinfo", idToken: false, token: { conform: withoutIdToken } },
  ] as OAuthConfig[]
  return testConfig({ providers }, errors)
}

describe("jwks_endpoint", () => {
  it("the ID token is checked against the configured JWKS URL, not the discovered one", async () => {
    const before = jwks.requests
    const browser = browserFor(config())
    const done = await signInAtLocalOP(browser, "op-jwks", "alice")
    expect(errors).toEqual([])
    expect(locationOf(done)).toBe(`${APP}/dashboard`)
    expect(jwks.requests).toBeGreaterThan(before)
    expect((await sessionOf(browser)).user.email).toBe("alice@example.com")
  })

  it("a configured JWKS without the OP's key refuses the sign-in (the discovered, correct one is not used)", async () => {
    const browser = browserFor(config())
    const done = await signInAtLocalOP(browser, "op-jwks-foreign", "alice")
    expect(locationOf(done)).toBe(`${APP}/auth/error?error=Configuration`)
    expect(errors.map((e) => e.code)).toEqual([expect.stringMatching(/^ID_TOKEN_SIGNATURE_/)])
    expect(sessionCookie(browser)).toBeUndefined()
  })
})

describe("idToken: false and the ID token an OIDC provider must send", () => {
  it("with idToken: false the profile is the userinfo response (no ID token claims such as aud or nonce)", async () => {
    await signInAtLocalOP(browserFor(config()), "op-userinfo-profile", "bob")
    await signInAtLocalOP(browserFor(config()), "op-idtoken-profile", "bob")
    expect(errors).toEqual([])
    const [fromUserinfo, fromIdToken] = profiles
    expect(fromUserinfo).toMatchObject({ sub: "bob", email: "bob@example.com" })
    expect(fromUserinfo).not.toHaveProperty("aud")
    expect(fromIdToken).toMatchObject({ sub: "bob", aud: clients.basic.client_id })
  })

  it.each(["op-no-idtoken", "op-no-idtoken-userinfo"])("%s: a token response without an ID token is refused; no session", async (id) => {
    const browser = browserFor(config())
    const done = await signInAtLocalOP(browser, id, "alice")
    expect(locationOf(done)).toBe(`${APP}/auth/error?error=Configuration`)
    expect(errors.map((e) => e.code)).toEqual([expect.stringMatching(/^TOKEN_RESPONSE_/)])
    expect(sessionCookie(browser)).toBeUndefined()
  })
})
