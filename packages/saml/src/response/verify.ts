
import { hasStrongRsaKey, MIN_RSA_BITS, toCertificatePem } from "../certificates.js"
import { refuse } from "../errors.js"
import { attr, childElements, onlyChild, textOf } from "../xml/dom.js"
import { NS, SAML } from "../xml/namespaces.js"
import { parseUntrustedXml, rootElement } from "../xml/parse.js"
import { readAssertion } from "./assertion.js"
import { decodePostedResponse } from "./decode.js"
import { decryptAssertion } from "./decrypt.js"
import { assertedEmail } from "./email.js"
import { checkInResponseTo } from "./in-response-to.js"
import { type AssertionSlot, checkDecryptedAssertion, locateAssertion } from "./shape.js"
import { verifyEnvelopedSignature } from "./signature.js"

/** Input of {@link verifySamlResponse}. */
export interface VerifySamlResponseOptions {
  /** The `SAMLResponse` form value exactly as posted (base64). */
  samlResponse: string
  /** This SP: its entity ID (the Audience), ACS URL (Destination and Recipient) and private key (decryption). */
  sp: { entityId: string; acsUrl: string; privateKeyPem: string }
  /** The IdP: its entity ID (the Issuer) and signing certificates, the only keys a signature is checked with. */
  idp: { entityId: string; certificates: readonly string[] }
  /** The ID of the AuthnRequest this browser started, or `null` when there is none. */
  expectedRequestId: string | null
  /** Accept a Response with no InResponseTo when `expectedRequestId` is `null`; off unless set to `true`. */
  allowIdpInitiated?: boolean
  /** Require the assertion itself to be signed; `true` unless set. `false` also accepts a signed Response alone. */
  requireSignedAssertion?: boolean
  /** Accept RSA-SHA1 signatures and SHA-1 digests; `false` unless set. */
  allowSha1?: boolean
  /** Accept AES-CBC encrypted assertions (no integrity of their own); `false` unless set: AES-GCM only. */
  allowCbcEncryption?: boolean
  /** Refuse larger responses before decoding or parsing; 256 KiB unless set. */
  maxResponseBytes?: number
  /** Tolerated clock difference with the IdP, 0 to 180 seconds; 60 unless set. */
  clockSkewSeconds?: number
  /** The time to check against; `new Date()` unless set. */
  now?: Date
}

/** An accepted assertion. `assertionId` and `notOnOrAfter` are what a replay store keeps. */
export interface VerifiedSamlAssertion {
  ok: true
  /** The assertion's ID: accept it once until `notOnOrAfter` (replay is the caller's check). */
  assertionId: string
  /** The IdP's subject identifier, read from the signed assertion. */
  nameId: string
  /** The NameID's `Format`, `null` when absent (unspecified). */
  nameIdFormat: string | null
  /** The asserted e-mail address (NameID of format emailAddress, else `email`, `mail` or the WS-Fed claim). */
  email: string | null
  /** Every attribute, by `Name`, with all its values in order. */
  attributes: Record<string, string[]>
  /** The IdP session index (for logout), `null` when absent. */
  sessionIndex: string | null
  /** How the user authenticated at the IdP (e.g. `…:PasswordProtectedTransport`), `null` when absent. */
  authnContextClassRef: string | null
  /** The earliest end of the assertion's validity (Conditions and bearer confirmation). */
  notOnOrAfter: Date
  /** The request this answers, `null` for an allowed IdP-initiated response. */
  inResponseTo: string | null
}

const MAX_SKEW_SECONDS = 180

/**
 * Verify a SAML 2.0 Response posted to the ACS (HTTP-POST binding) and return its assertion's values,
 * or throw a {@link SamlError} whose `code` names the rule that refused it. The README lists every rule
 * and the attack it stops; in short: size before parsing, no DTD, no signature wrapping, only the
 * configured certificates, RSA-SHA256+, Destination/Recipient/Audience/Issuer/InResponseTo/time window
 * checked, values read from the signed bytes only, encrypted assertions decrypted with the SP key.
 */
export async function verifySamlResponse(options: VerifySamlResponseOptions): Promise<VerifiedSamlAssertion> {
  const settings = resolveSettings(options)
  const xml = decodePostedResponse(options.samlResponse, settings.maxBytes)
  const response = rootElement(parseUntrustedXml(xml, "the SAML Response"), NS.protocol, "Response", "the SAML Response")
  const slot = locateAssertion(response)
  const signedResponse = verifyEnvelopedSignature(response, xml, settings.certificates, settings.allowSha1)
  checkResponse(signedResponse?.element ?? response, options)
  if (!slot) refuse("MALFORMED", "the Response holds no assertion")
  const assertion = await signedAssertion(slot, xml, signedResponse?.element ?? null, options.sp.privateKeyPem, settings)
  const values = readAssertion(assertion, {
    spEntityId: options.sp.entityId,
    acsUrl: options.sp.acsUrl,
    idpEntityId: options.idp.entityId,
    expectedRequestId: options.expectedRequestId,
    allowIdpInitiated: settings.allowIdpInitiated,
    clock: settings.clock,
  })
  return { ok: true, ...values, email: assertedEmail(values.nameId, values.nameIdFormat, values.attributes) }
}

