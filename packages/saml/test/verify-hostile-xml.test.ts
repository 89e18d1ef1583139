import { beforeAll, describe, expect, it } from "vitest"
import { makeParties, type Parties } from "@authlib/e2e-kit/saml/keys"
import { assertionXml, b64, fields, responseXml, sign } from "@authlib/e2e-kit/saml/idp"
import { expectRefused, verifyXml } from "./helpers/verify.js"

let parties: Parties
let signed: string
beforeAll(async () => {
  parties = await makeParties()
  const f = fields()
  signed = responseXml(f, sign(assertionXml(f), "Assertion", parties.idp))
})

describe("DTDs are refused before parsing", () => {
  const payloads: Record<string, string> = {
    "an internal entity": `<!DOCTYPE samlp:Response [<!ENTITY who "alice@acme.test">]>`,
    "an external entity (XXE)": `<!DOCTYPE samlp:Response [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>`,
    "a parameter entity": `<!DOCTYPE samlp:Response [<!ENTITY % p SYSTEM "http://127.0.0.1:9/x.dtd"> %p;]>`,
    "billion laughs": `<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">]>`,
    "a bare DOCTYPE": `<!DOCTYPE samlp:Response>`,
    "a lower-case doctype with spaces": `<! doctype samlp:Response SYSTEM "http://127.0.0.1:9/x.dtd">`,
  }
  for (const [name, dtd] of Object.entries(payloads)) {
    it(`${name} is DTD_REFUSED`, async () => {
      await expectRefused(verifyXml(parties, `<?xml version="1.0"?>${dtd}${signed}`), "DTD_REFUSED")
    })
  }

  it("a DTD in a UTF-16 document is refused too (MALFORMED: only UTF-8 is read)", async () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`<!DOCTYPE r [<!ENTITY x "y">]>${signed}`, "utf16le")])
    await expectRefused(verifyXml(parties, "", { samlResponse: utf16.toString("base64") }), "MALFORMED")
  })
})

describe("size and shape", () => {
  it("a response over maxResponseBytes is RESPONSE_TOO_LARGE without being parsed", async () => {
    // Not XML at all: a parser would answer MALFORMED, so RESPONSE_TOO_LARGE proves the limit came first.
    const big = "<".repeat(257 * 1024)
    await expectRefused(verifyXml(parties, big), "RESPONSE_TOO_LARGE")
  })

  it("a base64 text far over the limit is refused before decoding", async () => {
    await expectRefused(verifyXml(parties, "", { samlResponse: "A".repeat(2 * 1024 * 1024) }), "RESPONSE_TOO_LARGE")
  })

  it("a lower maxResponseBytes refuses a signed response that is otherwise good", async () => {
    await expectRefused(verifyXml(parties, signed, { maxResponseBytes: 2048 }), "RESPONSE_TOO_LARGE")
  })

  it("a value that is not base64 is MALFORMED", async () => {
    await expectRefused(verifyXml(parties, "", { samlResponse: "<samlp:Response/>" }), "MALFORMED")
  })

  it("XML that is not well-formed is MALFORMED", async () => {
    await expectRefused(verifyXml(parties, signed.replace("</samlp:Response>", "")), "MALFORMED")
  })

  it("an undeclared entity is MALFORMED", async () => {
    await expectRefused(verifyXml(parties, signed.replace("alice@acme.test</saml:NameID>", "&who;</saml:NameID>")), "MALFORMED")
  })

  it("a root that is not a protocol Response is MALFORMED", async () => {
    await expectRefused(verifyXml(parties, assertionXml(fields())), "MALFORMED")
  })
})

describe("comment injection", () => {
  it("a comment inside the NameID does not change the value read (the signed value is read whole)", async () => {
    // The IdP signed mallory@acme.test.evil.test; the comment keeps the signature valid (C14N drops it),
    // and an SP reading only the first text node would see mallory@acme.test.
    const f = fields({ nameId: "mallory@acme.test.evil.test", attributes: { mail: ["mallory@acme.test.evil.test"] } })
    const injected = responseXml(f, sign(assertionXml(f), "Assertion", parties.idp))
      .replace("mallory@acme.test.evil.test</saml:NameID>", "mallory@acme.test<!---->.evil.test</saml:NameID>")
      .replace("mallory@acme.test.evil.test</saml:AttributeValue>", "mallory@acme.test<!---->.evil.test</saml:AttributeValue>")
    expect(injected).toContain("<!---->")
    const result = await verifyXml(parties, injected)
    expect([result.nameId, result.email, result.attributes.mail]).toEqual([
      "mallory@acme.test.evil.test",
      "mallory@acme.test.evil.test",
      ["mallory@acme.test.evil.test"],
    ])
  })

  it("a CDATA section splitting the NameID reads as the same signed value", async () => {
    const f = fields({ nameId: "mallory@acme.test.evil.test" })
    const injected = responseXml(f, sign(assertionXml(f), "Assertion", parties.idp)).replace(
      "mallory@acme.test.evil.test</saml:NameID>",
      "mallory@acme.test<![CDATA[.evil.test]]></saml:NameID>",
    )
    expect((await verifyXml(parties, injected)).nameId).toBe("mallory@acme.test.evil.test")
  })

  it("a NameID altered around a comment (text outside the signed value) is SIGNATURE_INVALID", async () => {
    const f = fields()
    const xml = responseXml(f, sign(assertionXml(f), "Assertion", parties.idp)).replace(
      "alice@acme.test</saml:NameID>",
      "alice@acme.test<!---->.evil.test</saml:NameID>",
    )
    await expectRefused(verifyXml(parties, xml), "SIGNATURE_INVALID")
  })
})

it("b64 helper sanity: the good response is accepted", async () => {
  expect((await verifyXml(parties, signed)).ok).toBe(true)
  expect(b64("x")).toBe("eA==")
})
