import { SAML } from "../xml/namespaces.js"

/** The attribute names an e-mail address is read from when the NameID is not of format emailAddress, in order. */
export const EMAIL_ATTRIBUTES = [
  "email",
  "mail",
  "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress",
  // `mail` under the URI name format (eduPerson/SimpleSAMLphp's name2oid, Shibboleth).
  "urn:oid:0.9.2342.19200300.100.1.3",
] as const

const ADDRESS = /^[^\s@]+@[^\s@]+$/

/** The asserted address: the NameID when its format is emailAddress, else the first e-mail attribute. */
export function assertedEmail(nameId: string, nameIdFormat: string | null, attributes: Record<string, string[]>): string | null {
  if (nameIdFormat === SAML.emailAddress) return ADDRESS.test(nameId) ? nameId : null
  for (const name of EMAIL_ATTRIBUTES) {
    const value = Object.hasOwn(attributes, name) ? attributes[name]?.[0] : undefined
    if (value !== undefined && ADDRESS.test(value)) return value
  }
  return null
}
