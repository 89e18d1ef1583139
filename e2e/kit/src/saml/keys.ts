/**
 * Key pairs and self-signed certificates for the parties of a SAML test: the SP, the real IdP and an
 * attacker. Made here with `@peculiar/x509` on node:crypto, not by `@authlib/saml`, so the tests of the
 * service provider never depend on its own key generator to play the IdP (and this kit does not
 * depend on the package it helps test).
 */
import { webcrypto } from "node:crypto"
import * as x509 from "@peculiar/x509"

/** A private key (PKCS#8 PEM) and its self-signed X.509 certificate (PEM). */
export interface PartyKeys {
  privateKeyPem: string
  certificatePem: string
}

/** The three parties' key pairs, made once per test file: the SP, the real IdP and an attacker. */
export interface Parties {
  sp: PartyKeys
  idp: PartyKeys
  attacker: PartyKeys
}

/** RSA 2048-bit keys with certificates signed with SHA-256 for `sp.example`, `idp.example` and `attacker.example`. */
export async function makeParties(): Promise<Parties> {
  const [sp, idp, attacker] = await Promise.all([selfSigned("sp.example", 2048), selfSigned("idp.example", 2048), selfSigned("attacker.example", 2048)])
  return { sp, idp, attacker }
}

/** A self-signed certificate over a 1024-bit RSA key: what a service provider must refuse as an IdP key. */
export async function weakCertificatePem(): Promise<string> {
  return (await selfSigned("weak", 1024)).certificatePem
}

async function selfSigned(commonName: string, modulusLength: number): Promise<PartyKeys> {
  const algorithm = { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256", modulusLength, publicExponent: new Uint8Array([1, 0, 1]) }
  const keys = await webcrypto.subtle.generateKey(algorithm, true, ["sign", "verify"])
  const now = Date.now()
  const serial = webcrypto.getRandomValues(new Uint8Array(8))
  serial[0] = (serial[0]! & 0x7f) | 0x40 // positive (RFC 5280), and no leading zero octet
  const certificate = await x509.X509CertificateGenerator.createSelfSigned(
    {
      serialNumber: Buffer.from(serial).toString("hex"),
      name: `CN=${commonName}`,
      // An hour back, so a test clock a little behind the wall clock still finds the certificate valid.
      notBefore: new Date(now - 3_600_000),
      notAfter: new Date(now + 365 * 86_400_000),
      signingAlgorithm: algorithm,
      keys,
      extensions: [new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment, true)],
    },
    webcrypto as unknown as Crypto,
  )
  const pkcs8 = await webcrypto.subtle.exportKey("pkcs8", keys.privateKey)
  return { privateKeyPem: x509.PemConverter.encode(pkcs8, "PRIVATE KEY") + "\n", certificatePem: certificate.toString("pem") + "\n" }
}
