
import { SignedXml } from "xml-crypto"
import { refuse } from "../errors.js"
import { attr, childElements, onlyChild } from "../xml/dom.js"
import { NS } from "../xml/namespaces.js"
import { parseUntrustedXml } from "../xml/parse.js"
import { checkSignatureAlgorithms } from "./algorithms.js"

/** What a verified enveloped signature proves: the canonical bytes it covers, parsed afresh. */
export interface SignedElement {
  /** The element as signed (canonical form, enveloped signature removed), in a document of its own. */
  element: Element
}

/**
 * Verify the enveloped signature that is a direct child of `element` and return the element as signed;
 * `null` when `element` carries no signature. `documentXml` is the text `element`'s document was parsed
 * from (xml-crypto re-parses it).
 *
 * The signature must have exactly one Reference, to `#` + `element`'s own ID (the caller has checked IDs
 * are unique in the document), allowed algorithms, and verify with one of `certificates` only: a
 * certificate or key in the message's KeyInfo is never used. Values are then read only from the canonical
 * XML the digest covered (xml-crypto's `getSignedReferences()`), so nothing outside the signed bytes,
 * comments included, can reach the caller.
 */
export function verifyEnvelopedSignature(
  element: Element,
  documentXml: string,
  certificates: readonly string[],
  allowSha1: boolean,
): SignedElement | null {
  const wrapped = (why: string) => refuse("ASSERTION_WRAPPED", why, { element: element.localName })
  const signature = onlyChild(element, NS.dsig, "Signature", () => wrapped(`the ${element.localName} has more than one Signature`))
  if (!signature) return null
  const signedInfo = onlyChild(signature, NS.dsig, "SignedInfo", () => wrapped("a Signature has more than one SignedInfo"))
  if (!signedInfo) refuse("SIGNATURE_INVALID", "the Signature has no SignedInfo")
  const references = childElements(signedInfo, NS.dsig, "Reference")
  if (references.length !== 1) wrapped(`a signature must reference exactly one element, found ${references.length}`)
  const id = attr(element, "ID")
  const reference = references[0] as Element
  if (!id || attr(reference, "URI") !== `#${id}`) {
    wrapped(`the signature does not reference its own ${element.localName}`)
  }
  checkSignatureAlgorithms(signedInfo, reference, allowSha1)
  const canonical = verifyWithAnyCertificate(signature, documentXml, certificates)
  const signed = parseUntrustedXml(canonical, "the signed element").documentElement as Element
  if (signed.namespaceURI !== element.namespaceURI || signed.localName !== element.localName || attr(signed, "ID") !== id) {
    wrapped(`the signed element is not the ${element.localName} that was read`)
  }
  return { element: signed }
}

function verifyWithAnyCertificate(signature: Element, documentXml: string, certificates: readonly string[]): string {
  for (const publicCert of certificates) {
    // getCertFromKeyInfo returning null: the message's own KeyInfo is never a source of keys.
    const verifier = new SignedXml({ publicCert, getCertFromKeyInfo: () => null })
    try {
      verifier.loadSignature(signature as unknown as Parameters<SignedXml["loadSignature"]>[0])
      if (verifier.checkSignature(documentXml) === true) {
        const [canonical, ...more] = verifier.getSignedReferences()
        if (canonical !== undefined && more.length === 0) return canonical
      }
    } catch {
      // A wrong certificate, a bad digest or a bad value: try the next configured certificate.
    }
  }
  return refuse("SIGNATURE_INVALID", "the signature does not verify with the IdP's certificate", {
    certificates: certificates.length,
  })
}
