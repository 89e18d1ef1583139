/**
 * Random tokens (Web Crypto, through `@authlib/jwt`'s pooled `randomBytes`) and SHA-256. SHA-256
 * is synchronous: on Node, `crypto.subtle.digest` costs a thread-pool round trip (~50 us) per
 * call, which made the CSRF check the most expensive step of a sign-in. Under the `node`
 * condition `@authlib/jwt` hands in node:crypto's one-shot hash (`fastSha256`, about 0.3 us
 * against 2 us); everywhere else it is `@noble/hashes` (audited). Both are proven equal in
 * `test/kernel/security/sha256.test.ts`.
 */
import { sha256 as nobleSha256 } from "@noble/hashes/sha2.js"
import { bytesToHex } from "@noble/hashes/utils.js"
import { fastSha256, randomBytes } from "@authlib/jwt"

const encoder = new TextEncoder()
const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"

/** base64url without padding (a table walk: `btoa` plus three replaces cost 3x as much). */
export function base64url(bytes: Uint8Array): string {
  let out = ""
  let i = 0
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!
    out += ALPHABET[n >>> 18]! + ALPHABET[(n >>> 12) & 63]! + ALPHABET[(n >>> 6) & 63]! + ALPHABET[n & 63]!
  }
  const left = bytes.length - i
  if (left === 0) return out
  const n = (bytes[i]! << 16) | (left === 2 ? bytes[i + 1]! << 8 : 0)
  out += ALPHABET[n >>> 18]! + ALPHABET[(n >>> 12) & 63]!
  return left === 2 ? out + ALPHABET[(n >>> 6) & 63]! : out
}

/** `byteLength` random bytes as base64url (32 bytes = 256 bits by default), from `@authlib/jwt`'s pool. */
export function randomToken(byteLength = 32): string {
  return base64url(randomBytes(byteLength))
}

/** Reused input buffer: the hashed strings (CSRF token + secret, session tokens) are short. */
const scratch = new Uint8Array(512)

/** SHA-256 of a UTF-8 string, base64url: node:crypto where `@authlib/jwt` offers it, else {@link portableSha256}. */
export const sha256: (value: string) => string = fastSha256 ?? portableSha256

/** SHA-256 of a UTF-8 string, base64url, in JavaScript (`@noble/hashes`): every runtime. */
export function portableSha256(value: string): string {
  // Encoding into the scratch buffer saves an allocation per call; `nobleSha256` copies its input
  // synchronously, so the buffer is free again when it returns.
  const { read, written } = encoder.encodeInto(value, scratch)
  const bytes = read === value.length ? scratch.subarray(0, written) : encoder.encode(value)
  return base64url(nobleSha256(bytes))
}

/** Each base64url character's 6-bit value (an unused slot is 0: only our own digests are read). */
const SIXTETS = new Uint8Array(128)
for (let i = 0; i < ALPHABET.length; i++) SIXTETS[ALPHABET.charCodeAt(i)] = i
const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"))

/** The 32 bytes of a base64url SHA-256 digest (43 characters), as lowercase hex. */
function digestHex(b64: string): string {
  let out = ""
  let bits = 0
  let held = 0
  for (let i = 0; i < b64.length; i++) {
    bits = (bits << 6) | SIXTETS[b64.charCodeAt(i)]!
    held += 6
    if (held >= 8) {
      held -= 8
      out += HEX[(bits >>> held) & 0xff]!
    }
  }
  return out
}

/**
 * SHA-256 of a UTF-8 string, lowercase hex (the e-mail link's stored form): node:crypto's digest
 * re-read as hex where `@authlib/jwt` offers it (about a fifth of the JavaScript hash's time), else
 * `@noble/hashes`. Both are proven equal in `test/kernel/security/sha256.test.ts`.
 */
export const sha256Hex: (value: string) => string = fastSha256 ? (value) => digestHex(fastSha256!(value)) : portableSha256Hex

/** SHA-256 of a UTF-8 string, lowercase hex, in JavaScript (`@noble/hashes`): every runtime. */
export function portableSha256Hex(value: string): string {
  return bytesToHex(nobleSha256(encoder.encode(value)))
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
