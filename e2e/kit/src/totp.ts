/**
 * TOTP as an authenticator app computes it (RFC 6238: HMAC-SHA-1, 6 digits, 30-second steps),
 * written on node:crypto independently of core, so the tests check core against the RFC
 * rather than against itself.
 */
import { createHmac } from "node:crypto"

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"

/** RFC 4648 base32 (what the enrolment shows), padding and spaces ignored. */
export function base32Bytes(text: string): Buffer {
  let bits = 0
  let value = 0
  const out: number[] = []
  for (const char of text.replace(/[=\s]/g, "").toUpperCase()) {
    const index = ALPHABET.indexOf(char)
    if (index < 0) throw new Error(`not base32: ${char}`)
    value = (value << 5) | index
    bits += 5
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 0xff)
      bits -= 8
    }
  }
  return Buffer.from(out)
}

/** The time step of `timeMs` (30 s steps since the epoch). */
export const stepAt = (timeMs = Date.now()) => Math.floor(timeMs / 30_000)

/** The 6-digit code of `secret` (base32) for time step `step`. */
export function totp(secret: string, step = stepAt()): string {
  const counter = Buffer.alloc(8)
  counter.writeBigUInt64BE(BigInt(step))
  const mac = createHmac("sha1", base32Bytes(secret)).update(counter).digest()
  const offset = mac[mac.length - 1]! & 0x0f
  const binary = mac.readUInt32BE(offset) & 0x7fffffff
  return String(binary % 1_000_000).padStart(6, "0")
}
