/**
 * IdP-initiated sign-in (an unsolicited Response: no `InResponseTo`), through the public API on
 * core's `Auth` with a `MemoryAdapter` and the saml package's test IdP. Off by default
 * (`IN_RESPONSE_TO_MISSING`, nothing stored); on a connection with `allowIdpInitiated` it signs in
 * once per assertion ID (a replay is `ASSERTION_REPLAYED`, nothing stored), its `RelayState` is a
 * destination only as the `redirect` callback allows, and a Response that names a request must
 * still name this browser's.
 */
import { beforeAll, describe, expect, it } from "vitest"
import { updateSsoConnection, type SsoConnection } from "@authlib/core"
import { MemoryAdapter, createMemoryStore, type MemoryStore } from "@authlib/adapter-test"
import { assertionXml, b64, responseXml, sign, type ResponseFields } from "@authlib/e2e-kit/saml/idp"
import { makeParties, type Parties } from "@authlib/e2e-kit/saml/keys"
import { Client, ORIGIN } from "../helpers.js"
import { IDP, acmeIdp, answerFor, postToAcs, refusalCode, samlOrganization, startApp, startSignIn, type SsoApp } from "./harness.js"

let parties: Parties
let store: MemoryStore
let app: SsoApp
let acme: { organizationId: string; connection: SsoConnection }

beforeAll(async () => {
  parties = await makeParties()
  store = createMemoryStore()
  app = await startApp(MemoryAdapter(store))
  acme = await samlOrganization(app, "acme", acmeIdp(parties.idp.certificatePem), ["acme.test"])
}, 60_000)

const stored = () => JSON.stringify([[...store.users], [...store.accounts], [...store.organizationMembers], [...store.sessions]])
const setAllowed = async (allowIdpInitiated: boolean) => (acme.connection = await updateSsoConnection(app.adminRequest(), app.config, acme.connection.id, { allowIdpInitiated }))

/** A signed Response for `email` answering `inResponseTo` (`null`: unsolicited), base64. */
function response(email: string, inResponseTo: string | null, over: Partial<ResponseFields> = {}): string {
  const f = answerFor(acme.connection, inResponseTo, { nameId: email, attributes: { mail: [email] }, ...over })
  return b64(responseXml(f, sign(assertionXml(f), "Assertion", parties.idp)))
}

/** The IdP portal's form POST of `samlResponse` from a browser that started nothing here. */
const unsolicited = (samlResponse: string, relayState = "") => postToAcs(new Client(app.config), acme.connection.id, samlResponse, app.config, relayState)

describe("IdP-initiated sign-in", () => {
  it("is off by default: an unsolicited Response is IN_RESPONSE_TO_MISSING, nothing stored", async () => {
    expect(acme.connection.allowIdpInitiated).toBe(false)
    const before = stored()
    expect(refusalCode(await unsolicited(response("alice@acme.test", null)))).toBe("IN_RESPONSE_TO_MISSING")
    expect(stored()).toBe(before)
  })

  it("on a connection that allows it: signs in once; the same assertion again (another browser) is ASSERTION_REPLAYED, nothing stored", async () => {
    await setAllowed(true)
    const samlResponse = response("alice@acme.test", null)
    const res = await unsolicited(samlResponse, "/dashboard")
    expect(res.status).toBe(302)
    expect(res.headers.get("location")).toBe(`${ORIGIN}/dashboard`)
    expect([...store.users.values()].some((u) => u.email === "alice@acme.test")).toBe(true)
    const before = stored()
    expect(refusalCode(await unsolicited(samlResponse))).toBe("ASSERTION_REPLAYED")
    expect(stored()).toBe(before)
  })

  it("a hostile RelayState is no destination: the default redirect callback sends the user to the app", async () => {
    for (const relayState of ["https://evil.example/steal", "//evil.example/x", "javascript:alert(1)"]) {
      const res = await unsolicited(response("bob@acme.test", null), relayState)
      expect(res.status).toBe(302)
      expect(new URL(res.headers.get("location")!).origin).toBe(ORIGIN)
    }
  })

  it("a RelayState the app's redirect callback allows is followed; one it refuses is not", async () => {
    const config = { ...app.config, callbacks: { redirect: ({ url, baseUrl }: { url: string; baseUrl: string }) => (url.startsWith("https://docs.acme.test/") ? url : baseUrl) } }
    const allowed = await postToAcs(new Client(config), acme.connection.id, response("bob@acme.test", null), config, "https://docs.acme.test/start")
    expect(allowed.headers.get("location")).toBe("https://docs.acme.test/start")
    const refused = await postToAcs(new Client(config), acme.connection.id, response("bob@acme.test", null), config, "https://evil.example/")
    expect(refused.headers.get("location")).toBe(ORIGIN)
  })

  it("a Response that names a request keeps today's rules: without this browser's request IN_RESPONSE_TO_UNKNOWN, nothing stored", async () => {
    const other = new Client(app.config)
    const { requestId } = await startSignIn(other, { email: "carol@acme.test" })
    const before = stored()
    expect(refusalCode(await unsolicited(response("carol@acme.test", requestId)))).toBe("IN_RESPONSE_TO_UNKNOWN")
    // Another browser's request, to a browser that started its own: refused too.
    const browser = new Client(app.config)
    await startSignIn(browser, { email: "carol@acme.test" })
    expect(refusalCode(await postToAcs(browser, acme.connection.id, response("carol@acme.test", requestId)))).toBe("IN_RESPONSE_TO_UNKNOWN")
    expect(stored()).toBe(before)
  })

  it("an SP-initiated sign-in on such a connection goes where it started (its RelayState unused); a browser with a started request may still bring an unsolicited Response", async () => {
    const browser = new Client(app.config)
    const { requestId } = await startSignIn(browser, { email: "dan@acme.test", callbackUrl: `${ORIGIN}/projects` })
    const res = await postToAcs(browser, acme.connection.id, response("dan@acme.test", requestId), app.config, "/elsewhere")
    expect(res.headers.get("location")).toBe(`${ORIGIN}/projects`)

    const started = new Client(app.config)
    await startSignIn(started, { email: "erin@acme.test", callbackUrl: `${ORIGIN}/projects` })
    const portal = await postToAcs(started, acme.connection.id, response("erin@acme.test", null), app.config, "/from-portal")
    expect(portal.headers.get("location")).toBe(`${ORIGIN}/from-portal`)
  })

  it("turned off again: unsolicited Responses are refused again", async () => {
    await setAllowed(false)
    const before = stored()
    expect(refusalCode(await unsolicited(response("frank@acme.test", null)))).toBe("IN_RESPONSE_TO_MISSING")
    expect(stored()).toBe(before)
  })
})
