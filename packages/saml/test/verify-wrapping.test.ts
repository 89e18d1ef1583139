import { beforeAll, describe, expect, it } from "vitest"
import { makeParties, type Parties } from "@authlib/e2e-kit/saml/keys"
import { assertionXml, fields, responseXml, sign, type ResponseFields } from "@authlib/e2e-kit/saml/idp"
import { childNamed, first, importXml, parse, serialize } from "@authlib/e2e-kit/saml/dom-edit"
import { expectRefused, verifyXml } from "./helpers/verify.js"

// XSW1–8 after Somorovsky et al., "On Breaking SAML: Be Whoever You Want to Be" (USENIX Security 2012):
// each one keeps a really signed element somewhere in the document and puts an evil, unsigned one where a
// careless SP reads. The evil assertion names mallory, the signed one alice.

let parties: Parties
let f: ResponseFields
let evil: string
beforeAll(async () => {
  parties = await makeParties()
})
const setUp = () => {
  f = fields()
  evil = assertionXml(fields({ nameId: "mallory@acme.test", attributes: { mail: ["mallory@acme.test"] } }))
}

/** The signed assertion's Signature element, detached from a copy of it. */
function signatureOf(signedAssertion: string): { signature: Element; unsigned: Element } {
  const doc = parse(signedAssertion)
  const signature = first(doc, "Signature")
  signature.parentNode?.removeChild(signature)
  return { signature, unsigned: doc.documentElement as Element }
}

describe("signature wrapping on a signed Response (XSW1, XSW2)", () => {
  const signedResponse = () => sign(responseXml(f, sign(assertionXml(f), "Assertion", parties.idp)), "Response", parties.idp)

  it("XSW1: the signed Response moved inside the evil Response's Signature is refused", async () => {
    setUp()
    const original = parse(signedResponse())
    const forged = parse(responseXml(fields({ responseId: "_evil" }), evil))
    const signature = first(original, "Signature")
    const copy = forged.importNode(signature, true) as Element
    copy.appendChild(forged.importNode(original.documentElement as Element, true))
    const root = forged.documentElement as Element
    root.insertBefore(copy, childNamed(root, "Status"))
    await expectRefused(verifyXml(parties, serialize(forged), { requireSignedAssertion: false }), "ASSERTION_WRAPPED")
  })

  it("XSW2: the signed Response as a sibling before the evil Response's Signature is refused", async () => {
    setUp()
    const original = parse(signedResponse())
    const forged = parse(responseXml(fields({ responseId: "_evil" }), evil))
    const root = forged.documentElement as Element
    const status = childNamed(root, "Status")
    root.insertBefore(forged.importNode(original.documentElement as Element, true), status)
    root.insertBefore(forged.importNode(first(original, "Signature"), true), status)
    await expectRefused(verifyXml(parties, serialize(forged), { requireSignedAssertion: false }), "ASSERTION_WRAPPED")
  })

  it("the Response's Signature moved into the evil assertion (it references the Response) is refused", async () => {
    setUp()
    const original = parse(signedResponse())
    const signature = first(original, "Signature")
    const forged = parse(responseXml(f, evil))
    const assertion = first(forged, "Assertion")
    assertion.insertBefore(forged.importNode(signature, true), childNamed(assertion, "Subject"))
    await expectRefused(verifyXml(parties, serialize(forged)), "ASSERTION_WRAPPED")
  })
})

