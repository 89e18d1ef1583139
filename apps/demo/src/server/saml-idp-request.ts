/**
 * The Demo SAML IdP's reading of an AuthnRequest in the HTTP-Redirect binding (SAML bindings
 * §3.4.4.1): DEFLATE-d XML in `SAMLRequest`, and `Signature` over the exact bytes
 * `SAMLRequest=…[&RelayState=…]&SigAlg=…` as they arrived. The signature is checked with the
 * certificate of the SP's own metadata (found by the request's Issuer, which the IdP only trusts
 * for the connections it knows), never a key from the message; RSA-SHA256 only. Answers go to the
 * metadata's ACS, so a request naming another `AssertionConsumerServiceURL` is refused.
 */
import { createVerify } from "node:crypto"
import { inflateRawSync } from "node:zlib"
import type { SpMetadata } from "./saml-idp-sp-metadata"
import { BINDING, NS, SamlIdpRefusal, onlyChild, parseHostileXml, textOf } from "./saml-idp-xml"

const RSA_SHA256 = "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256"
const MAX_QUERY_CHARS = 16 * 1024
const MAX_XML_BYTES = 32 * 1024
/** How far a request's IssueInstant may be from the IdP's clock. */
const MAX_SKEW_MS = 3 * 60 * 1000
const NCNAME = /^[A-Za-z_][A-Za-z0-9._-]{0,255}$/

/** An AuthnRequest the IdP will answer. */
export interface AcceptedAuthnRequest {
  /** The request's ID: the Response's `InResponseTo`. */
  id: string
  sp: SpMetadata
  /** Given back with the Response, as the binding asks. */
  relayState: string | null
}

/** The query's parameters as sent (still percent-encoded), by name; a repeated name is refused. */
function rawParameters(query: string): Map<string, string> {
  const params = new Map<string, string>()
  for (const part of query.split("&")) {
    if (!part) continue
    const eq = part.indexOf("=")
    const name = eq < 0 ? part : part.slice(0, eq)
    if (params.has(name)) throw new SamlIdpRefusal(`the request repeats "${name}"`)
    params.set(name, eq < 0 ? "" : part.slice(eq + 1))
  }
  return params
}

function decoded(raw: string, what: string): string {
  try {
    return decodeURIComponent(raw.replace(/\+/g, " "))
  } catch {
    throw new SamlIdpRefusal(`${what} is not URL-encoded`)
  }
}

function inflate(samlRequest: string): string {
  try {
    return inflateRawSync(Buffer.from(samlRequest, "base64"), { maxOutputLength: MAX_XML_BYTES }).toString("utf8")
  } catch {
    throw new SamlIdpRefusal("SAMLRequest is not a DEFLATE-d request of at most 32 KiB")
  }
}

function checkTimes(request: Element, now: Date): void {
  const instant = Date.parse(request.getAttribute("IssueInstant") ?? "")
  if (!Number.isFinite(instant) || Math.abs(instant - now.getTime()) > MAX_SKEW_MS) throw new SamlIdpRefusal("the request's IssueInstant is missing or not within 3 minutes of now")
}

/**
 * Reads and checks the AuthnRequest in `query` (the URL's query string, without `?`) sent to
 * `ssoUrl`; `spFor(issuer)` answers the metadata of a trusted SP, or null for any other issuer.
 * Throws `SamlIdpRefusal` for anything the IdP must not answer.
 */
export async function readAuthnRequest(query: string, ssoUrl: string, spFor: (issuer: string) => Promise<SpMetadata | null>, now = new Date()): Promise<AcceptedAuthnRequest> {
  if (query.length > MAX_QUERY_CHARS) throw new SamlIdpRefusal("the request is too long")
  const params = rawParameters(query)
  const [samlRequest, sigAlg, signature] = ["SAMLRequest", "SigAlg", "Signature"].map((name) => params.get(name))
  if (!samlRequest || !sigAlg || !signature) throw new SamlIdpRefusal("the request must carry SAMLRequest, SigAlg and Signature (signed HTTP-Redirect binding)")
  if (decoded(sigAlg, "SigAlg") !== RSA_SHA256) throw new SamlIdpRefusal("the request's signature algorithm is not RSA-SHA256")
  const request = parseHostileXml(inflate(decoded(samlRequest, "SAMLRequest")), MAX_XML_BYTES, "the AuthnRequest")
  if (request.namespaceURI !== NS.protocol || request.localName !== "AuthnRequest" || request.getAttribute("Version") !== "2.0") throw new SamlIdpRefusal("SAMLRequest is not a SAML 2.0 AuthnRequest")

  // Who sent it decides which key checks it: the issuer must be an SP this IdP knows.
  const issuer = textOf(onlyChild(request, NS.assertion, "Issuer", "the AuthnRequest"))
  const sp = await spFor(issuer)
  if (!sp) throw new SamlIdpRefusal("the request comes from a service provider this IdP does not know")
  const raw = params.get("RelayState")
  const signed = `SAMLRequest=${samlRequest}${raw === undefined ? "" : `&RelayState=${raw}`}&SigAlg=${sigAlg}`
  const valid = createVerify("RSA-SHA256").update(signed).verify(sp.signingCertificatePem, Buffer.from(decoded(signature, "Signature"), "base64"))
  if (!valid) throw new SamlIdpRefusal("the request's signature does not verify with the service provider's certificate")

  const id = request.getAttribute("ID") ?? ""
  if (!NCNAME.test(id)) throw new SamlIdpRefusal("the request's ID is missing or not an XML name")
  if (request.getAttribute("Destination") !== ssoUrl) throw new SamlIdpRefusal("the request is addressed to another IdP endpoint")
  checkTimes(request, now)
  const acs = request.getAttribute("AssertionConsumerServiceURL")
  if (acs !== null && acs !== sp.acsUrl) throw new SamlIdpRefusal("the request asks for an answer at a URL the service provider's metadata does not list")
  const binding = request.getAttribute("ProtocolBinding")
  if (binding !== null && binding !== BINDING.post) throw new SamlIdpRefusal("the request asks for a binding other than HTTP-POST")
  const relayState = raw === undefined ? null : decoded(raw, "RelayState")
  if (relayState !== null && Buffer.byteLength(relayState) > 80) throw new SamlIdpRefusal("RelayState is longer than 80 bytes")
  return { id, sp, relayState }
}
