
import { refuse } from "../errors.js"
import { attr, childElements, onlyChild, textOf } from "../xml/dom.js"
import { NS, SAML } from "../xml/namespaces.js"
import { checkInResponseTo } from "./in-response-to.js"
import { type Clock, requireStarted, requireUnexpired, timeAttr } from "./time.js"

/** What the assertion is checked against. */
export interface AssertionExpectations {
  spEntityId: string
  acsUrl: string
  idpEntityId: string
  expectedRequestId: string | null
  allowIdpInitiated: boolean
  clock: Clock
}

/** The values read from a signed, checked assertion. */
export interface AssertionValues {
  assertionId: string
  nameId: string
  nameIdFormat: string | null
  sessionIndex: string | null
  authnContextClassRef: string | null
  notOnOrAfter: Date
  inResponseTo: string | null
  attributes: Record<string, string[]>
}

/**
 * Check a signed assertion (the element as signed, never the received one) against the SP, the IdP and
 * the clock, and read its values: Issuer, Conditions (time window and every AudienceRestriction), one
 * bearer SubjectConfirmation (Recipient, time window, InResponseTo), the NameID and the first
 * AuthnStatement.
 */
export function readAssertion(assertion: Element, expect: AssertionExpectations): AssertionValues {
  const many = (name: string) => (): never => refuse("MALFORMED", `the assertion has more than one ${name}`)
  if (attr(assertion, "Version") !== "2.0") refuse("MALFORMED", "the assertion is not SAML 2.0")
  const assertionId = attr(assertion, "ID") ?? refuse("MALFORMED", "the assertion has no ID")
  const issuer = onlyChild(assertion, NS.assertion, "Issuer", many("Issuer"))
  if (!issuer || textOf(issuer) !== expect.idpEntityId) {
    refuse("ISSUER_MISMATCH", "the assertion's Issuer is not the IdP", { expected: expect.idpEntityId, received: issuer ? textOf(issuer) : null })
  }
  const conditionsEnd = checkConditions(onlyChild(assertion, NS.assertion, "Conditions", many("Conditions")), expect)
  const subject = onlyChild(assertion, NS.assertion, "Subject", many("Subject")) ?? refuse("MALFORMED", "the assertion has no Subject")
  const confirmation = checkBearerConfirmation(subject, expect)
  const nameIdEl = onlyChild(subject, NS.assertion, "NameID", many("NameID"))
  if (!nameIdEl) refuse("MALFORMED", "the Subject has no NameID (an EncryptedID or BaseID is not supported)")
  const nameId = textOf(nameIdEl)
  if (nameId === "") refuse("MALFORMED", "the NameID is empty")
  const authn = readAuthnStatement(assertion, expect.clock)
  return {
    assertionId,
    nameId,
    nameIdFormat: attr(nameIdEl, "Format"),
    ...authn,
    notOnOrAfter: new Date(Math.min(confirmation.notOnOrAfter, conditionsEnd ?? Number.POSITIVE_INFINITY)),
    inResponseTo: confirmation.inResponseTo,
    attributes: readAttributes(assertion),
  }
}

function checkConditions(conditions: Element | null, expect: AssertionExpectations): number | null {
  if (!conditions) refuse("AUDIENCE_MISMATCH", "the assertion has no Conditions, so no Audience")
  requireStarted(timeAttr(conditions, "NotBefore"), expect.clock, "the assertion")
  const notOnOrAfter = timeAttr(conditions, "NotOnOrAfter")
  requireUnexpired(notOnOrAfter, expect.clock, "the assertion")
  const restrictions = childElements(conditions, NS.assertion, "AudienceRestriction")
  // Each AudienceRestriction must name this SP (SAML core §2.5.1.4: they are ANDed).
  const allNameUs = restrictions.every((restriction) =>
    childElements(restriction, NS.assertion, "Audience").some((audience) => textOf(audience) === expect.spEntityId),
  )
  if (restrictions.length === 0 || !allNameUs) {
    refuse("AUDIENCE_MISMATCH", "the assertion is not addressed to this SP", { expected: expect.spEntityId })
  }
  return notOnOrAfter
}

function checkBearerConfirmation(subject: Element, expect: AssertionExpectations): { notOnOrAfter: number; inResponseTo: string | null } {
  const bearers = childElements(subject, NS.assertion, "SubjectConfirmation").filter((el) => attr(el, "Method") === SAML.bearer)
  if (bearers.length !== 1) refuse("MALFORMED", "the Subject must have exactly one bearer SubjectConfirmation", { found: bearers.length })
  const [data, ...more] = childElements(bearers[0] as Element, NS.assertion, "SubjectConfirmationData")
  if (!data || more.length > 0) refuse("MALFORMED", "the bearer SubjectConfirmation must have one SubjectConfirmationData")
  const recipient = attr(data, "Recipient")
  if (recipient !== expect.acsUrl) {
    refuse("RECIPIENT_MISMATCH", "the assertion's Recipient is not this ACS URL", { expected: expect.acsUrl, received: recipient })
  }
  requireStarted(timeAttr(data, "NotBefore"), expect.clock, "the subject confirmation")
  const notOnOrAfter = timeAttr(data, "NotOnOrAfter") ?? refuse("MALFORMED", "the SubjectConfirmationData has no NotOnOrAfter")
  requireUnexpired(notOnOrAfter, expect.clock, "the subject confirmation")
  const inResponseTo = attr(data, "InResponseTo")
  checkInResponseTo(inResponseTo, expect.expectedRequestId, expect.allowIdpInitiated, "the assertion")
  return { notOnOrAfter, inResponseTo }
}

function readAuthnStatement(assertion: Element, clock: Clock): Pick<AssertionValues, "sessionIndex" | "authnContextClassRef"> {
  const [statement] = childElements(assertion, NS.assertion, "AuthnStatement")
  if (!statement) refuse("MALFORMED", "the assertion has no AuthnStatement")
  requireUnexpired(timeAttr(statement, "SessionNotOnOrAfter"), clock, "the IdP session")
  const [context] = childElements(statement, NS.assertion, "AuthnContext")
  const [classRef] = context ? childElements(context, NS.assertion, "AuthnContextClassRef") : []
  return { sessionIndex: attr(statement, "SessionIndex"), authnContextClassRef: classRef ? textOf(classRef) : null }
}

function readAttributes(assertion: Element): Record<string, string[]> {
  const values = new Map<string, string[]>()
  for (const statement of childElements(assertion, NS.assertion, "AttributeStatement")) {
    for (const attribute of childElements(statement, NS.assertion, "Attribute")) {
      const name = attr(attribute, "Name")
      if (!name) continue
      const list = values.get(name) ?? []
      for (const value of childElements(attribute, NS.assertion, "AttributeValue")) list.push(textOf(value))
      values.set(name, list)
    }
  }
  // fromEntries defines own properties, so a "__proto__" attribute name stays a plain key.
  return Object.fromEntries(values)
}
