/**
 * A stored passkey's public key (a COSE_Key, CBOR) as a JWK for signature verification. Only the
 * key types WebAuthn authenticators use are read: EC2 P-256 (ES256), RSA (RS256), OKP Ed25519
 * (EdDSA); anything else is `undefined` and the caller falls back to `@simplewebauthn/server`.
 */
import type { SignatureAlgorithm } from "@authlib/jwt"
import { base64url } from "../../kernel/security/random.js"

type Cbor = number | Uint8Array | string | Map<Cbor, Cbor> | Cbor[] | boolean | null

/** Reads one CBOR item at `at` (definite lengths only, as COSE keys use). */
function read(bytes: Uint8Array, at: number): { value: Cbor; next: number } {
  const initial = bytes[at]
  if (initial === undefined) throw new RangeError("CBOR: truncated")
  const major = initial >> 5
  const info = initial & 31
  let length = info
  let next = at + 1
  if (info === 24) (length = bytes[next]!), (next += 1)
  else if (info === 25) (length = (bytes[next]! << 8) | bytes[next + 1]!), (next += 2)
  else if (info === 26) (length = ((bytes[next]! << 24) >>> 0) + ((bytes[next + 1]! << 16) | (bytes[next + 2]! << 8) | bytes[next + 3]!)), (next += 4)
  else if (info > 26) throw new RangeError("CBOR: unsupported length")
  if (major === 0) return { value: length, next }
  if (major === 1) return { value: -1 - length, next }
  if (major === 2 || major === 3) {
    if (next + length > bytes.length) throw new RangeError("CBOR: truncated")
    const slice = bytes.subarray(next, next + length)
    return { value: major === 2 ? slice : new TextDecoder("utf-8", { fatal: true }).decode(slice), next: next + length }
  }
  if (major === 4 || major === 5) {
    const items: Cbor[] = []
    for (let i = 0; i < length * (major === 5 ? 2 : 1); i++) {
      const item = read(bytes, next)
      items.push(item.value)
      next = item.next
    }
    if (major === 4) return { value: items, next }
    const map = new Map<Cbor, Cbor>()
    for (let i = 0; i < items.length; i += 2) map.set(items[i]!, items[i + 1]!)
    return { value: map, next }
  }
  if (major === 7 && (info === 20 || info === 21 || info === 22)) return { value: info === 22 ? null : info === 21, next }
  throw new RangeError("CBOR: unsupported type")
}

const bytesOf = (value: Cbor | undefined) => (value instanceof Uint8Array ? base64url(value) : undefined)

/** The JWK and algorithm of a COSE key, or `undefined` for a key type this path does not verify. */
export function coseToJwk(cose: Uint8Array): { key: JsonWebKey; alg: SignatureAlgorithm } | undefined {
  let map: Cbor
  try {
    map = read(cose, 0).value
  } catch {
    return undefined
  }
  if (!(map instanceof Map)) return undefined
  const kty = map.get(1)
  const alg = map.get(3)
  if (kty === 2 && alg === -7 && map.get(-1) === 1) {
    const x = bytesOf(map.get(-2))
    const y = bytesOf(map.get(-3))
    return x && y ? { key: { kty: "EC", crv: "P-256", x, y }, alg: "ES256" } : undefined
  }
  if (kty === 3 && alg === -257) {
    const n = bytesOf(map.get(-1))
    const e = bytesOf(map.get(-2))
    return n && e ? { key: { kty: "RSA", n, e }, alg: "RS256" } : undefined
  }
  if (kty === 1 && alg === -8 && map.get(-1) === 6) {
    const x = bytesOf(map.get(-2))
    return x ? { key: { kty: "OKP", crv: "Ed25519", x }, alg: "EdDSA" } : undefined
  }
  return undefined
}
