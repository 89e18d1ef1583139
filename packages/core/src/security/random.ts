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

/**
 * Compares two strings in time independent of where they differ (only the length may leak). Works
 * on UTF-16 code units, so it needs no encoding step: the tokens compared here are ASCII.
 */
export function timingSafeEqual(a: string, b: string): boolean {
  let diff = a.length ^ b.length
  const n = b.length || 1
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i % n)
  return diff === 0
}
