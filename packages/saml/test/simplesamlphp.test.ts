import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  createAuthnRequest,
  generateServiceProviderKeys,
  parseIdpMetadata,
  serviceProviderMetadata,
  verifySamlResponse,
  type AuthnRequestOptions,
  type IdpMetadata,
  type ServiceProviderKeys,
  type VerifySamlResponseOptions,
} from "../src/index.js"
import { Browser, readForm } from "./helpers/browser.js"
import { startSimpleSamlPhp, type SimpleSamlPhp } from "@authlib/e2e-kit/saml/simplesamlphp"
import { expectRefused } from "./helpers/verify.js"

// The engine against a real IdP: SimpleSAMLphp 1.19 from Debian. SimpleSAMLphp reads this package's SP
// metadata (so it validates the AuthnRequest signature with the published certificate), the engine reads
// SimpleSAMLphp's IdP metadata, and the login form is posted as a browser would.

const SP_ENTITY_ID = "https://app.example/auth/sso/metadata/conn_ssp"
const ACS_URL = "https://app.example/auth/sso/acs/conn_ssp"
const USERS = { "alice:correct horse": { email: ["alice@acme.test"], eduPersonAffiliation: ["member", "staff"] } }

let sp: ServiceProviderKeys
let idpKeys: ServiceProviderKeys
beforeAll(async () => {
  ;[sp, idpKeys] = await Promise.all([
    generateServiceProviderKeys({ commonName: "app.example" }),
    generateServiceProviderKeys({ commonName: "idp.test", modulusLength: 2048 }),
  ])
})

async function start(encryptAssertions: boolean): Promise<{ ssp: SimpleSamlPhp; idp: IdpMetadata }> {
  const ssp = await startSimpleSamlPhp({
    spMetadataXml: serviceProviderMetadata({ entityId: SP_ENTITY_ID, acsUrl: ACS_URL, certificatePem: sp.certificatePem }),
    idpKeys,
    encryptAssertions,
    users: USERS,
  })
  const idp = parseIdpMetadata(await (await fetch(ssp.metadataUrl)).text())
  return { ssp, idp }
}

/** Send a signed AuthnRequest, log in as alice, and return what the IdP posts to the ACS. */
async function signIn(idp: IdpMetadata, extra: Partial<AuthnRequestOptions> = {}) {
  const request = createAuthnRequest({ sp: { entityId: SP_ENTITY_ID, privateKeyPem: sp.privateKeyPem }, idp, acsUrl: ACS_URL, relayState: "rs-42", ...extra })
  const browser = new Browser()
  const login = readForm(await browser.get(request.url))
  const acs = readForm(await browser.post(login.action, { ...login.fields, username: "alice", password: "correct horse" }))
  return { request, acs }
}

function options(idp: IdpMetadata, samlResponse: string, expectedRequestId: string | null): VerifySamlResponseOptions {
  return {
    samlResponse,
    sp: { entityId: SP_ENTITY_ID, acsUrl: ACS_URL, privateKeyPem: sp.privateKeyPem },
    idp: { entityId: idp.entityId, certificates: idp.certificates },
    expectedRequestId,
    now: new Date(),
  }
}

describe("SimpleSAMLphp as the IdP", () => {
  let ssp: SimpleSamlPhp
  let idp: IdpMetadata
  beforeAll(async () => {
    ;({ ssp, idp } = await start(false))
  })
  afterAll(async () => ssp?.stop())

  it("reads SimpleSAMLphp's metadata: entity ID, HTTP-Redirect SSO URL and signing certificate", () => {
    expect(idp).toEqual({
      entityId: ssp.entityId,
      ssoRedirectUrl: `${ssp.baseUrl}saml2/idp/SSOService.php`,
      certificates: [expect.stringContaining("-----BEGIN CERTIFICATE-----")],
    })
  })

  it("the full journey: signed AuthnRequest, login form, and the IdP's signed Response verified", async () => {
    const { request, acs } = await signIn(idp)
    expect(acs.action).toBe(ACS_URL)
    expect(acs.fields.RelayState).toBe("rs-42")
    const result = await verifySamlResponse(options(idp, acs.fields.SAMLResponse ?? "", request.id))
    expect(result).toMatchObject({
      ok: true,
      nameId: "alice@acme.test",
      nameIdFormat: "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress",
      email: "alice@acme.test",
      inResponseTo: request.id,
      authnContextClassRef: "urn:oasis:names:tc:SAML:2.0:ac:classes:Password",
    })
    expect(result.attributes.eduPersonAffiliation).toEqual(["member", "staff"])
    expect(result.notOnOrAfter.getTime()).toBeGreaterThan(Date.now())
  })

  it("SimpleSAMLphp refuses an AuthnRequest whose signature does not match (it really checks ours)", async () => {
    const request = createAuthnRequest({ sp: { entityId: SP_ENTITY_ID, privateKeyPem: idpKeys.privateKeyPem }, idp, acsUrl: ACS_URL })
    const page = await new Browser().get(request.url)
    expect(page.html).not.toMatch(/name="password"/)
    expect(page.html).toContain("Unable to validate signature on query string")
  })

  it("the IdP's real Response is refused for another request, another SP, or after it expires", async () => {
    // ForceAuthn and RequestedAuthnContext on the way: SimpleSAMLphp takes them (schema-valid).
    const { request, acs } = await signIn(idp, { forceAuthn: true, authnContextClassRefs: ["urn:oasis:names:tc:SAML:2.0:ac:classes:Password"] })
    expect((await verifySamlResponse(options(idp, acs.fields.SAMLResponse ?? "", request.id))).inResponseTo).toBe(request.id)
    const response = acs.fields.SAMLResponse ?? ""
    await expectRefused(verifySamlResponse(options(idp, response, "_another_request")), "IN_RESPONSE_TO_UNKNOWN")
    await expectRefused(verifySamlResponse({ ...options(idp, response, request.id), sp: { entityId: "https://other.example/sp", acsUrl: ACS_URL, privateKeyPem: sp.privateKeyPem } }), "AUDIENCE_MISMATCH")
    await expectRefused(verifySamlResponse({ ...options(idp, response, request.id), now: new Date(Date.now() + 3_600_000) }), "EXPIRED")
    await expectRefused(verifySamlResponse({ ...options(idp, response, request.id), idp: { entityId: idp.entityId, certificates: [sp.certificatePem] } }), "SIGNATURE_INVALID")
  })
})

describe("SimpleSAMLphp encrypting assertions for the SP's published encryption certificate", () => {
  let ssp: SimpleSamlPhp
  let idp: IdpMetadata
  beforeAll(async () => {
    ;({ ssp, idp } = await start(true))
  })
  afterAll(async () => ssp?.stop())

  it("is refused by default: SimpleSAMLphp 1.19 encrypts with AES-128-CBC, which has no integrity", async () => {
    const { request, acs } = await signIn(idp)
    expect(Buffer.from(acs.fields.SAMLResponse ?? "", "base64").toString()).toContain("EncryptedAssertion")
    await expectRefused(verifySamlResponse(options(idp, acs.fields.SAMLResponse ?? "", request.id)), "ALGORITHM_REFUSED")
  })

  it("is decrypted with the SP key and verified when allowCbcEncryption is set", async () => {
    const { request, acs } = await signIn(idp)
    const result = await verifySamlResponse({ ...options(idp, acs.fields.SAMLResponse ?? "", request.id), allowCbcEncryption: true })
    expect([result.nameId, result.email, result.inResponseTo]).toEqual(["alice@acme.test", "alice@acme.test", request.id])
  })
})
