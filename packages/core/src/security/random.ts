/**
 * Random tokens (Web Crypto) and SHA-256. SHA-256 is `@noble/hashes` (audited, synchronous): on
 * Node, `crypto.subtle.digest` costs a thread-pool round trip (~50 us) per call, which made the
 * CSRF check the most expensive step of a sign-in.
 */
import { sha256 as nobleSha256 } from "@noble/hashes/sha2.js"

const encoder = new TextEncoder()

/** base64url without padding. */
export function base64url(bytes: Uint8Array): string {
  let bin = ""
  for (let i = 0; i < bytes.length; i++) bin += String.fromCharCode(bytes[i]!)
  return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")
}

/** `byteLength` random bytes as base64url (32 bytes = 256 bits by default). */
export function randomToken(byteLength = 32): string {
  return base64url(crypto.getRandomValues(new Uint8Array(byteLength)))
}

/** SHA-256 of a UTF-8 string, base64url. */
export function sha256(value: string): string {
  return base64url(nobleSha256(encoder.encode(value)))
}

/** Compares two strings in time independent of where they differ (lengths may leak). */
export function timingSafeEqual(a: string, b: string): boolean {
  const x = encoder.encode(a)
  const y = encoder.encode(b)
  let diff = x.length ^ y.length
  for (let i = 0; i < x.length; i++) diff |= x[i]! ^ (y[i % (y.length || 1)] ?? 0)
  return diff === 0
}
