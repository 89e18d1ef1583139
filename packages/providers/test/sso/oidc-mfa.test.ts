/**
 * `requireIdpMfa` on an OIDC connection, against a real OpenID provider (`oidc-provider`, core's
 * test OP) that reports `amr` per account in the ID token it signs: a login whose ID token says
 * `mfa` signs in with `mfa` in the session's `amr`; one without is `MFA_REQUIRED`, nothing stored,
 * also when the callback URL carries an `amr` of its own (only the verified ID token counts).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createOrganization, createSsoConnection, requireRecentAuthentication, updateSsoConnection, Auth, type SsoConnection } from "@authlib/core"
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

beforeAll(async () => {
  store = createMemoryStore()
  app = await startApp(MemoryAdapter(store))
  const organizationId = (await createOrganization(app.adminRequest(), app.config, { name: "Example", slug: "example" })).id
  connection = await createSsoConnection(app.adminRequest(), app.config, organizationId, {
    type: "oidc", issuer: "http://127.0.0.1:9/", clientId: clients.basic.client_id, clientSecret: clients.basic.client_secret, requireIdpMfa: true,
  })
  expect(connection.requireIdpMfa).toBe(true)
  op = await startLocalOP([connection.redirectUri!], { amr: { alice: ["pwd", "otp", "mfa"], bob: ["pwd"] } })
  connection = await updateSsoConnection(app.adminRequest(), app.config, connection.id, { issuer: op.issuer })
  await verifiedDomain(app, connection.id, "example.com")
}, 60_000)

afterAll(() => op?.close())

const browser = () => new Browser(ORIGIN, (request) => Auth(request, app.config))
const stored = () => JSON.stringify([[...store.users], [...store.accounts], [...store.organizationMembers], [...store.sessions]])

/** Starts at `POST signin/sso` and logs `login` in at the OP: the callback URL the OP sends the browser to. */
async function toCallback(b: Browser, email: string, login: string): Promise<string> {
  const { csrfToken } = JSON.parse((await b.request(`${ORIGIN}/auth/csrf`)).body) as { csrfToken: string }
  const start = await b.form(`${ORIGIN}/auth/signin/sso`, { csrfToken, email }, { origin: ORIGIN })
  const answer = await loginAtOP(b, start.response.headers.get("location")!, login)
  if (answer.kind !== "redirect") throw new Error("expected a redirect back")
  return answer.url
}

describe("requireIdpMfa on an OIDC connection", () => {
  it("an ID token without mfa in amr is MFA_REQUIRED, nothing stored, whatever the callback URL adds", async () => {
    const before = stored()
    const b = browser()
    const callback = new URL(await toCallback(b, "bob@example.com", "bob"))
    callback.searchParams.set("amr", "mfa")
    callback.searchParams.set("acr", "https://refeds.org/profile/mfa")
    expect(refusalCode((await b.request(callback.href)).response)).toBe("MFA_REQUIRED")
    expect(stored()).toBe(before)
  })

  it("an ID token whose amr holds mfa signs in, and the session's amr records it", async () => {
    const b = browser()
    const done = await b.request(await toCallback(b, "alice@example.com", "alice"))
    expect(done.response.status).toBe(302)
    expect(done.response.headers.get("location")).toBe(`${ORIGIN}/`)
    const headers = b.cookies(ORIGIN).apply(new Headers(), ORIGIN)
    const principal = await requireRecentAuthentication(new Request(`${ORIGIN}/app`, { headers }), app.config)
    expect(principal.amr).toEqual(expect.arrayContaining(["fed", "mfa"]))
  })
})
