import { beforeAll, describe, expect, it } from "vitest"
import { makeParties, weakCertificatePem, type Parties } from "@authlib/e2e-kit/saml/keys"
import { assertionXml, fields, IDP_ENTITY_ID, NOW, responseXml, sign, type ResponseFields, type SignOptions } from "@authlib/e2e-kit/saml/idp"
import { first, parse, serialize } from "@authlib/e2e-kit/saml/dom-edit"
import { expectRefused, verifyXml } from "./helpers/verify.js"

let parties: Parties
beforeAll(async () => {
  parties = await makeParties()
})

/** A Response whose assertion is signed by the real IdP, with these fields changed. */
const signedBy = (f: ResponseFields, key: SignOptions = parties.idp) => responseXml(f, sign(assertionXml(f), "Assertion", key))

describe("signatures", () => {
  it("an unsigned assertion is SIGNATURE_INVALID", async () => {
    const f = fields()
    await expectRefused(verifyXml(parties, responseXml(f, assertionXml(f))), "SIGNATURE_INVALID")
  })

  it("a signed Response alone is SIGNATURE_INVALID while the assertion signature is required (the default)", async () => {
    const f = fields()
    const error = await expectRefused(verifyXml(parties, sign(responseXml(f, assertionXml(f)), "Response", parties.idp)), "SIGNATURE_INVALID")
    expect(error.message).toBe("the assertion is not signed")
  })

  it("an assertion signed by another key is SIGNATURE_INVALID", async () => {
    await expectRefused(verifyXml(parties, signedBy(fields(), parties.attacker)), "SIGNATURE_INVALID")
  })

  it("a signature made with a certificate embedded in the message's KeyInfo is SIGNATURE_INVALID", async () => {
    // The attacker's own certificate travels in ds:KeyInfo; only the configured IdP certificate counts.
    const xml = signedBy(fields(), parties.attacker)
    expect(xml).toContain(parties.attacker.certificatePem.split("\n")[1])
    await expectRefused(verifyXml(parties, xml), "SIGNATURE_INVALID")
  })

  it("a signed assertion altered after signing is SIGNATURE_INVALID", async () => {
    const xml = signedBy(fields()).replace("alice@acme.test</saml:NameID>", "mallory@acme.test</saml:NameID>")
    await expectRefused(verifyXml(parties, xml), "SIGNATURE_INVALID")
  })

  it("a tampered SignatureValue is SIGNATURE_INVALID", async () => {
    const doc = parse(signedBy(fields()))
    const value = first(doc, "SignatureValue")
    const text = value.textContent ?? ""
    value.textContent = (text[0] === "A" ? "B" : "A") + text.slice(1)
    await expectRefused(verifyXml(parties, serialize(doc)), "SIGNATURE_INVALID")
  })

  it("an invalid Response signature is refused even though the assertion's is valid", async () => {
    const f = fields()
    const xml = sign(responseXml(f, sign(assertionXml(f), "Assertion", parties.idp)), "Response", parties.attacker)
    await expectRefused(verifyXml(parties, xml), "SIGNATURE_INVALID")
  })

  it("an IdP certificate with a 1024-bit RSA key is ALGORITHM_REFUSED, whatever the message", async () => {
    const certificates = [parties.idp.certificatePem, await weakCertificatePem()]
    await expectRefused(verifyXml(parties, signedBy(fields()), { idp: { entityId: IDP_ENTITY_ID, certificates } }), "ALGORITHM_REFUSED")
  })

  it("RSA-SHA1 with SHA-1 digests is ALGORITHM_REFUSED by default", async () => {
    await expectRefused(verifyXml(parties, signedBy(fields(), { ...parties.idp, sha1: true })), "ALGORITHM_REFUSED")
  })

  it("a SHA-1 digest under an RSA-SHA256 signature is ALGORITHM_REFUSED", async () => {
    const doc = parse(signedBy(fields()))
    first(doc, "DigestMethod").setAttribute("Algorithm", "http://www.w3.org/2000/09/xmldsig#sha1")
    await expectRefused(verifyXml(parties, serialize(doc)), "ALGORITHM_REFUSED")
  })

  it("an HMAC signature (keyed with the public certificate) is ALGORITHM_REFUSED", async () => {
    const doc = parse(signedBy(fields()))
    first(doc, "SignatureMethod").setAttribute("Algorithm", "http://www.w3.org/2001/04/xmldsig-more#hmac-sha256")
    await expectRefused(verifyXml(parties, serialize(doc)), "ALGORITHM_REFUSED")
  })

  it("an XPath transform is ALGORITHM_REFUSED", async () => {
    const doc = parse(signedBy(fields()))
    first(doc, "Transform").setAttribute("Algorithm", "http://www.w3.org/TR/1999/REC-xpath-19991116")
    await expectRefused(verifyXml(parties, serialize(doc)), "ALGORITHM_REFUSED")
  })
})

