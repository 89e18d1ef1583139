/**
 * Provider options that decide where an OIDC sign-in takes its identity from, against a real
 * OpenID provider (oidc-provider on 127.0.0.1), through `Auth()`:
 *
 * - `jwks_endpoint`: the JWKS the ID token's signature is checked against, over the discovered
 *   `jwks_uri` (a broken discovered one does not matter; a configured one without the OP's key
 *   refuses the sign-in even when discovery names the right one);
 * - `idToken: false`: the profile is the userinfo response (whose `sub` must still be the ID token's);
 * - the ID token a `type: "oidc"` provider must receive (spec 2.5: "an id_token must still be
 *   returned", with `idToken: false` too): a token response without one is refused, nothing is
 *   stored and no session cookie is set.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { exportJWK, generateKeyPair } from "jose"
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { OAuthCallbackError, type AuthConfig, type OAuthConfig, type Profile } from "../../../src/index.js"
import { allowInsecureOAuthRequests } from "../../../src/capabilities/oauth/index.js"
import { APP, browserFor, callbackOf, locationOf, sessionCookie, sessionOf, signInAtLocalOP, testConfig, type LoggedError } from "./helpers/app.js"
import { clients, startLocalOP, type LocalOP } from "@authlib/e2e-kit/oidc/local-op"
import { spyAdapter, type SpyAdapter } from "./helpers/spy-adapter.js"

/** A tiny JSON server on 127.0.0.1 that counts its requests per path. */
interface JsonServer {
  url: string
  hits: Map<string, number>
  close(): Promise<void>
}

async function startJsonServer(answer: (path: string) => Promise<{ status: number; body: unknown }>): Promise<JsonServer> {
  const hits = new Map<string, number>()
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? "/", "http://x").pathname
    hits.set(path, (hits.get(path) ?? 0) + 1)
    answer(path).then(
      ({ status, body }) => res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body)),
      (err: Error) => res.writeHead(500).end(String(err)),
    )
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  }
}

const ids = [
  "op-broken-discovery", "op-broken-discovery-explicit", "op-foreign-jwks",
  "op-userinfo", "op-idtoken", "op-userinfo-other-sub",
  "op-stripped", "op-stripped-userinfo", "op-no-openid-scope", "oauth-stripped",
]

let op: LocalOP
/** Serves the OP's discovery document with `jwks_uri` pointing at a path that answers 404. */
let metadata: JsonServer
/** Serves a JWKS holding only a fresh key the OP never signed with (same `kid` as the OP's key). */
let foreign: JsonServer

beforeAll(async () => {
  op = await startLocalOP(ids.map(callbackOf))
  const opJwks = (await (await fetch(`${op.issuer}/jwks`)).json()) as { keys: Array<{ kid: string; kty: string; alg?: string }> }
  // The ID tokens are RS256 (oidc-provider's default); the foreign key takes the OP's RSA key id.
  const opKid = opJwks.keys.find((k) => k.kty === "RSA")!.kid
  const { publicKey } = await generateKeyPair("RS256", { extractable: true })
  const foreignJwks = { keys: [{ ...(await exportJWK(publicKey)), kid: opKid, alg: "RS256", use: "sig" }] }
  foreign = await startJsonServer(async () => ({ status: 200, body: foreignJwks }))
  metadata = await startJsonServer(async (path) => {
    if (path !== "/.well-known/openid-configuration") return { status: 404, body: { error: "not_found" } }
    const document = (await (await fetch(`${op.issuer}/.well-known/openid-configuration`)).json()) as Record<string, unknown>
    return { status: 200, body: { ...document, jwks_uri: `${metadata.url}/no-such-jwks` } }
  })
})
afterAll(async () => {
  await foreign.close()
  await metadata.close()
  await op.close()
})

let errors: LoggedError[]
let profiles: Array<{ provider: string; profile: Profile }>
let userinfoBodies: Array<{ provider: string; body: Record<string, unknown> }>
let tokenResponses: Array<{ provider: string; hadIdToken: boolean }>
let adapter: SpyAdapter
beforeEach(() => {
  errors = []
  profiles = []
  userinfoBodies = []
  tokenResponses = []
  adapter = spyAdapter()
})

/** `token.conform`: records whether the OP sent an ID token, then drops it from the response. */
function stripIdToken(provider: string) {
  return async (response: Response): Promise<Response> => {
    const { id_token, ...rest } = (await response.json()) as Record<string, unknown>
    tokenResponses.push({ provider, hadIdToken: typeof id_token === "string" })
    return Response.json(rest, { status: response.status })
  }
}

/** `userinfo.conform`: records the userinfo body, optionally rewritten; `undefined` keeps the response. */
function watchUserinfo(provider: string, rewrite?: (body: Record<string, unknown>) => Record<string, unknown>) {
  return async (response: Response): Promise<Response | undefined> => {
    const body = (await response.clone().json()) as Record<string, unknown>
    userinfoBodies.push({ provider, body })
    return rewrite ? Response.json(rewrite(body), { status: response.status }) : undefined
  }
}

