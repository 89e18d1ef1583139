import { base64url } from "jose"
import type { ContentEncryption, SealedParts } from "./crypto/interface.js"
import { tokenError } from "./errors.js"

/** The protected header fields `decode` acts on, after validation. */
export interface ProtectedHeader {
  enc: ContentEncryption
  kid?: string
  /** The full header, for replicated claims (`iss`, `sub`, `aud`). */
  fields: Record<string, unknown>
}

const BASE64URL = /^[A-Za-z0-9_-]+$/
const utf8 = new TextDecoder("utf-8", { fatal: true })

/** Encoded lengths of the IV and tag per algorithm (16+32 bytes for CBC, 12+16 for GCM). */
const ENCODED: Readonly<Record<ContentEncryption, { iv: number; tag: number; block: number }>> = {
  "A256CBC-HS512": { iv: 22, tag: 43, block: 16 },
  A256GCM: { iv: 16, tag: 22, block: 1 },
}

/**
 * Bits of the last character that carry no data, by encoded length mod 4 (2 chars left = 1 byte +
 * 4 spare bits, 3 chars = 2 bytes + 2 spare bits). Decoders ignore them, so a set spare bit would
 * give one token several string forms; only the all-zero (canonical) form is accepted.
 */
const SPARE_BITS = [0, 0, 0x0f, 0x03] as const

/** The 6-bit value of a base64url character already known to be in the alphabet. */
function sextet(code: number): number {
  if (code >= 97) return code - 71 // a-z: 26..51
  if (code === 95) return 63 // _
  if (code >= 65) return code - 65 // A-Z: 0..25
  if (code === 45) return 62 // -
  return code + 4 // 0-9: 52..61
}

/** Whether the spare bits of the last character are zero: one look at one character. */
function isCanonical(segment: string): boolean {
  const spare = SPARE_BITS[segment.length & 3]!
  return spare === 0 || (sextet(segment.charCodeAt(segment.length - 1)) & spare) === 0
}

function malformed(reason: string, segment?: string): never {
  throw tokenError("TOKEN_MALFORMED", `JWT is malformed: ${reason}`, segment ? { segment } : {})
}

/**
 * Splits a compact JWE into its five segments; the encrypted key must be empty (`alg: "dir"`).
 * The header is checked by `parseHeader`, or not at all when it equals a header we issued.
 */
export function splitCompact(token: unknown): SealedParts {
  if (typeof token !== "string") malformed("not a string")
  const segments = token.split(".")
  if (segments.length !== 5) malformed(`expected 5 segments, got ${segments.length}`)
  const [header, encryptedKey, iv, ciphertext, tag] = segments as [string, ...string[]]
  if (encryptedKey !== "") malformed("a direct-key JWE has no encrypted key", "encrypted_key")
  return { header, iv: iv!, ciphertext: ciphertext!, tag: tag! }
}

/** Checks that IV, ciphertext and tag are canonical base64url of the sizes `enc` dictates. */
export function checkSegments(parts: SealedParts, enc: ContentEncryption): void {
  const sizes = ENCODED[enc]
  for (const name of ["iv", "ciphertext", "tag"] as const) {
    if (!BASE64URL.test(parts[name])) malformed("not base64url", name)
    if (!isCanonical(parts[name])) malformed("not canonical base64url", name)
  }
  if (parts.iv.length !== sizes.iv) malformed("wrong initialization vector length", "iv")
  if (parts.tag.length !== sizes.tag) malformed("wrong authentication tag length", "tag")
  const length = parts.ciphertext.length
  const bytes = Math.floor((length * 3) / 4)
  if (length % 4 === 1 || bytes % sizes.block !== 0) malformed("wrong ciphertext length", "ciphertext")
}

function decodeHeaderJson(encoded: string): unknown {
  try {
    return JSON.parse(utf8.decode(base64url.decode(encoded)))
  } catch {
    throw tokenError("HEADER_INVALID", "JWT protected header is not base64url JSON")
  }
}

/** Parses and validates the protected header: `dir` only, known `enc`, no `zip` or `crit`. */
export function parseHeader(encoded: string): ProtectedHeader {
  if (!BASE64URL.test(encoded)) malformed("not base64url", "protected")
  if (!isCanonical(encoded)) malformed("not canonical base64url", "protected")
  const fields = decodeHeaderJson(encoded)
  if (typeof fields !== "object" || fields === null || Array.isArray(fields)) {
    throw tokenError("HEADER_INVALID", "JWT protected header must be a JSON object")
  }
  const header = fields as Record<string, unknown>
  const { alg, enc, kid } = header
  if (alg !== "dir") {
    throw tokenError("ALG_UNSUPPORTED", 'JWT "alg" must be "dir"', { received: String(alg) })
  }
  if (enc !== "A256CBC-HS512" && enc !== "A256GCM") {
    const received = String(enc)
    throw tokenError("ENC_UNSUPPORTED", 'JWT "enc" must be "A256CBC-HS512"', { received })
  }
  for (const parameter of ["zip", "crit"]) {
    if (Object.hasOwn(header, parameter)) {
      const message = `JWT header parameter "${parameter}" is not supported`
      throw tokenError("HEADER_PARAMETER_UNSUPPORTED", message, { parameter })
    }
  }
  if (kid !== undefined && typeof kid !== "string") {
    throw tokenError("HEADER_INVALID", 'JWT "kid" must be a string')
  }
  return kid === undefined ? { enc, fields: header } : { enc, kid, fields: header }
}