describe("who the response is for and from", () => {
  it("another Audience is AUDIENCE_MISMATCH", async () => {
    await expectRefused(verifyXml(parties, signedBy(fields({ audience: "https://other.example/sp" }))), "AUDIENCE_MISMATCH")
  })

  it("a second AudienceRestriction naming only another SP is AUDIENCE_MISMATCH (restrictions are ANDed)", async () => {
    const f = fields()
    const other = "<saml:AudienceRestriction><saml:Audience>https://other.example/sp</saml:Audience></saml:AudienceRestriction>"
    const assertion = assertionXml(f).replace("</saml:AudienceRestriction>", `</saml:AudienceRestriction>${other}`)
    await expectRefused(verifyXml(parties, responseXml(f, sign(assertion, "Assertion", parties.idp))), "AUDIENCE_MISMATCH")
  })

  it("another Destination is DESTINATION_MISMATCH", async () => {
    await expectRefused(verifyXml(parties, signedBy(fields({ destination: "https://other.example/acs" }))), "DESTINATION_MISMATCH")
  })

  it("no Destination is DESTINATION_MISMATCH", async () => {
    await expectRefused(verifyXml(parties, signedBy(fields({ destination: null }))), "DESTINATION_MISMATCH")
  })

  it("another Recipient is RECIPIENT_MISMATCH", async () => {
    await expectRefused(verifyXml(parties, signedBy(fields({ recipient: "https://other.example/acs" }))), "RECIPIENT_MISMATCH")
  })

  it("no Recipient is RECIPIENT_MISMATCH", async () => {
    await expectRefused(verifyXml(parties, signedBy(fields({ recipient: null }))), "RECIPIENT_MISMATCH")
  })

  it("another assertion Issuer is ISSUER_MISMATCH", async () => {
    await expectRefused(verifyXml(parties, signedBy(fields({ assertionIssuer: "https://evil.example/idp" }))), "ISSUER_MISMATCH")
  })

  it("another Response Issuer is ISSUER_MISMATCH", async () => {
    await expectRefused(verifyXml(parties, signedBy(fields({ responseIssuer: "https://evil.example/idp" }))), "ISSUER_MISMATCH")
  })

  it("an IdP's error answer (a failed status, no assertion) is STATUS_NOT_SUCCESS", async () => {
    const f = fields({ status: "urn:oasis:names:tc:SAML:2.0:status:Responder" })
    await expectRefused(verifyXml(parties, sign(responseXml(f, ""), "Response", parties.idp)), "STATUS_NOT_SUCCESS")
  })

  it("a successful status with no assertion is MALFORMED", async () => {
    await expectRefused(verifyXml(parties, sign(responseXml(fields(), ""), "Response", parties.idp)), "MALFORMED")
  })

  it("a failed status is STATUS_NOT_SUCCESS", async () => {
    await expectRefused(verifyXml(parties, signedBy(fields({ status: "urn:oasis:names:tc:SAML:2.0:status:Requester" }))), "STATUS_NOT_SUCCESS")
  })
})

describe("time", () => {
  const at = (ms: number) => new Date(NOW.getTime() + ms)

  it("an assertion past NotOnOrAfter by more than the skew is EXPIRED", async () => {
    const f = fields()
    await expectRefused(verifyXml(parties, signedBy(f), { now: at(300_000 + 61_000) }), "EXPIRED")
  })

  it("a subject confirmation past its NotOnOrAfter is EXPIRED", async () => {
    await expectRefused(verifyXml(parties, signedBy(fields({ confirmationNotOnOrAfter: at(-61_000) }))), "EXPIRED")
  })

  it("an assertion before NotBefore by more than the skew is NOT_YET_VALID", async () => {
    await expectRefused(verifyXml(parties, signedBy(fields({ notBefore: at(61_000) }))), "NOT_YET_VALID")
  })

  it("a skew above 3 minutes is a configuration error, not a wider window", async () => {
    await expect(verifyXml(parties, signedBy(fields()), { clockSkewSeconds: 181 })).rejects.toThrow(TypeError)
  })

  it("the 3-minute skew still refuses 3 minutes and 1 second", async () => {
    const f = fields()
    await expectRefused(verifyXml(parties, signedBy(f), { clockSkewSeconds: 180, now: at(300_000 + 181_000) }), "EXPIRED")
  })
})

describe("InResponseTo", () => {
  it("an unsolicited response (no InResponseTo) is IN_RESPONSE_TO_MISSING when a request is expected", async () => {
    await expectRefused(verifyXml(parties, signedBy(fields({ inResponseTo: null }))), "IN_RESPONSE_TO_MISSING")
  })

  it("an unsolicited response with no request expected is IN_RESPONSE_TO_MISSING unless IdP-initiated is allowed", async () => {
    await expectRefused(verifyXml(parties, signedBy(fields({ inResponseTo: null })), { expectedRequestId: null }), "IN_RESPONSE_TO_MISSING")
  })

  it("a response to another request is IN_RESPONSE_TO_UNKNOWN", async () => {
    await expectRefused(verifyXml(parties, signedBy(fields({ inResponseTo: "_another_request" }))), "IN_RESPONSE_TO_UNKNOWN")
  })

  it("a response to a request when this browser started none is IN_RESPONSE_TO_UNKNOWN, IdP-initiated allowed or not", async () => {
    const xml = signedBy(fields())
    await expectRefused(verifyXml(parties, xml, { expectedRequestId: null, allowIdpInitiated: true }), "IN_RESPONSE_TO_UNKNOWN")
  })

  it("a signed assertion answering another request inside a Response relabelled for this one is IN_RESPONSE_TO_UNKNOWN", async () => {
    const f = fields({ confirmationInResponseTo: "_another_request" })
    await expectRefused(verifyXml(parties, signedBy(f)), "IN_RESPONSE_TO_UNKNOWN")
  })
})

it("the Issuer check compares the whole value", async () => {
  await expectRefused(verifyXml(parties, signedBy(fields({ assertionIssuer: `${IDP_ENTITY_ID}x` }))), "ISSUER_MISMATCH")
})
