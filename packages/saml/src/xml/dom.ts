

const ELEMENT_NODE = 1

/** The element children of `parent` with this namespace and local name (prefixes are the sender's choice). */
export function childElements(parent: Node, ns: string, localName: string): Element[] {
  const found: Element[] = []
  for (let node = parent.firstChild; node; node = node.nextSibling) {
    if (node.nodeType !== ELEMENT_NODE) continue
    const el = node as Element
    if (el.namespaceURI === ns && el.localName === localName) found.push(el)
  }
  return found
}

/** The only such child, `null` when there is none; more than one is reported through `onMany`. */
export function onlyChild(parent: Node, ns: string, localName: string, onMany: () => never): Element | null {
  const found = childElements(parent, ns, localName)
  if (found.length > 1) onMany()
  return found[0] ?? null
}

/** Every element in the subtree (document order) with this namespace and local name. */
export function descendants(root: Node, ns: string, localName: string): Element[] {
  const found: Element[] = []
  const walk = (node: Node): void => {
    for (let child = node.firstChild; child; child = child.nextSibling) {
      if (child.nodeType !== ELEMENT_NODE) continue
      const el = child as Element
      if (el.namespaceURI === ns && el.localName === localName) found.push(el)
      walk(el)
    }
  }
  walk(root)
  return found
}

/** Every element in the subtree, the root included. */
export function allElements(root: Element): Element[] {
  const found: Element[] = [root]
  const walk = (node: Node): void => {
    for (let child = node.firstChild; child; child = child.nextSibling) {
      if (child.nodeType !== ELEMENT_NODE) continue
      found.push(child as Element)
      walk(child)
    }
  }
  walk(root)
  return found
}

/**
 * The element's text: every text and CDATA descendant joined, comments skipped, trimmed. Reading only the
 * first text node is what let `user@evil.com<!---->.victim.com` read as `user@evil.com` in other SPs.
 */
export function textOf(el: Element): string {
  return (el.textContent ?? "").trim()
}

/** An attribute's value, `null` when absent (xmldom answers `""` for both). */
export function attr(el: Element, name: string): string | null {
  return el.hasAttribute(name) ? el.getAttribute(name) : null
}
