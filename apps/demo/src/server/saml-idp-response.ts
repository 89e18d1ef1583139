/**
 * The Demo SAML IdP's documents: its metadata, and the Response it posts to the SP's ACS. The
 * Response answers one AuthnRequest (`InResponseTo`), is addressed to the ACS (`Destination`, the
 * bearer confirmation's `Recipient`) and to the SP (`Audience`), valid for 5 minutes, and its
 * Assertion is signed with the IdP's key (enveloped signature, RSA-SHA256, SHA-256 digest,
 * exclusive C14N), as the SP requires (`WantAssertionsSigned`).
 */
import { randomBytes } from "node:crypto"
import { SignedXml } from "xml-crypto"
import { escape } from "./escape"
import { BINDING, NS } from "./saml-idp-xml"

const ALGORITHMS = {
  rsaSha256: "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256",
  sha256: "http://www.w3.org/2001/04/xmlenc#sha256",
  excC14n: "http://www.w3.org/2001/10/xml-exc-c14n#",
  enveloped: "http://www.w3.org/2000/09/xmldsig#enveloped-signature",
} as const
const EMAIL_FORMAT = "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress"
/** REFEDS MFA: authlib counts it as two factors (`amr: ["fed", "mfa"]`). */
export const MFA_CONTEXT = "https://refeds.org/profile/mfa"
export const PASSWORD_CONTEXT = "urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport"
const VALID_MS = 5 * 60 * 1000

/** The IdP's identity: entity ID, HTTP-Redirect SSO URL, and its signing key pair (PEM). */
export interface SamlIdpIdentity {
  entityId: string
  ssoUrl: string
  privateKeyPem: string
  certificatePem: string
}

/** Who the IdP vouches for, and to whom. */
export interface ResponseInput {
  idp: SamlIdpIdentity
  sp: { entityId: string; acsUrl: string }
  inResponseTo: string
  person: { email: string; name: string; mfa: boolean }
  now?: Date
}

const certificateBody = (pem: string) => pem.replace(/-----(BEGIN|END) CERTIFICATE-----/g, "").replace(/\s+/g, "")
const newId = () => `_${randomBytes(20).toString("hex")}`

/** The IdP's SAML 2.0 metadata: signing certificate, e-mail NameIDs, the HTTP-Redirect SSO service; signed requests wanted. */
export function idpMetadata(idp: SamlIdpIdentity): string {
  return (
    `<?xml version="1.0" encoding="UTF-8"?>\n` +
    `<md:EntityDescriptor xmlns:md="${NS.metadata}" entityID="${escape(idp.entityId)}">` +
    `<md:IDPSSODescriptor WantAuthnRequestsSigned="true" protocolSupportEnumeration="${NS.protocol}">` +
    `<md:KeyDescriptor use="signing"><ds:KeyInfo xmlns:ds="${NS.dsig}"><ds:X509Data><ds:X509Certificate>${certificateBody(idp.certificatePem)}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>` +
    `<md:NameIDFormat>${EMAIL_FORMAT}</md:NameIDFormat>` +
    `<md:SingleSignOnService Binding="${BINDING.redirect}" Location="${escape(idp.ssoUrl)}"/>` +
    `</md:IDPSSODescriptor></md:EntityDescriptor>\n`
  )
}

function assertionXml(input: ResponseInput, id: string, now: Date): string {
  const { idp, sp, person } = input
  const at = (ms: number) => new Date(now.getTime() + ms).toISOString()
  const attribute = (name: string, value: string) => `<saml:Attribute Name="${name}"><saml:AttributeValue>${escape(value)}</saml:AttributeValue></saml:Attribute>`
  return (
    `<saml:Assertion xmlns:saml="${NS.assertion}" ID="${id}" Version="2.0" IssueInstant="${at(0)}">` +
    `<saml:Issuer>${escape(idp.entityId)}</saml:Issuer>` +
    `<saml:Subject><saml:NameID Format="${EMAIL_FORMAT}">${escape(person.email)}</saml:NameID>` +
    `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer">` +
    `<saml:SubjectConfirmationData InResponseTo="${escape(input.inResponseTo)}" Recipient="${escape(sp.acsUrl)}" NotOnOrAfter="${at(VALID_MS)}"/>` +
    `</saml:SubjectConfirmation></saml:Subject>` +
    `<saml:Conditions NotBefore="${at(-30_000)}" NotOnOrAfter="${at(VALID_MS)}"><saml:AudienceRestriction><saml:Audience>${escape(sp.entityId)}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
    `<saml:AuthnStatement AuthnInstant="${at(0)}" SessionIndex="${newId()}" SessionNotOnOrAfter="${at(8 * 3600_000)}">` +
    `<saml:AuthnContext><saml:AuthnContextClassRef>${person.mfa ? MFA_CONTEXT : PASSWORD_CONTEXT}</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>` +
    `<saml:AttributeStatement>${attribute("email", person.email)}${attribute("displayName", person.name)}</saml:AttributeStatement>` +
    `</saml:Assertion>`
  )
}

/** Signs the assertion (its Signature placed after its Issuer, as the schema orders it). */
function signAssertion(responseXml: string, idp: SamlIdpIdentity): string {
  const signer = new SignedXml({ privateKey: idp.privateKeyPem, publicCert: idp.certificatePem, signatureAlgorithm: ALGORITHMS.rsaSha256, canonicalizationAlgorithm: ALGORITHMS.excC14n })
  const assertion = `//*[local-name(.)='Assertion' and namespace-uri(.)='${NS.assertion}']`
  signer.addReference({ xpath: assertion, digestAlgorithm: ALGORITHMS.sha256, transforms: [ALGORITHMS.enveloped, ALGORITHMS.excC14n] })
  signer.computeSignature(responseXml, { prefix: "ds", location: { reference: `${assertion}/*[local-name(.)='Issuer']`, action: "after" } })
  return signer.getSignedXml()
}

/** The signed Response for `input`, base64-encoded as the HTTP-POST binding's `SAMLResponse` carries it. */
export function signedResponse(input: ResponseInput): string {
  const now = input.now ?? new Date()
  const response =
    `<samlp:Response xmlns:samlp="${NS.protocol}" xmlns:saml="${NS.assertion}" ID="${newId()}" Version="2.0" IssueInstant="${now.toISOString()}"` +
    ` Destination="${escape(input.sp.acsUrl)}" InResponseTo="${escape(input.inResponseTo)}">` +
    `<saml:Issuer>${escape(input.idp.entityId)}</saml:Issuer>` +
    `<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>` +
    assertionXml(input, newId(), now) +
    `</samlp:Response>`
  return Buffer.from(signAssertion(response, input.idp), "utf8").toString("base64")
}
