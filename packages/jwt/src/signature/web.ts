/**
 * `verifySignature` on WebCrypto (every runtime). ECDSA signatures arrive DER-encoded and WebCrypto
 * takes the raw `r || s` form, so they are converted first; a malformed DER is a failed signature.
 */
import { keyId, remember, type SignatureAlgorithm, type VerifySignatureParams } from "./types.js"

const IMPORT: Record<SignatureAlgorithm, EcKeyImportParams | RsaHashedImportParams | Algorithm> = {
  ES256: { name: "ECDSA", namedCurve: "P-256" },
  RS256: { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" },
  EdDSA: { name: "Ed25519" },
}
const VERIFY: Record<SignatureAlgorithm, Algorithm | EcdsaParams> = {
  ES256: { name: "ECDSA", hash: "SHA-256" },
  RS256: { name: "RSASSA-PKCS1-v1_5" },
  EdDSA: { name: "Ed25519" },
}

const keys = new Map<string, Promise<CryptoKey>>()

function importKey(key: JsonWebKey, alg: SignatureAlgorithm): Promise<CryptoKey> {
  const id = keyId(key, alg)
  const cached = keys.get(id)
  if (cached) return cached
  const { kty, crv, x, y, n, e } = key
  const jwk = { kty, ...(crv ? { crv } : {}), ...(x ? { x } : {}), ...(y ? { y } : {}), ...(n ? { n } : {}), ...(e ? { e } : {}) } as JsonWebKey
  const pending = crypto.subtle.importKey("jwk", jwk, IMPORT[alg], false, ["verify"])
  pending.catch(() => keys.delete(id))
  return remember(keys, id, pending)
}

/** One DER INTEGER as a 32-byte big-endian number, or undefined. */
function integer(der: Uint8Array, at: number): { value: Uint8Array; next: number } | undefined {
  if (der[at] !== 0x02) return undefined
  const length = der[at + 1]!
  if (length < 1 || length > 33 || at + 2 + length > der.length) return undefined
  let bytes = der.subarray(at + 2, at + 2 + length)
  if (bytes.length === 33) {
    if (bytes[0] !== 0) return undefined
    bytes = bytes.subarray(1)
  }
  const value = new Uint8Array(32)
  value.set(bytes, 32 - bytes.length)
  return { value, next: at + 2 + length }
}

/** DER `SEQUENCE { INTEGER r, INTEGER s }` to raw `r || s` (64 bytes), or undefined. */
export function derToRaw(der: Uint8Array): Uint8Array | undefined {
  if (der[0] !== 0x30 || der[1] !== der.length - 2) return undefined
  const r = integer(der, 2)
  const s = r && integer(der, r.next)
  if (!r || !s || s.next !== der.length) return undefined
  const raw = new Uint8Array(64)
  raw.set(r.value, 0)
  raw.set(s.value, 32)
  return raw
}

/** {@inheritDoc VerifySignature} */
export async function verifySignature({ key, alg, data, signature }: VerifySignatureParams): Promise<boolean> {
  const imported = await importKey(key, alg)
  const sig = alg === "ES256" ? derToRaw(signature) : signature
  if (!sig) return false
  return crypto.subtle.verify(VERIFY[alg], imported, sig as Uint8Array<ArrayBuffer>, data as Uint8Array<ArrayBuffer>)
}
