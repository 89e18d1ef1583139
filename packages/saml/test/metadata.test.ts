import { X509Certificate, createPrivateKey } from "node:crypto"
import * as x509 from "@peculiar/x509"
import { beforeAll, describe, expect, it } from "vitest"
import { generateServiceProviderKeys, parseIdpMetadata, serviceProviderMetadata, type ServiceProviderKeys } from "../src/index.js"
import { parse } from "@authlib/e2e-kit/saml/dom-edit"
import { weakCertificatePem } from "@authlib/e2e-kit/saml/keys"
import { expectRefused } from "./helpers/verify.js"

let keys: ServiceProviderKeys
beforeAll(async () => {
  keys = await generateServiceProviderKeys({ commonName: "Acme, Inc. SSO", now: new Date("2026-01-01T00:00:00Z") })
})

const certBody = (pem: string) => pem.replace(/-----[A-Z ]+-----|\s/g, "")

describe("generateServiceProviderKeys", () => {
  it("makes an RSA-3072 key and a self-signed SHA-256 certificate for it, valid 10 years", () => {
    const cert = new X509Certificate(keys.certificatePem)
    expect(cert.subject).toBe("CN=Acme\\, Inc. SSO")
    expect(cert.issuer).toBe(cert.subject)
    expect(cert.publicKey.asymmetricKeyDetails?.modulusLength).toBe(3072)
    expect(cert.checkPrivateKey(createPrivateKey(keys.privateKeyPem))).toBe(true)
    expect(cert.verify(cert.publicKey)).toBe(true)
    expect(cert.validFrom).toBe("Jan  1 00:00:00 2026 GMT")
    expect(cert.validTo).toBe("Dec 30 00:00:00 2035 GMT")
    expect(new x509.X509Certificate(keys.certificatePem).signatureAlgorithm).toMatchObject({ name: "RSASSA-PKCS1-v1_5", hash: { name: "SHA-256" } })
  })

  it("refuses weak or malformed options by name", async () => {
    await expect(generateServiceProviderKeys({ commonName: "x", modulusLength: 1024 as 2048 })).rejects.toThrow('"modulusLength"')
    await expect(generateServiceProviderKeys({ commonName: "" })).rejects.toThrow('"commonName"')
  })
})

describe("serviceProviderMetadata", () => {
  it("publishes the certificate for signing and encryption, the POST ACS, and wants signed assertions", () => {
    const xml = serviceProviderMetadata({ entityId: "https://app.example/sp", acsUrl: "https://app.example/acs", certificatePem: keys.certificatePem })
    const doc = parse(xml)
    const md = "urn:oasis:names:tc:SAML:2.0:metadata"
    expect(doc.documentElement?.getAttribute("entityID")).toBe("https://app.example/sp")
    const sp = doc.getElementsByTagNameNS(md, "SPSSODescriptor")[0]
    expect(sp?.getAttribute("AuthnRequestsSigned")).toBe("true")
    expect(sp?.getAttribute("WantAssertionsSigned")).toBe("true")
    const list = doc.getElementsByTagNameNS(md, "KeyDescriptor")
    const uses = Array.from({ length: list.length }, (_, i) => list.item(i) as Element).map((k) => [
      k.getAttribute("use"),
      k.getElementsByTagNameNS("http://www.w3.org/2000/09/xmldsig#", "X509Certificate")[0]?.textContent,
    ])
    expect(uses).toEqual([
      ["signing", certBody(keys.certificatePem)],
      ["encryption", certBody(keys.certificatePem)],
    ])
    const acs = doc.getElementsByTagNameNS(md, "AssertionConsumerService")[0]
    expect([acs?.getAttribute("Binding"), acs?.getAttribute("Location")]).toEqual(["urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST", "https://app.example/acs"])
  })
})

const idpMetadata = (cert: string, extra = "") =>
  `<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="https://idp.example/e">` +
  `<md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">` +
  `<md:KeyDescriptor use="encryption"><ds:KeyInfo xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:X509Data><ds:X509Certificate>${certBody(keys.certificatePem)}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>` +
  `<md:KeyDescriptor><ds:KeyInfo xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:X509Data><ds:X509Certificate>\n${cert}\n</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>` +
  `<md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="https://idp.example/post"/>` +
  `<md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="https://idp.example/redirect"/>` +
  `${extra}</md:IDPSSODescriptor></md:EntityDescriptor>`

describe("parseIdpMetadata", () => {
  let idpCert: string
  beforeAll(async () => {
    idpCert = certBody((await generateServiceProviderKeys({ commonName: "idp", modulusLength: 2048 })).certificatePem)
  })

  it("reads the entity ID, the HTTP-Redirect SSO URL and only the signing certificates", () => {
    const result = parseIdpMetadata(idpMetadata(idpCert))
    expect(result.entityId).toBe("https://idp.example/e")
    expect(result.ssoRedirectUrl).toBe("https://idp.example/redirect")
    expect(result.certificates.map(certBody)).toEqual([idpCert])
  })

  it("refuses a signing certificate whose RSA key is under 2048 bits (ALGORITHM_REFUSED)", async () => {
    const weak = certBody(await weakCertificatePem())
    await expectRefused(Promise.resolve().then(() => parseIdpMetadata(idpMetadata(weak))), "ALGORITHM_REFUSED")
  })

  it("reads one IdP out of an EntitiesDescriptor", () => {
    const wrapped = `<md:EntitiesDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata">${idpMetadata(idpCert)}</md:EntitiesDescriptor>`
    expect(parseIdpMetadata(wrapped).entityId).toBe("https://idp.example/e")
  })

  it("refuses a DOCTYPE (DTD_REFUSED), an oversize document (METADATA_TOO_LARGE) and ambiguity (MALFORMED)", async () => {
    const xml = idpMetadata(idpCert)
    await expectRefused(Promise.resolve().then(() => parseIdpMetadata(`<!DOCTYPE x [<!ENTITY % p SYSTEM "http://127.0.0.1:9/">%p;]>${xml}`)), "DTD_REFUSED")
    await expectRefused(Promise.resolve().then(() => parseIdpMetadata(xml, { maxBytes: 1000 })), "METADATA_TOO_LARGE")
    const two = `<md:EntitiesDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata">${xml}${xml}</md:EntitiesDescriptor>`
    await expectRefused(Promise.resolve().then(() => parseIdpMetadata(two)), "MALFORMED")
    await expectRefused(Promise.resolve().then(() => parseIdpMetadata(xml.replace(/HTTP-Redirect/, "SOAP"))), "MALFORMED")
    await expectRefused(Promise.resolve().then(() => parseIdpMetadata(idpMetadata("bm90IGEgY2VydA=="))), "MALFORMED")
  })
})
