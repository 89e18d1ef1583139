
import { refuse } from "../errors.js"
import { attr, childElements } from "../xml/dom.js"
import { NS } from "../xml/namespaces.js"

// RSA with SHA-256 or better. xml-crypto verifies no ECDSA, and HMAC would let anyone holding the
// "key" (here: the certificate, which is public) sign, so neither is listed.
const SIGNATURE_METHODS = new Set([
  "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256",
  "http://www.w3.org/2001/04/xmldsig-more#rsa-sha512",
])
const DIGEST_METHODS = new Set(["http://www.w3.org/2001/04/xmlenc#sha256", "http://www.w3.org/2001/04/xmlenc#sha512"])
const RSA_SHA1 = "http://www.w3.org/2000/09/xmldsig#rsa-sha1"
const SHA1 = "http://www.w3.org/2000/09/xmldsig#sha1"
// Canonicalizations without comments only: a "WithComments" form would sign comments, the raw material of
// comment-injection attacks, and no SAML IdP needs one.
const CANONICALIZATIONS = new Set([
  "http://www.w3.org/2001/10/xml-exc-c14n#",
  "http://www.w3.org/TR/2001/REC-xml-c14n-20010315",
])
const TRANSFORMS = new Set([...CANONICALIZATIONS, "http://www.w3.org/2000/09/xmldsig#enveloped-signature"])

/**
 * Refuse (`ALGORITHM_REFUSED`) a signature whose SignedInfo names an algorithm outside the allow-list:
 * RSA-SHA256/512 with SHA-256/512 digests (RSA-SHA1 and SHA-1 only with `allowSha1`), exclusive or
 * inclusive C14N without comments, and only the enveloped-signature and C14N transforms (no XPath or XSLT).
 */
export function checkSignatureAlgorithms(signedInfo: Element, reference: Element, allowSha1: boolean): void {
  const method = (parent: Element, name: string) => {
    const [el] = childElements(parent, NS.dsig, name)
    return el ? attr(el, "Algorithm") : null
  }
  const signatureMethod = method(signedInfo, "SignatureMethod")
  if (!(SIGNATURE_METHODS.has(signatureMethod ?? "") || (allowSha1 && signatureMethod === RSA_SHA1))) {
    refuse("ALGORITHM_REFUSED", "the signature algorithm is not allowed", { received: signatureMethod })
  }
  const digestMethod = method(reference, "DigestMethod")
  if (!(DIGEST_METHODS.has(digestMethod ?? "") || (allowSha1 && digestMethod === SHA1))) {
    refuse("ALGORITHM_REFUSED", "the digest algorithm is not allowed", { received: digestMethod })
  }
  const c14n = method(signedInfo, "CanonicalizationMethod")
  if (!CANONICALIZATIONS.has(c14n ?? "")) refuse("ALGORITHM_REFUSED", "the canonicalization is not allowed", { received: c14n })
  for (const transforms of childElements(reference, NS.dsig, "Transforms")) {
    for (const transform of childElements(transforms, NS.dsig, "Transform")) {
      const algorithm = attr(transform, "Algorithm")
      if (!TRANSFORMS.has(algorithm ?? "")) refuse("ALGORITHM_REFUSED", "a transform is not allowed", { received: algorithm })
    }
  }
}
