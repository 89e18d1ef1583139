import { certificateBody } from "./certificates.js"
import { NS, SAML } from "./xml/namespaces.js"
import { escapeXml } from "./xml/escape.js"

/** Input of {@link serviceProviderMetadata}. */
export interface ServiceProviderMetadataOptions {
  /** The SP entity ID (the capability's default is `{origin}{basePath}/sso/metadata/{connectionId}`). */
  entityId: string
  /** The assertion consumer service URL (HTTP-POST binding). */
  acsUrl: string
  /** The SP certificate (PEM), published for signing and for encryption. */
  certificatePem: string
}

/**
 * The SP's SAML 2.0 metadata: one `SPSSODescriptor` that signs its AuthnRequests and wants signed
 * assertions, its certificate as a `signing` and an `encryption` `KeyDescriptor` (AES-GCM and RSA-OAEP
 * listed first so IdPs that read them choose the authenticated modes), and one HTTP-POST ACS.
 */
export function serviceProviderMetadata(options: ServiceProviderMetadataOptions): string {
  const entityId = escapeXml(requireUrlLike(options.entityId, "entityId"))
  const acsUrl = escapeXml(requireUrlLike(options.acsUrl, "acsUrl"))
  const cert = certificateBody(options.certificatePem)
  const keyInfo = `<ds:KeyInfo xmlns:ds="${NS.dsig}"><ds:X509Data><ds:X509Certificate>${cert}</ds:X509Certificate></ds:X509Data></ds:KeyInfo>`
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<md:EntityDescriptor xmlns:md="${NS.metadata}" entityID="${entityId}">` +
    `<md:SPSSODescriptor AuthnRequestsSigned="true" WantAssertionsSigned="true" protocolSupportEnumeration="${NS.protocol}">` +
    `<md:KeyDescriptor use="signing">${keyInfo}</md:KeyDescriptor>` +
    `<md:KeyDescriptor use="encryption">${keyInfo}` +
    `<md:EncryptionMethod Algorithm="http://www.w3.org/2009/xmlenc11#aes256-gcm"/>` +
    `<md:EncryptionMethod Algorithm="http://www.w3.org/2009/xmlenc11#aes128-gcm"/>` +
    `<md:EncryptionMethod Algorithm="http://www.w3.org/2001/04/xmlenc#rsa-oaep-mgf1p"/>` +
    `</md:KeyDescriptor>` +
    `<md:NameIDFormat>${SAML.emailAddress}</md:NameIDFormat>` +
    `<md:AssertionConsumerService Binding="${SAML.postBinding}" Location="${acsUrl}" index="0" isDefault="true"/>` +
    `</md:SPSSODescriptor></md:EntityDescriptor>\n`
  )
}

/** An `http(s)://` URL or URN, as SAML entity IDs and endpoints are; a `TypeError` naming the input otherwise. */
export function requireUrlLike(value: string, name: string): string {
  if (typeof value !== "string" || value.length === 0 || value.length > 1024) {
    throw new TypeError(`"${name}" must be a non-empty string of at most 1024 characters`)
  }
  if (value.startsWith("urn:")) return value
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new TypeError(`"${name}" must be an absolute URL or a URN`)
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new TypeError(`"${name}" must be an http(s) URL`)
  return value
}
