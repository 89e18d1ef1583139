import { DOMParser } from "@xmldom/xmldom"
import { refuse } from "../errors.js"

// Any DTD is refused: SAML never needs one, and DTDs carry entity expansion (billion laughs), external
// entities (XXE) and parameter entities. The text check runs before the parser sees a byte; the node check
// after parsing catches a declaration the text check could not see.
const DTD_MARKUP = /<!\s*(DOCTYPE|ENTITY|ELEMENT|ATTLIST|NOTATION)/i

/**
 * Parse untrusted XML strictly: any DTD markup is `DTD_REFUSED`; any parser warning or error is `MALFORMED`
 * (a lenient parser and a signer that disagree about the same bytes is how wrapping attacks start).
 * Callers enforce the size limit before calling.
 */
export function parseUntrustedXml(xml: string, what: string): Document {
  if (DTD_MARKUP.test(xml)) refuse("DTD_REFUSED", `${what} contains a DTD (DOCTYPE or ENTITY declaration)`)
  const fail = (level: string) => (message: string) =>
    refuse("MALFORMED", `${what} is not well-formed XML`, { level, parser: String(message).slice(0, 200) })
  let doc: Document
  try {
    doc = new DOMParser({
      errorHandler: { warning: fail("warning"), error: fail("error"), fatalError: fail("fatalError") },
    }).parseFromString(xml, "text/xml")
  } catch (error) {
    if (error instanceof Error && error.name === "SamlError") throw error
    refuse("MALFORMED", `${what} is not well-formed XML`, { parser: String(error).slice(0, 200) })
  }
  for (let node = doc.firstChild; node; node = node.nextSibling) {
    if (node.nodeType === 10) refuse("DTD_REFUSED", `${what} contains a DOCTYPE`)
  }
  if (!doc.documentElement) refuse("MALFORMED", `${what} has no root element`)
  return doc
}

/** The document's root element, checked to be `{ns}localName`. */
export function rootElement(doc: Document, ns: string, localName: string, what: string): Element {
  const root = doc.documentElement
  if (!root || root.namespaceURI !== ns || root.localName !== localName) {
    refuse("MALFORMED", `${what} must be a ${localName} element`, {
      expected: `{${ns}}${localName}`,
      received: root ? `{${root.namespaceURI ?? ""}}${root.localName}` : null,
    })
  }
  return root
}
