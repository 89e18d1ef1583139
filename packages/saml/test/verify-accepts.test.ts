import { beforeAll, describe, expect, it } from "vitest"
import { makeParties, type Parties } from "@authlib/e2e-kit/saml/keys"
import { assertionXml, encryptFor, fields, REQUEST_ID, responseXml, sign } from "@authlib/e2e-kit/saml/idp"
import { verifyXml } from "./helpers/verify.js"

let parties: Parties
beforeAll(async () => {
  parties = await makeParties()
})

describe("verifySamlResponse accepts what a real IdP sends", () => {
  it("reads every value of a signed assertion", async () => {
    const f = fields()
    const result = await verifyXml(parties, responseXml(f, sign(assertionXml(f), "Assertion", parties.idp)))
    expect(result).toEqual({
      ok: true,
      assertionId: f.assertionId,
      nameId: "alice@acme.test",
      nameIdFormat: "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress",
      email: "alice@acme.test",
      attributes: { mail: ["alice@acme.test"], groups: ["staff", "admins"] },
      sessionIndex: "_sess1",
      authnContextClassRef: "urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport",
      notOnOrAfter: f.notOnOrAfter,
      inResponseTo: REQUEST_ID,
    })
  })

  it("accepts a signed assertion inside a signed Response", async () => {
    const f = fields()
    const xml = sign(responseXml(f, sign(assertionXml(f), "Assertion", parties.idp)), "Response", parties.idp)
    expect((await verifyXml(parties, xml)).assertionId).toBe(f.assertionId)
  })

  it("accepts a signed Response alone only when requireSignedAssertion is false", async () => {
    const f = fields()
    const xml = sign(responseXml(f, assertionXml(f)), "Response", parties.idp)
    expect((await verifyXml(parties, xml, { requireSignedAssertion: false })).nameId).toBe("alice@acme.test")
  })

  it("takes the address from the mail attribute when the NameID is not an e-mail address", async () => {
    const f = fields({ nameId: "u-1234", nameIdFormat: "urn:oasis:names:tc:SAML:2.0:nameid-format:persistent" })
    const result = await verifyXml(parties, responseXml(f, sign(assertionXml(f), "Assertion", parties.idp)))
    expect([result.nameId, result.email]).toEqual(["u-1234", "alice@acme.test"])
  })

  it("takes the address from the WS-Federation claim (Entra ID, ADFS)", async () => {
    const claim = "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress"
    const f = fields({ nameId: "u-1", nameIdFormat: "urn:oasis:names:tc:SAML:2.0:nameid-format:persistent", attributes: { [claim]: ["bob@acme.test"] } })
    expect((await verifyXml(parties, responseXml(f, sign(assertionXml(f), "Assertion", parties.idp)))).email).toBe("bob@acme.test")
  })

  it("accepts an IdP-initiated response only when allowed and no request is expected", async () => {
    const f = fields({ inResponseTo: null })
    const xml = responseXml(f, sign(assertionXml(f), "Assertion", parties.idp))
    const result = await verifyXml(parties, xml, { expectedRequestId: null, allowIdpInitiated: true })
    expect(result.inResponseTo).toBeNull()
  })

  it("accepts a response whose clocks differ by less than the skew", async () => {
    const f = fields()
    const xml = responseXml(f, sign(assertionXml(f), "Assertion", parties.idp))
    const late = new Date(f.notOnOrAfter.getTime() + 59_000)
    expect((await verifyXml(parties, xml, { now: late })).assertionId).toBe(f.assertionId)
  })

  it("decrypts an AES-GCM EncryptedAssertion with the SP key and verifies it", async () => {
    const f = fields()
    const encrypted = await encryptFor(sign(assertionXml(f), "Assertion", parties.idp), parties.sp.certificatePem)
    const result = await verifyXml(parties, responseXml(f, encrypted))
    expect([result.assertionId, result.email]).toEqual([f.assertionId, "alice@acme.test"])
  })

  it("decrypts AES-CBC only when allowCbcEncryption is set", async () => {
    const f = fields()
    const encrypted = await encryptFor(sign(assertionXml(f), "Assertion", parties.idp), parties.sp.certificatePem, true)
    expect((await verifyXml(parties, responseXml(f, encrypted), { allowCbcEncryption: true })).assertionId).toBe(f.assertionId)
  })

  it("accepts SHA-1 only when allowSha1 is set", async () => {
    const f = fields()
    const xml = responseXml(f, sign(assertionXml(f), "Assertion", { ...parties.idp, sha1: true }))
    expect((await verifyXml(parties, xml, { allowSha1: true })).assertionId).toBe(f.assertionId)
  })

  it("verifies with any of the configured certificates (rotation)", async () => {
    const f = fields()
    const xml = responseXml(f, sign(assertionXml(f), "Assertion", parties.idp))
    const certificates = [parties.attacker.certificatePem, parties.idp.certificatePem]
    expect((await verifyXml(parties, xml, { idp: { entityId: f.assertionIssuer, certificates } })).assertionId).toBe(f.assertionId)
  })
})
