import { randomBytes } from "node:crypto"
import { SignedXml } from "xml-crypto"
import { encrypt } from "xml-encryption"

// A test IdP: builds SAML Responses the way real IdPs lay them out and signs them with xml-crypto, so the
// hostile corpus is made from real signatures, not from fixtures that could drift from the verifier.

export const SP_ENTITY_ID = "https://app.example/auth/sso/metadata/conn_1"
export const ACS_URL = "https://app.example/auth/sso/acs/conn_1"
export const IDP_ENTITY_ID = "https://idp.example/saml2/idp/metadata.php"
export const REQUEST_ID = "_req0123456789abcdef"
export const NOW = new Date("2026-11-28T12:00:00.000Z")

const EMAIL_FORMAT = "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress"

export interface ResponseFields {
  responseId: string
  assertionId: string
  destination: string | null
  responseIssuer: string | null
  assertionIssuer: string
  inResponseTo: string | null
  confirmationInResponseTo: string | null
  recipient: string | null
  audience: string
  notBefore: Date
  notOnOrAfter: Date
  confirmationNotOnOrAfter: Date
  nameId: string
  nameIdFormat: string
  attributes: Record<string, string[]>
  status: string
  authnContextClassRef: string
}

export function fields(over: Partial<ResponseFields> = {}): ResponseFields {
  return {
    responseId: `_r${randomBytes(8).toString("hex")}`,
    assertionId: `_a${randomBytes(8).toString("hex")}`,
    destination: ACS_URL,
    responseIssuer: IDP_ENTITY_ID,
    assertionIssuer: IDP_ENTITY_ID,
    inResponseTo: REQUEST_ID,
    confirmationInResponseTo: over.inResponseTo !== undefined ? over.inResponseTo : REQUEST_ID,
    recipient: ACS_URL,
    audience: SP_ENTITY_ID,
    notBefore: new Date(NOW.getTime() - 30_000),
    notOnOrAfter: new Date(NOW.getTime() + 300_000),
    confirmationNotOnOrAfter: new Date(NOW.getTime() + 300_000),
    nameId: "alice@acme.test",
    nameIdFormat: EMAIL_FORMAT,
    attributes: { mail: ["alice@acme.test"], groups: ["staff", "admins"] },
    status: "urn:oasis:names:tc:SAML:2.0:status:Success",
    authnContextClassRef: "urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport",
    ...over,
  }
}

const optAttr = (name: string, value: string | null) => (value === null ? "" : ` ${name}="${value}"`)

export function assertionXml(f: ResponseFields, raw?: { nameIdXml?: string }): string {
  const attributes = Object.entries(f.attributes)
    .map(([name, values]) => `<saml:Attribute Name="${name}">${values.map((v) => `<saml:AttributeValue>${v}</saml:AttributeValue>`).join("")}</saml:Attribute>`)
    .join("")
  return (
    `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${f.assertionId}" Version="2.0" IssueInstant="${NOW.toISOString()}">` +
    `<saml:Issuer>${f.assertionIssuer}</saml:Issuer>` +
    `<saml:Subject><saml:NameID Format="${f.nameIdFormat}">${raw?.nameIdXml ?? f.nameId}</saml:NameID>` +
    `<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData` +
    `${optAttr("InResponseTo", f.confirmationInResponseTo)}${optAttr("Recipient", f.recipient)} NotOnOrAfter="${f.confirmationNotOnOrAfter.toISOString()}"/>` +
    `</saml:SubjectConfirmation></saml:Subject>` +
    `<saml:Conditions NotBefore="${f.notBefore.toISOString()}" NotOnOrAfter="${f.notOnOrAfter.toISOString()}">` +
    `<saml:AudienceRestriction><saml:Audience>${f.audience}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
    `<saml:AuthnStatement AuthnInstant="${NOW.toISOString()}" SessionIndex="_sess1"><saml:AuthnContext>` +
    `<saml:AuthnContextClassRef>${f.authnContextClassRef}</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>` +
    `<saml:AttributeStatement>${attributes}</saml:AttributeStatement>` +
    `</saml:Assertion>`
  )
}

/** A Response around `inner` (an assertion, signed or not, or an EncryptedAssertion). */
export function responseXml(f: ResponseFields, inner: string, extra = ""): string {
  return (
    `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion"` +
    ` ID="${f.responseId}" Version="2.0" IssueInstant="${NOW.toISOString()}"${optAttr("Destination", f.destination)}${optAttr("InResponseTo", f.inResponseTo)}>` +
    (f.responseIssuer === null ? "" : `<saml:Issuer>${f.responseIssuer}</saml:Issuer>`) +
    extra +
    `<samlp:Status><samlp:StatusCode Value="${f.status}"/></samlp:Status>` +
    inner +
    `</samlp:Response>`
  )
}

export interface SignOptions {
  privateKeyPem: string
  certificatePem: string
  sha1?: boolean
}

/** Sign the element whose local name is `localName` (the first one), placing the signature after its Issuer. */
export function sign(xml: string, localName: "Assertion" | "Response", key: SignOptions): string {
  const signer = new SignedXml({
    privateKey: key.privateKeyPem,
    publicCert: key.certificatePem,
    signatureAlgorithm: key.sha1 ? "http://www.w3.org/2000/09/xmldsig#rsa-sha1" : "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256",
    canonicalizationAlgorithm: "http://www.w3.org/2001/10/xml-exc-c14n#",
  })
  const target = `(//*[local-name(.)='${localName}'])[1]`
  signer.addReference({
    xpath: target,
    digestAlgorithm: key.sha1 ? "http://www.w3.org/2000/09/xmldsig#sha1" : "http://www.w3.org/2001/04/xmlenc#sha256",
    transforms: ["http://www.w3.org/2000/09/xmldsig#enveloped-signature", "http://www.w3.org/2001/10/xml-exc-c14n#"],
  })
  signer.computeSignature(xml, { prefix: "ds", location: { reference: `${target}/*[local-name(.)='Issuer']`, action: "after" } })
  return signer.getSignedXml()
}

/** Encrypt an assertion for the SP (AES-256-GCM, RSA-OAEP) the way IdPs that read SP metadata do. */
export function encryptFor(assertion: string, spCertificatePem: string, cbc = false): Promise<string> {
  return new Promise((resolve, reject) =>
    encrypt(
      assertion,
      {
        rsa_pub: spCertificatePem,
        pem: spCertificatePem,
        encryptionAlgorithm: cbc ? "http://www.w3.org/2001/04/xmlenc#aes256-cbc" : "http://www.w3.org/2009/xmlenc11#aes256-gcm",
        keyEncryptionAlgorithm: "http://www.w3.org/2001/04/xmlenc#rsa-oaep-mgf1p",
        disallowEncryptionWithInsecureAlgorithm: false,
        warnInsecureAlgorithm: false,
      },
      (error, result) => (error ? reject(error) : resolve(`<saml:EncryptedAssertion>${result}</saml:EncryptedAssertion>`)),
    ),
  )
}

export const b64 = (xml: string) => Buffer.from(xml).toString("base64")
