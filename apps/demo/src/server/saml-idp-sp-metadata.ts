/**
 * What the Demo SAML IdP trusts about the service provider: its SAML metadata as authlib publishes it
 * (`GET {basePath}/sso/metadata/{connectionId}`): the entity ID, the HTTP-POST assertion consumer
 * service (where answers go, whatever a request asks) and the signing certificate (the only key an
 * AuthnRequest's signature is checked with).
 */
import { X509Certificate } from "node:crypto"
import { BINDING, NS, SamlIdpRefusal, children, onlyChild, parseHostileXml, textOf } from "./saml-idp-xml"

/** A service provider as its metadata describes it. */
export interface SpMetadata {
  entityId: string
  acsUrl: string
  /** PEM. */
  signingCertificatePem: string
}

const MAX_METADATA_BYTES = 64 * 1024

function pemOf(base64: string): string {
  const body = base64.replace(/\s+/g, "")
  const pem = `-----BEGIN CERTIFICATE-----\n${body.replace(/.{1,64}/g, "$&\n")}-----END CERTIFICATE-----\n`
  try {
    new X509Certificate(pem)
  } catch {
    throw new SamlIdpRefusal("the SP metadata's signing certificate is not a certificate")
  }
  return pem
}

/** Reads SP metadata (one `EntityDescriptor` with one `SPSSODescriptor`). */
export function readSpMetadata(xml: string): SpMetadata {
  const entity = parseHostileXml(xml, MAX_METADATA_BYTES, "the SP metadata")
  if (entity.namespaceURI !== NS.metadata || entity.localName !== "EntityDescriptor") throw new SamlIdpRefusal("the SP metadata is not an EntityDescriptor")
  const entityId = entity.getAttribute("entityID") ?? ""
  const sp = onlyChild(entity, NS.metadata, "SPSSODescriptor", "the SP metadata")
  const acs = children(sp, NS.metadata, "AssertionConsumerService").find((el) => el.getAttribute("Binding") === BINDING.post)
  const signing = children(sp, NS.metadata, "KeyDescriptor").find((el) => (el.getAttribute("use") ?? "signing") === "signing")
  if (!entityId || !acs?.getAttribute("Location") || !signing) throw new SamlIdpRefusal("the SP metadata lacks an entity ID, an HTTP-POST ACS or a signing key")
  const keyInfo = onlyChild(signing, NS.dsig, "KeyInfo", "the SP's signing KeyDescriptor")
  const certificate = onlyChild(onlyChild(keyInfo, NS.dsig, "X509Data", "the SP's KeyInfo"), NS.dsig, "X509Certificate", "the SP's X509Data")
  return { entityId, acsUrl: acs.getAttribute("Location")!, signingCertificatePem: pemOf(textOf(certificate)) }
}