function recordProfile(provider: string) {
  return (profile: Profile) => {
    profiles.push({ provider, profile })
    return { id: String(profile.sub), email: profile.email as string, name: profile.name as string }
  }
}

function config(extra: Partial<AuthConfig> = {}): AuthConfig {
  const base = { name: "Local OP", type: "oidc" as const, issuer: op.issuer, clientId: clients.basic.client_id, clientSecret: clients.basic.client_secret, [allowInsecureOAuthRequests]: true }
  const brokenDiscovery = { wellKnown: `${metadata.url}/.well-known/openid-configuration` }
  const providers = [
    { ...base, ...brokenDiscovery, id: "op-broken-discovery" },
    { ...base, ...brokenDiscovery, id: "op-broken-discovery-explicit", jwks_endpoint: `${op.issuer}/jwks` },
    { ...base, id: "op-foreign-jwks", jwks_endpoint: `${foreign.url}/keys` },
    { ...base, id: "op-userinfo", idToken: false, userinfo: { conform: watchUserinfo("op-userinfo") }, profile: recordProfile("op-userinfo") },
    { ...base, id: "op-idtoken", userinfo: { conform: watchUserinfo("op-idtoken") }, profile: recordProfile("op-idtoken") },
    { ...base, id: "op-userinfo-other-sub", idToken: false, userinfo: { conform: watchUserinfo("op-userinfo-other-sub", (b) => ({ ...b, sub: "someone-else" })) } },
    { ...base, id: "op-stripped", token: { conform: stripIdToken("op-stripped") } },
    { ...base, id: "op-stripped-userinfo", idToken: false, token: { conform: stripIdToken("op-stripped-userinfo") } },
    { ...base, id: "op-no-openid-scope", authorization: { params: { scope: "email profile" } }, token: { conform: observeIdToken("op-no-openid-scope") } },
    {
      id: "oauth-stripped", name: "Local OP as OAuth 2", type: "oauth" as const, clientId: clients.basic.client_id, clientSecret: clients.basic.client_secret, [allowInsecureOAuthRequests]: true,
      authorization: { url: `${op.issuer}/auth`, params: { scope: "openid email profile" } },
      token: { url: `${op.issuer}/token`, conform: stripIdToken("oauth-stripped") },
      userinfo: `${op.issuer}/me`,
    },
  ] as OAuthConfig[]
  return testConfig({ providers, ...extra }, errors)
}

/** `token.conform` that only records whether the OP's token response held an ID token. */
function observeIdToken(provider: string) {
  return async (response: Response): Promise<undefined> => {
    const { id_token } = (await response.clone().json()) as Record<string, unknown>
    tokenResponses.push({ provider, hadIdToken: typeof id_token === "string" })
  }
}

/** The one error the sign-in logged, as an OAuthCallbackError. */
function loggedCallbackError(): OAuthCallbackError {
  expect(errors.map((e) => e.type)).toEqual(["OAuthCallbackError"])
  const [{ error }] = errors as [LoggedError]
  expect(error).toBeInstanceOf(OAuthCallbackError)
  return error as OAuthCallbackError
}

/** The oauth4webapi error under an OAuthCallbackError. */
function underlying(error: OAuthCallbackError): Error {
  return (error.cause as { err: Error }).err
}

describe("jwks_endpoint", () => {
  it("control: with a discovered jwks_uri that answers 404 and no jwks_endpoint, the sign-in fails at the signature step", async () => {
    const browser = browserFor(config())
    const done = await signInAtLocalOP(browser, "op-broken-discovery", "alice")
    expect(locationOf(done)).toBe(`${APP}/auth/error?error=Configuration`)
    const error = loggedCallbackError()
    expect(error.code).toBe("ID_TOKEN_SIGNATURE_INVALID")
    expect(underlying(error).message).toMatch(/unexpected HTTP status code/)
    expect(metadata.hits.get("/no-such-jwks")).toBeGreaterThan(0)
    expect(sessionCookie(browser)).toBeUndefined()
  })

  it("the explicit jwks_endpoint wins over the broken discovered jwks_uri: the sign-in succeeds", async () => {
    const brokenBefore = metadata.hits.get("/no-such-jwks") ?? 0
    const browser = browserFor(config())
    const done = await signInAtLocalOP(browser, "op-broken-discovery-explicit", "alice")
    expect(errors).toEqual([])
    expect(locationOf(done)).toBe(`${APP}/dashboard`)
    expect(metadata.hits.get("/.well-known/openid-configuration")).toBeGreaterThan(0)
    expect(metadata.hits.get("/no-such-jwks") ?? 0).toBe(brokenBefore)
    expect((await sessionOf(browser)).user).toMatchObject({ name: "Alice Liddell", email: "alice@example.com" })
  })

  it("a jwks_endpoint without the OP's key refuses the sign-in, though discovery names the right JWKS; nothing stored", async () => {
    const browser = browserFor(config({ adapter }))
    const done = await signInAtLocalOP(browser, "op-foreign-jwks", "alice")
    expect(locationOf(done)).toBe(`${APP}/auth/error?error=Configuration`)
    const error = loggedCallbackError()
    expect(error.code).toBe("ID_TOKEN_SIGNATURE_INVALID")
    expect(error.cause).toMatchObject({ provider: "op-foreign-jwks", step: "ID_TOKEN_SIGNATURE" })
    // The foreign key (same kid) was selected and the signature did not verify with it.
    expect(underlying(error).message).toBe("JWT signature verification failed")
    expect(foreign.hits.get("/keys")).toBeGreaterThan(0)
    expect(adapter.writes).toEqual([])
    expect(sessionCookie(browser)).toBeUndefined()
  })
})

