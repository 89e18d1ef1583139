/**
 * Public-key signature verification (the algorithms WebAuthn authenticators use), with the same
 * split as the JWE code: WebCrypto everywhere, node:crypto on Node through the `node` condition.
 */

/** The COSE/JOSE algorithms verified here: ES256 (P-256), RS256 (RSASSA-PKCS1-v1_5) and EdDSA (Ed25519). */
export type SignatureAlgorithm = "ES256" | "RS256" | "EdDSA"

/** What `verifySignature` takes. */
export interface VerifySignatureParams {
  /** The public key as a JWK (EC P-256, RSA, or OKP Ed25519). */
  key: JsonWebKey
  alg: SignatureAlgorithm
  /** The signed bytes. */
  data: Uint8Array
  /** ES256: ASN.1 DER (as WebAuthn sends it); RS256 and EdDSA: raw. */
  signature: Uint8Array
}

/** Verifies a signature; resolves `false` for a wrong signature, rejects for an unusable key. */
export type VerifySignature = (params: VerifySignatureParams) => Promise<boolean>

/** A bounded cache key of a JWK: its public parts. */
export function keyId(key: JsonWebKey, alg: SignatureAlgorithm): string {
  return `${alg}|${key.crv ?? ""}|${key.x ?? ""}|${key.y ?? ""}|${key.n ?? ""}|${key.e ?? ""}`
}

/** Keys are imported once; a server sees few distinct keys per second, the cap bounds memory. */
export const MAX_CACHED_KEYS = 1024

export function remember<K>(cache: Map<string, K>, id: string, key: K): K {
  if (cache.size >= MAX_CACHED_KEYS) cache.delete(cache.keys().next().value!)
  cache.set(id, key)
  return key
}
