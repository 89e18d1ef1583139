/**
 * The Demo SAML IdP's own rules, without a browser: it answers only an AuthnRequest its SP signed
 * (RSA-SHA256, checked with the SP metadata's certificate) for this IdP endpoint, recent, well-formed
 * and without a DTD, asking for the metadata's ACS; and the Response it signs is one authlib's SAML
 * engine accepts, with the person's address and their authentication context.
 */
import { createSign } from "node:crypto"
import { deflateRawSync } from "node:zlib"
import { beforeAll, describe, expect, it } from "vitest"
import { createAuthnRequest, generateServiceProviderKeys, verifySamlResponse, type ServiceProviderKeys } from "@authlib/saml"
import { readAuthnRequest } from "../src/server/saml-idp-request.js"
import { MFA_CONTEXT, PASSWORD_CONTEXT, signedResponse } from "../src/server/saml-idp-response.js"
import type { SpMetadata } from "../src/server/saml-idp-sp-metadata.js"

const SSO_URL = "http://127.0.0.1:4100/demo-saml-idp/sso"
const RSA_SHA256 = "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256"
let spKeys: ServiceProviderKeys
let otherKeys: ServiceProviderKeys
let sp: SpMetadata
const spFor = async (issuer: string) => (issuer === sp.entityId ? sp : null)

beforeAll(async () => {
  const keys = () => generateServiceProviderKeys({ commonName: "localhost", modulusLength: 2048 })
  ;[spKeys, otherKeys] = await Promise.all([keys(), keys()])
  sp = { entityId: "http://localhost:3000/auth/sso/metadata/sso_1", acsUrl: "http://localhost:3000/auth/sso/acs/sso_1", signingCertificatePem: spKeys.certificatePem }
})

/** The query of authlib's AuthnRequest, as the browser brings it to the IdP. */
function query(options: { key?: string; entityId?: string; acsUrl?: string; destination?: string; now?: Date } = {}): string {
  const request = createAuthnRequest({
    sp: { entityId: options.entityId ?? sp.entityId, privateKeyPem: options.key ?? spKeys.privateKeyPem },
    idp: { ssoRedirectUrl: options.destination ?? SSO_URL },
    acsUrl: options.acsUrl ?? sp.acsUrl,
    ...(options.now ? { now: options.now } : {}),
  })
  return request.url.slice(request.url.indexOf("?") + 1)
}

/** A query for hand-written XML, signed by the SP's key as the binding signs. */
function signedQuery(xml: string): string {
  const signed = `SAMLRequest=${encodeURIComponent(deflateRawSync(xml).toString("base64"))}&SigAlg=${encodeURIComponent(RSA_SHA256)}`
  return `${signed}&Signature=${encodeURIComponent(createSign("RSA-SHA256").update(signed).sign(spKeys.privateKeyPem, "base64"))}`
}

const refusal = (q: string) => readAuthnRequest(q, SSO_URL, spFor).then(() => "accepted", (err: Error) => `${err.name}: ${err.message}`)

describe("the Demo SAML IdP reads AuthnRequests", () => {
  it("accepts authlib's signed request and answers at the metadata's ACS", async () => {
    const accepted = await readAuthnRequest(query(), SSO_URL, spFor)
    expect(accepted).toMatchObject({ sp: { acsUrl: sp.acsUrl }, relayState: null })
    expect(accepted.id).toMatch(/^_[0-9a-f]{40}$/)
  })

  it("refuses a request signed by another key, unsigned, or with the signature algorithm changed", async () => {
    expect(await refusal(query({ key: otherKeys.privateKeyPem }))).toBe("SamlIdpRefusal: the request's signature does not verify with the service provider's certificate")
    expect(await refusal(query().replace(/&Signature=.*$/, ""))).toContain("must carry SAMLRequest, SigAlg and Signature")
    const sha1 = query().replace(encodeURIComponent(RSA_SHA256), encodeURIComponent("http://www.w3.org/2000/09/xmldsig#rsa-sha1"))
    expect(await refusal(sha1)).toBe("SamlIdpRefusal: the request's signature algorithm is not RSA-SHA256")
  })

  it("refuses an unknown SP, another ACS, another IdP endpoint and a stale request, each signed", async () => {
    expect(await refusal(query({ entityId: "http://localhost:3000/auth/sso/metadata/sso_2" }))).toContain("service provider this IdP does not know")
    expect(await refusal(query({ acsUrl: "http://localhost:3000/elsewhere" }))).toContain("a URL the service provider's metadata does not list")
    expect(await refusal(query({ destination: "http://127.0.0.1:4100/other" }))).toContain("addressed to another IdP endpoint")
    expect(await refusal(query({ now: new Date(Date.now() - 10 * 60_000) }))).toContain("IssueInstant")
  })

  it("refuses a DTD, XML that is not well-formed, and a repeated parameter", async () => {
    const dtd = `<!DOCTYPE r [<!ENTITY x "y">]><samlp:AuthnRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol"/>`
    expect(await refusal(signedQuery(dtd))).toBe("SamlIdpRefusal: the AuthnRequest holds a DTD")
    expect(await refusal(signedQuery("<samlp:AuthnRequest"))).toContain("not well-formed")
    expect(await refusal(`${query()}&SigAlg=x`)).toBe(`SamlIdpRefusal: the request repeats "SigAlg"`)
  })
})

describe("the Demo SAML IdP's Response", () => {
  it("is accepted by authlib's SAML engine: signed assertion, addressed to the SP's ACS and audience, answering the request, with the person's MFA context", async () => {
    const idpKeys = await generateServiceProviderKeys({ commonName: "idp", modulusLength: 2048 })
    const idp = { entityId: "http://127.0.0.1:4100/demo-saml-idp/metadata", ssoUrl: SSO_URL, ...idpKeys }
    const verify = (samlResponse: string) =>
      verifySamlResponse({ samlResponse, sp: { entityId: sp.entityId, acsUrl: sp.acsUrl, privateKeyPem: spKeys.privateKeyPem }, idp: { entityId: idp.entityId, certificates: [idpKeys.certificatePem] }, expectedRequestId: "_req1" })
    const ada = await verify(signedResponse({ idp, sp, inResponseTo: "_req1", person: { email: "ada@acme.test", name: "Ada Lovelace", mfa: true } }))
    expect(ada).toMatchObject({ email: "ada@acme.test", inResponseTo: "_req1", authnContextClassRef: MFA_CONTEXT, attributes: { displayName: ["Ada Lovelace"] } })
    const grace = await verify(signedResponse({ idp, sp, inResponseTo: "_req1", person: { email: "grace@acme.test", name: "Grace Hopper", mfa: false } }))
    expect(grace.authnContextClassRef).toBe(PASSWORD_CONTEXT)
    // Signed with the IdP's key only: another certificate does not verify it.
    await expect(
      verifySamlResponse({ samlResponse: signedResponse({ idp, sp, inResponseTo: "_req1", person: { email: "ada@acme.test", name: "Ada", mfa: true } }), sp: { ...sp, privateKeyPem: spKeys.privateKeyPem }, idp: { entityId: idp.entityId, certificates: [otherKeys.certificatePem] }, expectedRequestId: "_req1" }),
    ).rejects.toMatchObject({ code: "SIGNATURE_INVALID" })
  })
})
