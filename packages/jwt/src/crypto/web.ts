import { base64url } from "jose"
import { tokenError } from "../errors.js"
import { randomBytes } from "../random.js"
import type { ContentEncryption, FastSha256, JweCrypto, SealedParts } from "./interface.js"

/** A WebCrypto key for legacy A256GCM tokens (decrypt only); the Node path uses it too. */
export type GcmKey = { enc: "A256GCM"; gcmKey: CryptoKey }

/** WebCrypto keys made once per derived key: the portable path (browsers, edge, Deno, Bun, Node). */
export type WebKey = { enc: "A256CBC-HS512"; macKey: CryptoKey; encKey: CryptoKey } | GcmKey

const encoder = new TextEncoder()
const utf8 = new TextDecoder("utf-8", { fatal: true })

/** jose decodes into a fresh, non-shared buffer; the cast only restates that for WebCrypto's types. */
const fromBase64url = (segment: string) => base64url.decode(segment) as Uint8Array<ArrayBuffer>

/** Imports a 32-byte A256GCM key. */
export async function importGcmKey(raw: Uint8Array<ArrayBuffer>): Promise<GcmKey> {
  const gcmKey = await crypto.subtle.importKey("raw", raw, "AES-GCM", false, ["decrypt"])
  return { enc: "A256GCM", gcmKey }
}

async function importKey(raw: Uint8Array<ArrayBuffer>, enc: ContentEncryption): Promise<WebKey> {
  const subtle = crypto.subtle
  if (enc === "A256GCM") return importGcmKey(raw)
  // RFC 7518 5.2.2.1: the first half of the key authenticates, the second half encrypts.
  const hmac = { name: "HMAC", hash: "SHA-512" }
  const [macKey, encKey] = await Promise.all([
    subtle.importKey("raw", raw.subarray(0, 32), hmac, false, ["sign"]),
    subtle.importKey("raw", raw.subarray(32), "AES-CBC", false, ["encrypt", "decrypt"]),
  ])
  return { enc, macKey, encKey }
}

/** AAD || IV || ciphertext || AL, where AL is the AAD length in bits as a 64-bit big-endian. */
function macInput(aad: Uint8Array, iv: Uint8Array, ciphertext: Uint8Array): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(aad.length + iv.length + ciphertext.length + 8)
  out.set(aad, 0)
  out.set(iv, aad.length)
  out.set(ciphertext, aad.length + iv.length)
  new DataView(out.buffer).setBigUint64(out.length - 8, BigInt(aad.length) * 8n)
  return out
}

async function cbcTag(macKey: CryptoKey, data: Uint8Array<ArrayBuffer>): Promise<Uint8Array> {
  const mac = await crypto.subtle.sign("HMAC", macKey, data)
  return new Uint8Array(mac, 0, 32)
}

/** Compares without an early exit, so the time taken does not reveal where two tags differ. */
function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false
  let diff = 0
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!
  return diff === 0
}

async function seal(key: WebKey, header: string, plaintext: string): Promise<string> {
  if (key.enc !== "A256CBC-HS512") throw new TypeError("authlib only encrypts with A256CBC-HS512")
  const iv = randomBytes(16)
  const algorithm = { name: "AES-CBC", iv }
  const encrypted = await crypto.subtle.encrypt(algorithm, key.encKey, encoder.encode(plaintext))
  const ciphertext = new Uint8Array(encrypted)
  const tag = await cbcTag(key.macKey, macInput(encoder.encode(header), iv, ciphertext))
  const b64 = base64url.encode
  return `${header}..${b64(iv)}.${b64(ciphertext)}.${b64(tag)}`
}

async function openCbc(key: Exclude<WebKey, GcmKey>, parts: SealedParts) {
  const iv = fromBase64url(parts.iv)
  const ciphertext = fromBase64url(parts.ciphertext)
  const expected = await cbcTag(key.macKey, macInput(encoder.encode(parts.header), iv, ciphertext))
  if (!constantTimeEqual(expected, fromBase64url(parts.tag))) return null
  try {
    return await crypto.subtle.decrypt({ name: "AES-CBC", iv }, key.encKey, ciphertext)
  } catch {
    return null // bad padding under a valid tag: only a holder of the key can produce it
  }
}

async function openGcm(key: GcmKey, parts: SealedParts) {
  const iv = fromBase64url(parts.iv)
  const ciphertext = fromBase64url(parts.ciphertext)
  const tag = fromBase64url(parts.tag)
  const sealed = new Uint8Array(ciphertext.length + tag.length)
  sealed.set(ciphertext)
  sealed.set(tag, ciphertext.length)
  const algorithm = { name: "AES-GCM", iv, additionalData: encoder.encode(parts.header), tagLength: 128 }
  try {
    return await crypto.subtle.decrypt(algorithm, key.gcmKey, sealed)
  } catch {
    return null
  }
}

/** Decodes authenticated plaintext; invalid UTF-8 is a payload error, not a decryption failure. */
export function decodeUtf8(bytes: ArrayBuffer | Uint8Array): string {
  try {
    return utf8.decode(bytes)
  } catch {
    throw tokenError("PAYLOAD_INVALID", "JWT payload is not valid UTF-8")
  }
}

async function open(key: WebKey, parts: SealedParts): Promise<string | null> {
  const plaintext = key.enc === "A256GCM" ? await openGcm(key, parts) : await openCbc(key, parts)
  return plaintext === null ? null : decodeUtf8(plaintext)
}

/** The WebCrypto implementation of {@link JweCrypto}. */
export const webCrypto: JweCrypto<WebKey> = { importKey, seal, open }

/** No synchronous SHA-256 is built into WebCrypto (`digest` is asynchronous): callers use their own (see `FastSha256`). */
export const fastSha256: FastSha256 | undefined = undefined
