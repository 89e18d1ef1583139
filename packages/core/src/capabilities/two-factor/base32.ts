/**
 * Base32 (RFC 4648 §6), the encoding authenticator apps use for TOTP secrets. Encoding writes the
 * canonical form (upper case; padding on request). Decoding takes what people paste: lower case,
 * spaces and dashes between groups, padding or none; anything else is refused with the position
 * of the first bad character, never guessed at (a silently altered secret would enrol codes that
 * never match).
 */
import { TwoFactorError } from "./errors.js"

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
/** Symbol values by char code (upper and lower case), -1 for everything else. */
const VALUES = new Int8Array(128).fill(-1)
for (let i = 0; i < ALPHABET.length; i++) {
  VALUES[ALPHABET.charCodeAt(i)] = i
  VALUES[ALPHABET.toLowerCase().charCodeAt(i)] = i
}
/** Separators people type or paste between groups ("JBSW Y3DP", "jbsw-y3dp"): ignored. */
const SEPARATORS = /[\s-]/g
/** Longest input looked at: far above any real secret (a 64-byte key is 103 characters). */
const MAX_INPUT = 1024

/** `bytes` as base32: upper case, with `=` padding to a multiple of 8 characters only when `padding` is set. */
export function base32Encode(bytes: Uint8Array, options: { padding?: boolean } = {}): string {
  let out = ""
  let buffer = 0
  let bits = 0
  for (const byte of bytes) {
    buffer = ((buffer << 8) | byte) & 0xffff
    bits += 8
    while (bits >= 5) {
      out += ALPHABET[(buffer >>> (bits - 5)) & 31]
      bits -= 5
    }
  }
  if (bits > 0) out += ALPHABET[(buffer << (5 - bits)) & 31]
  if (options.padding) while (out.length % 8 !== 0) out += "="
  return out
}

const invalid = (message: string, cause: Record<string, unknown>) => new TwoFactorError(message, { code: "SECRET_INVALID", cause })

/**
 * The bytes of a base32 string ("" is no bytes). Tolerates lower case, whitespace, dashes and
 * missing padding; throws `TwoFactorError` `SECRET_INVALID` for an over-long input, a character outside
 * the alphabet (the message gives its position, not the input: it may be a secret), padding in
 * the middle, or a length no byte string encodes to (1, 3 or 6 characters past a multiple of 8).
 */
export function base32Decode(input: string): Uint8Array<ArrayBuffer> {
  if (typeof input !== "string" || input.length > MAX_INPUT) throw invalid(`a base32 secret must be a string of at most ${MAX_INPUT} characters`, { length: input?.length })
  // Checked on the input as given, so the position is the one the person sees.
  const bad = input.search(/[^A-Za-z2-7=\s-]/)
  if (bad !== -1) throw invalid(`invalid base32 character at position ${bad + 1} (allowed: A-Z, 2-7)`, { position: bad + 1 })
  const text = input.replace(SEPARATORS, "")
  const padded = text.indexOf("=")
  const symbols = padded === -1 ? text : text.slice(0, padded)
  if (padded !== -1 && !/^=+$/.test(text.slice(padded))) throw invalid('base32 padding "=" may only end the secret', { position: input.indexOf("=") + 1 })
  if ([1, 3, 6].includes(symbols.length % 8)) throw invalid(`${symbols.length} base32 characters encode no whole number of bytes`, { length: symbols.length })
  const out = new Uint8Array(Math.floor((symbols.length * 5) / 8))
  let buffer = 0
  let bits = 0
  let at = 0
  for (let i = 0; i < symbols.length; i++) {
    buffer = ((buffer << 5) | VALUES[symbols.charCodeAt(i)]!) & 0xffff
    bits += 5
    if (bits >= 8) {
      out[at++] = (buffer >>> (bits - 8)) & 0xff
      bits -= 8
    }
  }
  return out
}
