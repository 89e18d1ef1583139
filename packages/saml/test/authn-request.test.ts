import { createVerify } from "node:crypto"
import { inflateRawSync } from "node:zlib"
import { beforeAll, describe, expect, it } from "vitest"
import { createAuthnRequest, generateServiceProviderKeys, type ServiceProviderKeys } from "../src/index.js"
import { parse } from "@authlib/e2e-kit/saml/dom-edit"

let sp: ServiceProviderKeys
beforeAll(async () => {
  sp = await generateServiceProviderKeys({ commonName: "sp.example", modulusLength: 2048 })
})

const base = () => ({
  sp: { entityId: "https://app.example/sp", privateKeyPem: sp.privateKeyPem },
  idp: { ssoRedirectUrl: "https://idp.example/sso?tenant=acme" },
  acsUrl: "https://app.example/acs",
  now: new Date("2026-11-28T12:00:00.000Z"),
})

describe("createAuthnRequest (HTTP-Redirect binding)", () => {
  it("deflates an AuthnRequest naming the SP, the ACS and the IdP", () => {
    const { id, url } = createAuthnRequest({ ...base(), requestId: "_fixed_id" })
    const params = new URL(url).searchParams
    const xml = inflateRawSync(Buffer.from(params.get("SAMLRequest") ?? "", "base64")).toString()
    const root = parse(xml).documentElement as Element
    expect(id).toBe("_fixed_id")
    expect([root.localName, root.namespaceURI]).toEqual(["AuthnRequest", "urn:oasis:names:tc:SAML:2.0:protocol"])
    expect(root.getAttribute("ID")).toBe("_fixed_id")
    expect(root.getAttribute("Destination")).toBe("https://idp.example/sso?tenant=acme")
    expect(root.getAttribute("AssertionConsumerServiceURL")).toBe("https://app.example/acs")
    expect(root.getAttribute("ProtocolBinding")).toBe("urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST")
    expect(root.getAttribute("IssueInstant")).toBe("2026-11-28T12:00:00.000Z")
    expect(root.getElementsByTagNameNS("urn:oasis:names:tc:SAML:2.0:assertion", "Issuer")[0]?.textContent).toBe("https://app.example/sp")
    expect(params.get("tenant")).toBe("acme")
  })

  it("signs the query string exactly as sent with RSA-SHA256, verifiable with the SP certificate", () => {
    const { url } = createAuthnRequest({ ...base(), relayState: "state 1&2" })
    const query = url.slice(url.indexOf("?") + 1)
    const signed = query.replace(/^tenant=acme&/, "").replace(/&Signature=.*$/, "")
    expect(signed).toMatch(/^SAMLRequest=[^&]+&RelayState=state%201%262&SigAlg=http%3A%2F%2Fwww\.w3\.org%2F2001%2F04%2Fxmldsig-more%23rsa-sha256$/)
    const signature = new URL(url).searchParams.get("Signature") ?? ""
    expect(createVerify("RSA-SHA256").update(signed).verify(sp.certificatePem, signature, "base64")).toBe(true)
    expect(createVerify("RSA-SHA256").update(signed.replace("state%201", "state%202")).verify(sp.certificatePem, signature, "base64")).toBe(false)
  })

  it("asks for a fresh login and an authentication context when told to", () => {
    const mfa = "https://refeds.org/profile/mfa"
    const plain = createAuthnRequest(base())
    const strict = createAuthnRequest({ ...base(), forceAuthn: true, authnContextClassRefs: [mfa] })
    const root = (url: string) => parse(inflateRawSync(Buffer.from(new URL(url).searchParams.get("SAMLRequest") ?? "", "base64")).toString()).documentElement as Element
    expect(root(plain.url).hasAttribute("ForceAuthn")).toBe(false)
    expect(root(plain.url).getElementsByTagNameNS("urn:oasis:names:tc:SAML:2.0:protocol", "RequestedAuthnContext").length).toBe(0)
    expect(root(strict.url).getAttribute("ForceAuthn")).toBe("true")
    const requested = root(strict.url).getElementsByTagNameNS("urn:oasis:names:tc:SAML:2.0:protocol", "RequestedAuthnContext")[0]
    expect(requested?.getAttribute("Comparison")).toBe("exact")
    expect(requested?.getElementsByTagNameNS("urn:oasis:names:tc:SAML:2.0:assertion", "AuthnContextClassRef")[0]?.textContent).toBe(mfa)
  })

  it("makes a fresh random ID per request", () => {
    const a = createAuthnRequest(base())
    const b = createAuthnRequest(base())
    expect(a.id).toMatch(/^_[0-9a-f]{40}$/)
    expect(a.id).not.toBe(b.id)
  })

  it("escapes values into the XML and refuses bad input by name", () => {
    const { url } = createAuthnRequest({ ...base(), acsUrl: "https://app.example/acs?a=1&b=<2>" })
    const xml = inflateRawSync(Buffer.from(new URL(url).searchParams.get("SAMLRequest") ?? "", "base64")).toString()
    expect(parse(xml).documentElement?.getAttribute("AssertionConsumerServiceURL")).toBe("https://app.example/acs?a=1&b=<2>")
    expect(() => createAuthnRequest({ ...base(), requestId: "1abc" })).toThrow('"requestId" must be an XML NCName')
    expect(() => createAuthnRequest({ ...base(), relayState: "x".repeat(81) })).toThrow('"relayState" must be at most 80 bytes')
    expect(() => createAuthnRequest({ ...base(), acsUrl: "javascript:alert(1)" })).toThrow('"acsUrl" must be an http(s) URL')
  })
})
