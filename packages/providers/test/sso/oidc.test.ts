/**
 * An OIDC connection against a real OpenID provider (`oidc-provider`, core's test OP on loopback):
 * `POST signin/sso` sends the browser to the issuer with PKCE, state and nonce; the callback
 * `GET sso/callback/:connection` signs the user in (address verified, a member of the organization,
 * the organization active). A callback replayed with the same cookies is `ASSERTION_REPLAYED`, one
 * with another state is refused, and an address the IdP does not vouch for is `EMAIL_MISSING`.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Auth, createOrganization, createSsoConnection, updateSsoConnection, type SsoConnection } from "@authlib/core"
import { MemoryAdapter, createMemoryStore, type MemoryStore } from "@authlib/adapter-test"
import { Browser } from "@authlib/e2e-kit/oidc/browser"
import { loginAtOP } from "@authlib/e2e-kit/oidc/op-login"
import { clients, startLocalOP, type LocalOP } from "@authlib/e2e-kit/oidc/local-op"
import { ORIGIN } from "../helpers.js"
import { verifiedDomain, refusalCode, startApp, type SsoApp } from "./harness.js"

let store: MemoryStore
let app: SsoApp
let op: LocalOP
let connection: SsoConnection
let organizationId: string

beforeAll(async () => {
  store = createMemoryStore()
  app = await startApp(MemoryAdapter(store))
  organizationId = (await createOrganization(app.adminRequest(), app.config, { name: "Example", slug: "example" })).id
  // The connection's redirect URI is registered at the OP, which starts after it.
  connection = await createSsoConnection(app.adminRequest(), app.config, organizationId, { type: "oidc", issuer: "http://127.0.0.1:9/", clientId: clients.basic.client_id, clientSecret: clients.basic.client_secret })
  op = await startLocalOP([connection.redirectUri!])
  connection = await updateSsoConnection(app.adminRequest(), app.config, connection.id, { issuer: op.issuer })
  await verifiedDomain(app, connection.id, "example.com")
}, 60_000)

afterAll(() => op?.close())

const browser = () => new Browser(ORIGIN, (request) => Auth(request, app.config))

/** Starts at `POST signin/sso` and logs `login` in at the OP: the callback URL the OP sends the browser to. */
async function toCallback(b: Browser, email: string, login: string): Promise<string> {
  const { csrfToken } = JSON.parse((await b.request(`${ORIGIN}/auth/csrf`)).body) as { csrfToken: string }
  const start = await b.form(`${ORIGIN}/auth/signin/sso`, { csrfToken, email }, { origin: ORIGIN })
  const location = start.response.headers.get("location")!
  const authorization = new URL(location)
  expect(authorization.origin).toBe(op.issuer)
  expect(authorization.searchParams.get("code_challenge_method")).toBe("S256")
  expect(authorization.searchParams.get("state")).toBeTruthy()
  expect(authorization.searchParams.get("nonce")).toBeTruthy()
  expect(authorization.searchParams.get("redirect_uri")).toBe(connection.redirectUri)
  const answer = await loginAtOP(b, location, login)
  if (answer.kind !== "redirect") throw new Error("expected a redirect back")
  return answer.url
}

describe("an OIDC connection", () => {
  it("signs alice in: verified address, a member of the organization, it active", async () => {
    const b = browser()
    const callback = await toCallback(b, "alice@example.com", "alice")
    expect(callback.startsWith(`${ORIGIN}/auth/sso/callback/${connection.id}?`)).toBe(true)
    const done = await b.request(callback)
    expect(done.response.status).toBe(302)
    expect(done.response.headers.get("location")).toBe(`${ORIGIN}/`)
    const session = JSON.parse((await b.request(`${ORIGIN}/auth/session`)).body) as { user: { email: string }; activeOrganization: { id: string; role: string } }
    expect(session.user.email).toBe("alice@example.com")
    expect(session.activeOrganization).toMatchObject({ id: organizationId, role: "member" })
    const alice = [...store.users.values()].find((u) => u.email === "alice@example.com")!
    expect(alice.emailVerified).toBeInstanceOf(Date)
    expect([...store.accounts.values()].find((a) => a.userId === alice.id)).toMatchObject({ provider: "sso", type: "sso", providerAccountId: `${connection.id}:alice` })
  })

  it("the same callback replayed with the same cookies: ASSERTION_REPLAYED", async () => {
    const b = browser()
    const callback = await toCallback(b, "bob@example.com", "bob")
    const cookie = b.cookies(callback).apply(new Headers(), callback).get("cookie")!
    expect(refusalCode((await b.request(callback)).response)).toBeNull()
    const replay = await Auth(new Request(callback, { headers: { cookie } }), app.config)
    expect(refusalCode(replay)).toBe("ASSERTION_REPLAYED")
  })

  it("a callback with another state is refused (OIDC_FAILED), nothing stored", async () => {
    const b = browser()
    const callback = new URL(await toCallback(b, "bob@example.com", "bob"))
    callback.searchParams.set("state", "forged-state")
    const users = store.users.size
    expect(refusalCode((await b.request(callback.href)).response)).toBe("OIDC_FAILED")
    expect(store.users.size).toBe(users)
  })

  it("an address the IdP does not vouch for (email_verified false): EMAIL_MISSING", async () => {
    const b = browser()
    const callback = await toCallback(b, "victim@example.com", "mallory")
    const users = store.users.size
    expect(refusalCode((await b.request(callback)).response)).toBe("EMAIL_MISSING")
    expect(store.users.size).toBe(users)
  })
})
