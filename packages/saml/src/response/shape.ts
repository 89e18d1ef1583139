
import { refuse } from "../errors.js"
import { allElements, childElements, descendants } from "../xml/dom.js"
import { NS } from "../xml/namespaces.js"

/** Where the one assertion of a Response is: in the clear, or encrypted. */
export type AssertionSlot = { kind: "plain"; element: Element } | { kind: "encrypted"; element: Element }

/**
 * The structural rules that make signature wrapping (XSW1–8) impossible before any signature is checked:
 * every ID/Id/id in the document is unique (a signature reference resolves to one element only), the
 * document holds exactly one Response (the root) and exactly one assertion, which is a direct child of it,
 * and every `ds:Signature` sits directly under the Response or that assertion. A copy of a signed
 * element hidden in `Extensions`, `Advice`, a `ds:Object` or another Response is `ASSERTION_WRAPPED`.
 * `null` when the Response holds no assertion at all (an error answer).
 */
export function locateAssertion(response: Element): AssertionSlot | null {
  requireUniqueIds(response)
  if (descendants(response, NS.protocol, "Response").length > 0) {
    refuse("ASSERTION_WRAPPED", "the Response contains another Response")
  }
  const plain = descendants(response, NS.assertion, "Assertion")
  const encrypted = descendants(response, NS.assertion, "EncryptedAssertion")
  if (plain.length + encrypted.length === 0) {
    // An IdP's error answer carries none; the caller reports its status first.
    requireSignaturesIn(response, [response])
    return null
  }
  if (plain.length + encrypted.length !== 1) {
    refuse("ASSERTION_WRAPPED", "the Response must hold exactly one assertion", {
      assertions: plain.length,
      encryptedAssertions: encrypted.length,
    })
  }
  const slot: AssertionSlot = plain[0] ? { kind: "plain", element: plain[0] } : { kind: "encrypted", element: encrypted[0] as Element }
  if (slot.element.parentNode !== response) refuse("ASSERTION_WRAPPED", "the assertion is not a direct child of the Response")
  requireSignaturesIn(response, [response, slot.element])
  return slot
}

/** The same rules for an assertion that arrived encrypted, now decrypted into a document of its own. */
export function checkDecryptedAssertion(assertion: Element): void {
  requireUniqueIds(assertion)
  if (descendants(assertion, NS.assertion, "Assertion").length > 0) {
    refuse("ASSERTION_WRAPPED", "the decrypted assertion contains another assertion")
  }
  requireSignaturesIn(assertion, [assertion])
}

// xml-crypto resolves a Reference by any attribute whose local name is ID, Id or id, so uniqueness is
// checked over exactly those.
function requireUniqueIds(root: Element): void {
  const seen = new Set<string>()
  for (const el of allElements(root)) {
    for (let i = 0; i < el.attributes.length; i++) {
      const attribute = el.attributes.item(i)
      if (!attribute || !["ID", "Id", "id"].includes(attribute.localName ?? attribute.name)) continue
      if (seen.has(attribute.value)) refuse("ASSERTION_WRAPPED", "two elements share an ID", { id: attribute.value })
      seen.add(attribute.value)
    }
  }
}

function requireSignaturesIn(root: Element, allowedParents: Element[]): void {
  for (const signature of descendants(root, NS.dsig, "Signature")) {
    if (!allowedParents.includes(signature.parentNode as Element)) {
      refuse("ASSERTION_WRAPPED", "a Signature sits outside the Response and assertion it may sign")
    }
  }
  for (const parent of allowedParents) {
    if (childElements(parent, NS.dsig, "Signature").length > 1) refuse("ASSERTION_WRAPPED", "an element carries two Signatures")
  }
}
