import { generateServiceProviderKeys, type ServiceProviderKeys } from "../../src/index.js"

/** The three parties' key pairs, made once per test file: the SP, the real IdP and an attacker. */
export interface Parties {
  sp: ServiceProviderKeys
  idp: ServiceProviderKeys
  attacker: ServiceProviderKeys
}

export async function makeParties(): Promise<Parties> {
  const [sp, idp, attacker] = await Promise.all([
    generateServiceProviderKeys({ commonName: "sp.example", modulusLength: 2048 }),
    generateServiceProviderKeys({ commonName: "idp.example", modulusLength: 2048 }),
    generateServiceProviderKeys({ commonName: "attacker.example", modulusLength: 2048 }),
  ])
  return { sp, idp, attacker }
}

/** A self-signed certificate over a 1024-bit RSA key: what this package must refuse as an IdP key. */
export async function weakCertificatePem(): Promise<string> {
  const { webcrypto } = await import("node:crypto")
  const x509 = await import("@peculiar/x509")
  const algorithm = { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256", modulusLength: 1024, publicExponent: new Uint8Array([1, 0, 1]) }
  const keys = await webcrypto.subtle.generateKey(algorithm, true, ["sign", "verify"])
  const cert = await x509.X509CertificateGenerator.createSelfSigned(
    { serialNumber: "01", name: "CN=weak", notBefore: new Date(), notAfter: new Date(Date.now() + 864e5), signingAlgorithm: algorithm, keys },
    webcrypto as unknown as Crypto,
  )
  return cert.toString("pem")
}
