import { DOMParser, XMLSerializer } from "@xmldom/xmldom"

// Small DOM edits for building wrapping attacks from really signed messages.

export function parse(xml: string): Document {
  return new DOMParser().parseFromString(xml, "text/xml") as unknown as Document
}

export function serialize(doc: Document | Element): string {
  return new XMLSerializer().serializeToString(doc as never)
}

export function first(root: Document | Element, localName: string): Element {
  const found = (root as Element).getElementsByTagNameNS("*", localName)[0]
  if (!found) throw new Error(`no ${localName}`)
  return found
}

export function childNamed(parent: Element, localName: string): Element {
  for (let n = parent.firstChild; n; n = n.nextSibling) {
    if (n.nodeType === 1 && (n as Element).localName === localName) return n as Element
  }
  throw new Error(`no child ${localName}`)
}

/** Import `xml`'s root into `doc` (a detached copy ready to insert). */
export function importXml(doc: Document, xml: string): Element {
  return doc.importNode(parse(xml).documentElement as Element, true) as Element
}
