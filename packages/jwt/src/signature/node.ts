/// <reference types="node" />
/**
 * `verifySignature` on node:crypto: synchronous, no thread-pool job per call (on Node 20 a
 * WebCrypto verify costs one). Keys are imported once per JWK. Agreement with the WebCrypto path,
 * signature by signature, is proven in test/signature.test.ts.
 */
import { createPublicKey, verify, type KeyObject } from "node:crypto"
import { keyId, remember, type SignatureAlgorithm, type VerifySignatureParams } from "./types.js"

const keys = new Map<string, KeyObject>()

function importKey(key: JsonWebKey, alg: SignatureAlgorithm): KeyObject {
  const id = keyId(key, alg)
  return keys.get(id) ?? remember(keys, id, createPublicKey({ key: key as never, format: "jwk" }))
}

/** {@inheritDoc VerifySignature} */
export async function verifySignature({ key, alg, data, signature }: VerifySignatureParams): Promise<boolean> {
  const imported = importKey(key, alg)
  try {
    // ES256 and RS256 hash with SHA-256; Ed25519 takes no separate hash.
    return verify(alg === "EdDSA" ? null : "sha256", data, imported, signature)
  } catch {
    // A malformed DER signature: node throws where WebCrypto answers false.
    return false
  }
}