describe("signature wrapping on a signed assertion (XSW3–XSW8)", () => {
  it("XSW3: an evil assertion before the signed one is refused", async () => {
    setUp()
    await expectRefused(verifyXml(parties, responseXml(f, evil + sign(assertionXml(f), "Assertion", parties.idp))), "ASSERTION_WRAPPED")
  })

  it("XSW4: the signed assertion wrapped inside the evil one is refused", async () => {
    setUp()
    const doc = parse(responseXml(f, evil))
    first(doc, "Assertion").appendChild(importXml(doc, sign(assertionXml(f), "Assertion", parties.idp)))
    await expectRefused(verifyXml(parties, serialize(doc)), "ASSERTION_WRAPPED")
  })

  it("XSW5: the evil assertion carries the signature, the signed one is appended unsigned", async () => {
    setUp()
    const { signature, unsigned } = signatureOf(sign(assertionXml(f), "Assertion", parties.idp))
    const doc = parse(responseXml(f, evil))
    const assertion = first(doc, "Assertion")
    assertion.insertBefore(doc.importNode(signature, true), childNamed(assertion, "Subject"))
    ;(doc.documentElement as Element).appendChild(doc.importNode(unsigned, true))
    await expectRefused(verifyXml(parties, serialize(doc)), "ASSERTION_WRAPPED")
  })

  it("XSW6: the signed assertion hidden inside the evil assertion's Signature is refused", async () => {
    setUp()
    const signed = parse(sign(assertionXml(f), "Assertion", parties.idp))
    const signature = first(signed, "Signature")
    const doc = parse(responseXml(f, evil))
    const assertion = first(doc, "Assertion")
    const copy = doc.importNode(signature, true) as Element
    copy.appendChild(doc.importNode(signed.documentElement as Element, true))
    assertion.insertBefore(copy, childNamed(assertion, "Subject"))
    await expectRefused(verifyXml(parties, serialize(doc)), "ASSERTION_WRAPPED")
  })

  it("XSW7: the signed assertion in Extensions, the evil one read by the SP, is refused", async () => {
    setUp()
    const signed = sign(assertionXml(f), "Assertion", parties.idp)
    const extensions = `<samlp:Extensions>${signed}</samlp:Extensions>`
    await expectRefused(verifyXml(parties, responseXml(f, evil, extensions)), "ASSERTION_WRAPPED")
  })

  it("XSW8: the signed assertion, unsigned, in a ds:Object of the evil assertion's Signature is refused", async () => {
    setUp()
    const { signature, unsigned } = signatureOf(sign(assertionXml(f), "Assertion", parties.idp))
    const doc = parse(responseXml(f, evil))
    const assertion = first(doc, "Assertion")
    const copy = doc.importNode(signature, true) as Element
    const object = doc.createElementNS("http://www.w3.org/2000/09/xmldsig#", "ds:Object")
    object.appendChild(doc.importNode(unsigned, true))
    copy.appendChild(object)
    assertion.insertBefore(copy, childNamed(assertion, "Subject"))
    await expectRefused(verifyXml(parties, serialize(doc)), "ASSERTION_WRAPPED")
  })

  it("an evil assertion with the signed assertion's ID (the signed copy hidden in Extensions) is refused", async () => {
    setUp()
    const signed = sign(assertionXml(f), "Assertion", parties.idp)
    const sameId = assertionXml({ ...fields({ nameId: "mallory@acme.test" }), assertionId: f.assertionId })
    await expectRefused(verifyXml(parties, responseXml(f, sameId, `<samlp:Extensions>${signed}</samlp:Extensions>`)), "ASSERTION_WRAPPED")
  })

  it("an evil assertion that takes the signed one's Signature and ID is refused (digest mismatch)", async () => {
    setUp()
    const { signature } = signatureOf(sign(assertionXml(f), "Assertion", parties.idp))
    const doc = parse(responseXml(f, assertionXml({ ...fields({ nameId: "mallory@acme.test" }), assertionId: f.assertionId })))
    const assertion = first(doc, "Assertion")
    assertion.insertBefore(doc.importNode(signature, true), childNamed(assertion, "Subject"))
    await expectRefused(verifyXml(parties, serialize(doc)), "SIGNATURE_INVALID")
  })

  it("a second Reference to another element in the assertion's SignedInfo is refused", async () => {
    setUp()
    const doc = parse(responseXml(f, sign(assertionXml(f), "Assertion", parties.idp)))
    const reference = first(doc, "Reference")
    const extra = reference.cloneNode(true) as Element
    extra.setAttribute("URI", `#${f.responseId}`)
    reference.parentNode?.appendChild(extra)
    await expectRefused(verifyXml(parties, serialize(doc)), "ASSERTION_WRAPPED")
  })

  it("a Reference to the whole document (URI \"\") is refused", async () => {
    setUp()
    const doc = parse(responseXml(f, sign(assertionXml(f), "Assertion", parties.idp)))
    first(doc, "Reference").setAttribute("URI", "")
    await expectRefused(verifyXml(parties, serialize(doc)), "ASSERTION_WRAPPED")
  })

  it("a namespaced attribute repeating the assertion's ID elsewhere is refused (xml-crypto matches IDs by local name)", async () => {
    setUp()
    const signed = sign(assertionXml(f), "Assertion", parties.idp)
    const decoy = `<samlp:Extensions><x:Decoy xmlns:x="urn:x" x:ID="${f.assertionId}"/></samlp:Extensions>`
    await expectRefused(verifyXml(parties, responseXml(f, signed, decoy)), "ASSERTION_WRAPPED")
  })

  it("the control: the same signed assertion, unwrapped, is accepted", async () => {
    setUp()
    const result = await verifyXml(parties, responseXml(f, sign(assertionXml(f), "Assertion", parties.idp)))
    expect(result.nameId).toBe("alice@acme.test")
  })
})
