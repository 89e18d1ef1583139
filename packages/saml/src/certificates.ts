import { X509Certificate } from "node:crypto"

/**
 * One certificate as PEM, from PEM or bare base64 DER (how metadata and admin consoles hand them out).
 * Throws a `TypeError` naming the input when it is not one parseable X.509 certificate.
 */
export function toCertificatePem(input: string, name = "certificate"): string {
  const body = input
    .replace(/-----BEGIN CERTIFICATE-----/, "")
    .replace(/-----END CERTIFICATE-----/, "")
    .replace(/\s+/g, "")
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(body)) throw new TypeError(`"${name}" is not a base64 X.509 certificate`)
  const pem = `-----BEGIN CERTIFICATE-----\n${body.replace(/.{1,64}/g, "$&\n")}-----END CERTIFICATE-----\n`
  try {
    new X509Certificate(pem)
  } catch {
    throw new TypeError(`"${name}" is not a parseable X.509 certificate`)
  }
  return pem
}

/** The base64 DER body of a PEM certificate, as `<ds:X509Certificate>` carries it. */
export function certificateBody(pem: string): string {
  return toCertificatePem(pem).replace(/-----(BEGIN|END) CERTIFICATE-----/g, "").replace(/\s+/g, "")
}

/** The smallest RSA modulus accepted for an IdP signing key: 1024-bit RSA is within reach of factoring. */
export const MIN_RSA_BITS = 2048

/** Whether a certificate's key is RSA of at least {@link MIN_RSA_BITS} bits (the only keys xml-crypto verifies). */
export function hasStrongRsaKey(pem: string): boolean {
  const key = new X509Certificate(pem).publicKey
  return key.asymmetricKeyType === "rsa" && (key.asymmetricKeyDetails?.modulusLength ?? 0) >= MIN_RSA_BITS
}
