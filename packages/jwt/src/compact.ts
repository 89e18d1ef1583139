import { base64url } from "jose"
import type { ContentEncryption, SealedParts } from "./crypto/interface.js"
import { tokenError } from "./token-error.js"

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

/** Checks that IV, ciphertext and tag are base64url of the sizes `enc` dictates. */
export function checkSegments(parts: SealedParts, enc: ContentEncryption): void {
  const sizes = ENCODED[enc]
  for (const name of ["iv", "ciphertext", "tag"] as const) {
    if (!BASE64URL.test(parts[name])) malformed("not base64url", name)
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