describe("idToken: false", () => {
  it("takes the profile from the userinfo response; without it the profile is the ID token's claims", async () => {
    await signInAtLocalOP(browserFor(config()), "op-userinfo", "bob")
    await signInAtLocalOP(browserFor(config()), "op-idtoken", "bob")
    expect(errors).toEqual([])
    // idToken: false: userinfo was called once and its body is the profile, as the OP sent it.
    expect(userinfoBodies.map((u) => u.provider)).toEqual(["op-userinfo"])
    const [fromUserinfo, fromIdToken] = profiles
    expect(fromUserinfo).toEqual({ provider: "op-userinfo", profile: userinfoBodies[0]!.body })
    expect(fromUserinfo!.profile).toMatchObject({ sub: "bob", email: "bob@example.com", name: "Bob Builder" })
    for (const claim of ["aud", "iss", "iat", "exp", "nonce", "at_hash"]) expect(fromUserinfo!.profile).not.toHaveProperty(claim)
    // Default: the userinfo endpoint was never called, the profile carries the ID token's claims.
    expect(fromIdToken!.profile).toMatchObject({ sub: "bob", iss: op.issuer, aud: clients.basic.client_id })
  })

  it("still needs the ID token: a userinfo response for another subject is refused", async () => {
    const browser = browserFor(config({ adapter }))
    const done = await signInAtLocalOP(browser, "op-userinfo-other-sub", "alice")
    expect(locationOf(done)).toBe(`${APP}/auth/error?error=Configuration`)
    expect(loggedCallbackError().code).toBe("USERINFO_SUBJECT_MISMATCH")
    expect(userinfoBodies).toHaveLength(1)
    expect(adapter.writes).toEqual([])
    expect(sessionCookie(browser)).toBeUndefined()
  })
})

describe("an OIDC token response without an ID token", () => {
  it("control: the same stripped token response signs in a type: \"oauth\" provider (profile from userinfo)", async () => {
    const browser = browserFor(config({ adapter }))
    const done = await signInAtLocalOP(browser, "oauth-stripped", "alice")
    expect(errors).toEqual([])
    expect(tokenResponses).toEqual([{ provider: "oauth-stripped", hadIdToken: true }])
    expect(locationOf(done)).toBe(`${APP}/dashboard`)
    expect(adapter.writes).toEqual(["createUser", "linkAccount", "createSession"])
    expect(adapter.accounts[0]).not.toHaveProperty("id_token")
    expect(sessionCookie(browser)).toBeDefined()
  })

  it.each(["op-stripped", "op-stripped-userinfo"])("%s: an ID token removed by token.conform is refused (TOKEN_RESPONSE_INVALID); nothing stored, no session", async (id) => {
    const browser = browserFor(config({ adapter }))
    const done = await signInAtLocalOP(browser, id, "alice")
    // The OP did send one; the hook took it away before validation.
    expect(tokenResponses).toEqual([{ provider: id, hadIdToken: true }])
    expect(done.response.status).toBe(302)
    expect(locationOf(done)).toBe(`${APP}/auth/error?error=Configuration`)
    const error = loggedCallbackError()
    expect(error.code).toBe("TOKEN_RESPONSE_INVALID")
    expect(error.cause).toMatchObject({ provider: id, step: "TOKEN_RESPONSE" })
    expect(underlying(error).message).toMatch(/"id_token" property must be a string/)
    expect(adapter.writes).toEqual([])
    expect(adapter.users.size + adapter.accounts.length + adapter.sessions.size).toBe(0)
    expect(sessionCookie(browser)).toBeUndefined()
    expect(await sessionOf(browser)).toBeNull()
  })

  it("an OP that answers without an ID token on its own (no openid scope) is refused the same way", async () => {
    const browser = browserFor(config({ adapter }))
    const done = await signInAtLocalOP(browser, "op-no-openid-scope", "alice")
    expect(tokenResponses).toEqual([{ provider: "op-no-openid-scope", hadIdToken: false }])
    expect(locationOf(done)).toBe(`${APP}/auth/error?error=Configuration`)
    const error = loggedCallbackError()
    expect(error.code).toBe("TOKEN_RESPONSE_INVALID")
    expect(underlying(error).message).toMatch(/"id_token" property must be a string/)
    expect(adapter.writes).toEqual([])
    expect(sessionCookie(browser)).toBeUndefined()
  })
})
