import { webcrypto } from "node:crypto"
import * as x509 from "@peculiar/x509"

/** Options for {@link generateServiceProviderKeys}. */
export interface ServiceProviderKeyOptions {
  /** The certificate's subject common name, e.g. the SP entity ID's host or the connection's name. */
  commonName: string
  /** RSA modulus length in bits; 3072 unless set (2048 is the floor SAML IdPs accept, 3072 outlives it). */
  modulusLength?: 2048 | 3072 | 4096
  /** How long the certificate is valid; 3650 days unless set (IdPs pin it from metadata, rotation is manual). */
  validityDays?: number
  /** The clock the validity starts from; `new Date()` unless set. */
  now?: Date
}

/** An SP key pair: the private key (PKCS#8 PEM, keep it sealed) and its self-signed certificate (PEM, public). */
export interface ServiceProviderKeys {
  privateKeyPem: string
  certificatePem: string
}

const RSA_SHA256 = { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" } as const

/**
 * Make a service provider's RSA key pair and a self-signed X.509 certificate for it (SHA-256 with RSA),
 * published in the SP metadata for both signing (AuthnRequests) and encryption (assertions). The
 * certificate is built by `@peculiar/x509`, not hand-written ASN.1.
 */
export async function generateServiceProviderKeys(options: ServiceProviderKeyOptions): Promise<ServiceProviderKeys> {
  const { commonName, modulusLength = 3072, validityDays = 3650, now = new Date() } = options
  if (typeof commonName !== "string" || commonName.length === 0 || commonName.length > 64) {
    throw new TypeError('"commonName" must be a string of 1 to 64 characters')
  }
  if (![2048, 3072, 4096].includes(modulusLength)) throw new TypeError('"modulusLength" must be 2048, 3072 or 4096')
  if (!Number.isInteger(validityDays) || validityDays < 1) throw new TypeError('"validityDays" must be a positive integer')
  const algorithm = { ...RSA_SHA256, modulusLength, publicExponent: new Uint8Array([1, 0, 1]) }
  const keys = await webcrypto.subtle.generateKey(algorithm, true, ["sign", "verify"])
  const certificate = await x509.X509CertificateGenerator.createSelfSigned(
    {
      serialNumber: randomSerialNumber(),
      name: [{ CN: [commonName] }],
      notBefore: now,
      notAfter: new Date(now.getTime() + validityDays * 86_400_000),
      signingAlgorithm: RSA_SHA256,
      keys,
      extensions: [
        new x509.BasicConstraintsExtension(false, undefined, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment, true),
      ],
    },
    webcrypto as unknown as Crypto,
  )
  const pkcs8 = Buffer.from(await webcrypto.subtle.exportKey("pkcs8", keys.privateKey))
  return {
    privateKeyPem: `-----BEGIN PRIVATE KEY-----\n${pkcs8.toString("base64").replace(/.{1,64}/g, "$&\n")}-----END PRIVATE KEY-----\n`,
    certificatePem: certificate.toString("pem") + "\n",
  }
}

// A positive 128-bit serial (RFC 5280 allows up to 20 octets; the top bit clear keeps it positive).
function randomSerialNumber(): string {
  const bytes = webcrypto.getRandomValues(new Uint8Array(16))
  bytes[0] = (bytes[0] ?? 0) & 0x7f
  return Buffer.from(bytes).toString("hex")
}
