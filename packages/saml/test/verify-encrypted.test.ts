import { beforeAll, describe, expect, it } from "vitest"
import { makeParties, type Parties } from "@authlib/e2e-kit/saml/keys"
import { assertionXml, encryptFor, fields, responseXml, sign } from "@authlib/e2e-kit/saml/idp"
import { first, parse, serialize } from "@authlib/e2e-kit/saml/dom-edit"
import { expectRefused, verifyXml } from "./helpers/verify.js"

let parties: Parties
beforeAll(async () => {
  parties = await makeParties()
})

describe("EncryptedAssertion", () => {
  it("a tampered ciphertext is DECRYPTION_FAILED", async () => {
    const f = fields()
    const doc = parse(responseXml(f, await encryptFor(sign(assertionXml(f), "Assertion", parties.idp), parties.sp.certificatePem)))
    const cipher = first(first(doc, "EncryptedData"), "CipherData")
    const value = first(cipher, "CipherValue")
    const bytes = Buffer.from(value.textContent ?? "", "base64")
    bytes[40] = (bytes[40] ?? 0) ^ 0x01
    value.textContent = bytes.toString("base64")
    await expectRefused(verifyXml(parties, serialize(doc)), "DECRYPTION_FAILED")
  })

  it("an assertion encrypted for another SP's key is DECRYPTION_FAILED", async () => {
    const f = fields()
    const encrypted = await encryptFor(sign(assertionXml(f), "Assertion", parties.idp), parties.attacker.certificatePem)
    await expectRefused(verifyXml(parties, responseXml(f, encrypted)), "DECRYPTION_FAILED")
  })

  it("an unsigned assertion encrypted with the SP's public certificate (anyone can) is SIGNATURE_INVALID", async () => {
    const f = fields()
    const encrypted = await encryptFor(assertionXml(f), parties.sp.certificatePem)
    await expectRefused(verifyXml(parties, responseXml(f, encrypted)), "SIGNATURE_INVALID")
  })

  it("an encrypted assertion signed by another key is SIGNATURE_INVALID", async () => {
    const f = fields()
    const encrypted = await encryptFor(sign(assertionXml(f), "Assertion", parties.attacker), parties.sp.certificatePem)
    await expectRefused(verifyXml(parties, responseXml(f, encrypted)), "SIGNATURE_INVALID")
  })

  it("AES-CBC content encryption is ALGORITHM_REFUSED by default", async () => {
    const f = fields()
    const encrypted = await encryptFor(sign(assertionXml(f), "Assertion", parties.idp), parties.sp.certificatePem, true)
    await expectRefused(verifyXml(parties, responseXml(f, encrypted)), "ALGORITHM_REFUSED")
  })

  it("RSA PKCS#1 v1.5 key transport is ALGORITHM_REFUSED", async () => {
    const f = fields()
    const encrypted = await encryptFor(sign(assertionXml(f), "Assertion", parties.idp), parties.sp.certificatePem)
    const xml = responseXml(f, encrypted).replace("xmlenc#rsa-oaep-mgf1p", "xmlenc#rsa-1_5")
    await expectRefused(verifyXml(parties, xml), "ALGORITHM_REFUSED")
  })

  it("a wrapped assertion inside the ciphertext is ASSERTION_WRAPPED", async () => {
    const f = fields()
    const evil = assertionXml(fields({ nameId: "mallory@acme.test" }))
    const wrapped = evil.replace("</saml:Assertion>", `${sign(assertionXml(f), "Assertion", parties.idp)}</saml:Assertion>`)
    await expectRefused(verifyXml(parties, responseXml(f, await encryptFor(wrapped, parties.sp.certificatePem))), "ASSERTION_WRAPPED")
  })

  it("a DTD inside the ciphertext is refused (DECRYPTION_FAILED: one code after decryption)", async () => {
    const f = fields()
    const payload = `<!DOCTYPE a [<!ENTITY x "y">]>${sign(assertionXml(f), "Assertion", parties.idp)}`
    await expectRefused(verifyXml(parties, responseXml(f, await encryptFor(payload, parties.sp.certificatePem))), "DECRYPTION_FAILED")
  })

  it("an unsigned encrypted assertion is accepted under a signed Response only when requireSignedAssertion is false", async () => {
    const f = fields()
    const xml = sign(responseXml(f, await encryptFor(assertionXml(f), parties.sp.certificatePem)), "Response", parties.idp)
    await expectRefused(verifyXml(parties, xml), "SIGNATURE_INVALID")
    expect((await verifyXml(parties, xml, { requireSignedAssertion: false })).assertionId).toBe(f.assertionId)
  })

  it("a plain assertion next to an EncryptedAssertion is ASSERTION_WRAPPED", async () => {
    const f = fields()
    const encrypted = await encryptFor(sign(assertionXml(f), "Assertion", parties.idp), parties.sp.certificatePem)
    const evil = assertionXml(fields({ nameId: "mallory@acme.test" }))
    await expectRefused(verifyXml(parties, responseXml(f, evil + encrypted)), "ASSERTION_WRAPPED")
  })
})
