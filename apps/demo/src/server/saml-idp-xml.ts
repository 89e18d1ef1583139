/**
 * XML reading for the Demo SAML IdP: what it parses comes from the browser (an AuthnRequest) or from
 * authlib (the SP metadata), and either way is read as hostile: size-limited first, no DTD (the
 * entity expansion attacks need one), a parse error is a refusal, never a best-effort tree.
 */
import { DOMParser } from "@xmldom/xmldom"

export const NS = {
  protocol: "urn:oasis:names:tc:SAML:2.0:protocol",
  assertion: "urn:oasis:names:tc:SAML:2.0:assertion",
  metadata: "urn:oasis:names:tc:SAML:2.0:metadata",
  dsig: "http://www.w3.org/2000/09/xmldsig#",
} as const

export const BINDING = {
  redirect: "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect",
  post: "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST",
} as const

/** Why the IdP refuses a request: the message is shown to the person on the IdP's error page. */
export class SamlIdpRefusal extends Error {
  override readonly name = "SamlIdpRefusal"
}

/** The document element of `xml`, refused when larger than `maxBytes`, holding a DTD or not well-formed. */
export function parseHostileXml(xml: string, maxBytes: number, what: string): Element {
  if (Buffer.byteLength(xml) > maxBytes) throw new SamlIdpRefusal(`${what} is larger than ${maxBytes} bytes`)
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) throw new SamlIdpRefusal(`${what} holds a DTD`)
  const fail = (message: string) => {
    throw new SamlIdpRefusal(`${what} is not well-formed XML (${message.split("\n")[0]})`)
  }
  const doc = new DOMParser({ errorHandler: { warning: () => {}, error: fail, fatalError: fail } }).parseFromString(xml, "text/xml")
  const root = doc.documentElement
  if (!root || doc.doctype) throw new SamlIdpRefusal(`${what} is not an XML document`)
  return root as unknown as Element
}

/** The child elements of `parent` named `localName` in namespace `ns`, in order. */
export function children(parent: Element, ns: string, localName: string): Element[] {
  const found: Element[] = []
  for (let node = parent.firstChild; node; node = node.nextSibling) {
    if (node.nodeType === 1 && (node as Element).namespaceURI === ns && (node as Element).localName === localName) found.push(node as Element)
  }
  return found
}

/** The one child `localName` of `parent`; a refusal when there is none or more than one. */
export function onlyChild(parent: Element, ns: string, localName: string, what: string): Element {
  const found = children(parent, ns, localName)
  if (found.length !== 1) throw new SamlIdpRefusal(`${what} must have exactly one ${localName}`)
  return found[0]!
}

/** The element's text, trimmed (the values the IdP reads are URLs and IDs). */
export const textOf = (el: Element): string => (el.textContent ?? "").trim()