type Settings = ReturnType<typeof resolveSettings>

/**
 * The assertion as signed: its own verified signature's bytes, or (with `requireSignedAssertion: false`)
 * the signed Response's copy of it. An encrypted assertion is decrypted first and then held to the same
 * shape and signature rules; an unsigned one is vouched for only by a signed Response, which covered
 * its ciphertext.
 */
async function signedAssertion(
  slot: AssertionSlot,
  xml: string,
  signedResponse: Element | null,
  privateKeyPem: string,
  settings: Settings,
): Promise<Element> {
  const responseVouches = signedResponse !== null && !settings.requireSignedAssertion
  if (slot.kind === "plain") {
    const signed = verifyEnvelopedSignature(slot.element, xml, settings.certificates, settings.allowSha1)
    if (signed) return signed.element
    const copy = responseVouches ? childElements(signedResponse, NS.assertion, "Assertion")[0] : undefined
    if (copy) return copy
  } else {
    const decrypted = await decryptAssertion(slot.element, privateKeyPem, settings.allowCbc)
    const element = parseDecrypted(decrypted)
    checkDecryptedAssertion(element)
    const signed = verifyEnvelopedSignature(element, decrypted, settings.certificates, settings.allowSha1)
    if (signed) return signed.element
    if (responseVouches) return element
  }
  return refuse("SIGNATURE_INVALID", settings.requireSignedAssertion ? "the assertion is not signed" : "neither the Response nor the assertion is signed")
}

function resolveSettings(options: VerifySamlResponseOptions) {
  const skew = options.clockSkewSeconds ?? 60
  if (!Number.isFinite(skew) || skew < 0 || skew > MAX_SKEW_SECONDS) {
    throw new TypeError(`"clockSkewSeconds" must be between 0 and ${MAX_SKEW_SECONDS}`)
  }
  const maxBytes = options.maxResponseBytes ?? 256 * 1024
  if (!Number.isInteger(maxBytes) || maxBytes < 1024) throw new TypeError('"maxResponseBytes" must be an integer of at least 1024')
  if (!options.idp.certificates.length) throw new TypeError('"idp.certificates" must hold at least one certificate')
  if (options.expectedRequestId !== null && typeof options.expectedRequestId !== "string") {
    throw new TypeError('"expectedRequestId" must be a string or null')
  }
  const certificates = options.idp.certificates.map((cert, i) => toCertificatePem(cert, `idp.certificates[${i}]`))
  // A stored connection with a weak key is a refusal the error page can show, not a crash.
  if (!certificates.every(hasStrongRsaKey)) {
    refuse("ALGORITHM_REFUSED", `an IdP certificate's key is not RSA of at least ${MIN_RSA_BITS} bits`)
  }
  return {
    maxBytes,
    certificates,
    allowSha1: options.allowSha1 === true,
    allowCbc: options.allowCbcEncryption === true,
    allowIdpInitiated: options.allowIdpInitiated === true,
    requireSignedAssertion: options.requireSignedAssertion !== false,
    clock: { now: (options.now ?? new Date()).getTime(), skewMs: skew * 1000 },
  }
}

// Response-level rules: Destination is this ACS, Issuer (optional on a Response) is the IdP,
// InResponseTo answers this browser's request, and the status is Success.
function checkResponse(response: Element, options: VerifySamlResponseOptions): void {
  if (attr(response, "Version") !== "2.0") refuse("MALFORMED", "the Response is not SAML 2.0")
  const destination = attr(response, "Destination")
  if (destination !== options.sp.acsUrl) {
    refuse("DESTINATION_MISMATCH", "the Response's Destination is not this ACS URL", { expected: options.sp.acsUrl, received: destination })
  }
  const issuer = onlyChild(response, NS.assertion, "Issuer", () => refuse("MALFORMED", "the Response has two Issuers"))
  if (issuer && textOf(issuer) !== options.idp.entityId) {
    refuse("ISSUER_MISMATCH", "the Response's Issuer is not the IdP", { expected: options.idp.entityId, received: textOf(issuer) })
  }
  checkInResponseTo(attr(response, "InResponseTo"), options.expectedRequestId, options.allowIdpInitiated === true, "the Response")
  const [status] = childElements(response, NS.protocol, "Status")
  const [code] = status ? childElements(status, NS.protocol, "StatusCode") : []
  const value = code ? attr(code, "Value") : null
  if (value !== SAML.success) refuse("STATUS_NOT_SUCCESS", "the IdP did not report success", { status: value })
}

function parseDecrypted(xml: string): Element {
  try {
    return rootElement(parseUntrustedXml(xml, "the decrypted assertion"), NS.assertion, "Assertion", "the decrypted assertion")
  } catch {
    // One code for every failure after decryption: see decryptAssertion.
    return refuse("DECRYPTION_FAILED", "the EncryptedAssertion does not hold an assertion")
  }
}
