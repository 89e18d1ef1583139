import { createSign, randomBytes } from "node:crypto"
import { deflateRawSync } from "node:zlib"
import { requireUrlLike } from "./sp-metadata.js"
import { NS } from "./xml/namespaces.js"
import { escapeXml } from "./xml/escape.js"

/** Input of {@link createAuthnRequest}. */
export interface AuthnRequestOptions {
  /** This SP: its entity ID and the private key (PEM) that signs the request. */
  sp: { entityId: string; privateKeyPem: string }
  /** The IdP's HTTP-Redirect single sign-on URL (from {@link parseIdpMetadata} or the admin). */
  idp: { ssoRedirectUrl: string }
  /** Where the IdP posts its Response (HTTP-POST binding). */
  acsUrl: string
  /** The request ID (an XML NCName); a random `_` + 40 hex digits unless set. Keep it: the Response must answer it. */
  requestId?: string
  /** Opaque state the IdP returns with the Response, at most 80 bytes (SAML bindings §3.4.3). */
  relayState?: string
  /** Ask the IdP to authenticate the user again even with a session there (`ForceAuthn`); off unless set. */
  forceAuthn?: boolean
  /**
   * Ask for these authentication context classes (`RequestedAuthnContext`, comparison `exact`), e.g. an
   * IdP's MFA class when an organization requires it. The answer's `authnContextClassRef` says what
   * the IdP did; checking it is the caller's rule, an IdP may ignore the request.
   */
  authnContextClassRefs?: readonly string[]
  /** The `IssueInstant`; `new Date()` unless set. */
  now?: Date
}

/** A signed AuthnRequest ready to send: redirect the browser to `url`, and remember `id` for the Response. */
export interface AuthnRequest {
  id: string
  url: string
}

const RSA_SHA256_URI = "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256"
const NCNAME = /^[A-Za-z_][A-Za-z0-9._-]{0,255}$/

/**
 * Build an AuthnRequest for the HTTP-Redirect binding (SAML bindings §3.4): the XML is DEFLATE-d (raw),
 * base64-d and URL-encoded into `SAMLRequest`; `SigAlg` is RSA-SHA256, and `Signature` is the SP key's
 * signature over the exact query string `SAMLRequest=…&RelayState=…&SigAlg=…` as sent (no XML signature:
 * the binding forbids one inside a deflated request).
 */
export function createAuthnRequest(options: AuthnRequestOptions): AuthnRequest {
  const id = options.requestId ?? `_${randomBytes(20).toString("hex")}`
  if (!NCNAME.test(id)) throw new TypeError('"requestId" must be an XML NCName (a letter or "_" first)')
  const destination = requireUrlLike(options.idp.ssoRedirectUrl, "idp.ssoRedirectUrl")
  if (options.relayState !== undefined && Buffer.byteLength(options.relayState) > 80) {
    throw new TypeError('"relayState" must be at most 80 bytes')
  }
  const xml = authnRequestXml({
    id,
    issueInstant: (options.now ?? new Date()).toISOString(),
    destination,
    acsUrl: requireUrlLike(options.acsUrl, "acsUrl"),
    issuer: requireUrlLike(options.sp.entityId, "sp.entityId"),
    forceAuthn: options.forceAuthn === true,
    classRefs: (options.authnContextClassRefs ?? []).map((ref) => requireUrlLike(ref, "authnContextClassRefs")),
  })
  let query = `SAMLRequest=${encodeURIComponent(deflateRawSync(xml).toString("base64"))}`
  if (options.relayState !== undefined) query += `&RelayState=${encodeURIComponent(options.relayState)}`
  query += `&SigAlg=${encodeURIComponent(RSA_SHA256_URI)}`
  const signature = createSign("RSA-SHA256").update(query).sign(options.sp.privateKeyPem, "base64")
  query += `&Signature=${encodeURIComponent(signature)}`
  const url = new URL(destination)
  return { id, url: `${url.origin}${url.pathname}${url.search ? `${url.search}&` : "?"}${query}` }
}

interface AuthnRequestFields {
  id: string
  issueInstant: string
  destination: string
  acsUrl: string
  issuer: string
  forceAuthn: boolean
  classRefs: string[]
}

function authnRequestXml(v: AuthnRequestFields): string {
  const context = v.classRefs.length
    ? `<samlp:RequestedAuthnContext Comparison="exact">${v.classRefs.map((ref) => `<saml:AuthnContextClassRef>${escapeXml(ref)}</saml:AuthnContextClassRef>`).join("")}</samlp:RequestedAuthnContext>`
    : ""
  return (
    `<samlp:AuthnRequest xmlns:samlp="${NS.protocol}" xmlns:saml="${NS.assertion}"` +
    ` ID="${v.id}" Version="2.0" IssueInstant="${v.issueInstant}" Destination="${escapeXml(v.destination)}"` +
    (v.forceAuthn ? ` ForceAuthn="true"` : "") +
    ` AssertionConsumerServiceURL="${escapeXml(v.acsUrl)}" ProtocolBinding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST">` +
    `<saml:Issuer>${escapeXml(v.issuer)}</saml:Issuer>` +
    `<samlp:NameIDPolicy AllowCreate="true"/>` +
    context +
    `</samlp:AuthnRequest>`
  )
}
