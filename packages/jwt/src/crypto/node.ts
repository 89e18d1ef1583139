/// <reference types="node" />
/**
 * The node:crypto fast path for `dir` + `A256CBC-HS512`, the only place in the package that uses
 * Node APIs. On Node 20 each WebCrypto call is a thread-pool job; node:crypto does the same AES-CBC
 * and HMAC work synchronously and several times faster. Legacy A256GCM tokens go to WebCrypto.
 * Byte compatibility with jose and RFC 7518 B.3 is proven in test/crypto.test.ts.
 */
import { Buffer, isUtf8 } from "node:buffer"
import * as cryptoModule from "node:crypto"
import { createCipheriv, createDecipheriv, createHash, createHmac, timingSafeEqual } from "node:crypto"
import { tokenError } from "../errors.js"
import { randomBytes } from "../random.js"
import type { ContentEncryption, FastSha256, JweCrypto, SealedParts } from "./interface.js"
import { importGcmKey, webCrypto } from "./web.js"
import type { GcmKey } from "./web.js"

/** Raw key halves for node:crypto, or a WebCrypto key for the legacy GCM path. */
export type NodeKey = { enc: "A256CBC-HS512"; macKey: Buffer; encKey: Buffer } | GcmKey

async function importKey(raw: Uint8Array<ArrayBuffer>, enc: ContentEncryption): Promise<NodeKey> {
  if (enc === "A256GCM") return importGcmKey(raw)
  // RFC 7518 5.2.2.1: the first half of the key authenticates, the second half encrypts.
  const copy = Buffer.from(raw)
  return { enc, macKey: copy.subarray(0, 32), encKey: copy.subarray(32, 64) }
}

/** Scratch for AL: `update` copies synchronously, so one buffer serves every call. */
const al = Buffer.alloc(8)

/** HMAC-SHA-512 over AAD || IV || ciphertext || AL, truncated to its first 32 bytes. */
function cbcTag(macKey: Buffer, header: string, iv: Buffer, ciphertext: Buffer): Buffer {
  al.writeUInt32BE(header.length * 8, 4) // AL fits 32 bits: a header is far below 512 MiB
  const hmac = createHmac("sha512", macKey)
  hmac.update(header, "latin1").update(iv).update(ciphertext).update(al)
  return hmac.digest().subarray(0, 32)
}

async function seal(key: NodeKey, header: string, plaintext: string): Promise<string> {
  if (key.enc !== "A256CBC-HS512") throw new TypeError("authlib only encrypts with A256CBC-HS512")
  const iv = Buffer.from(randomBytes(16).buffer)
  const cipher = createCipheriv("aes-256-cbc", key.encKey, iv)
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()])
  const tag = cbcTag(key.macKey, header, iv, ciphertext)
  return `${header}..${iv.toString("base64url")}.${ciphertext.toString("base64url")}.${tag.toString("base64url")}`
}

function decipher(encKey: Buffer, iv: Buffer, ciphertext: Buffer): Buffer | null {
  try {
    const d = createDecipheriv("aes-256-cbc", encKey, iv)
    return Buffer.concat([d.update(ciphertext), d.final()])
  } catch {
    return null // bad padding under a valid tag: only a holder of the key can produce it
  }
}

async function open(key: NodeKey, parts: SealedParts): Promise<string | null> {
  if (key.enc === "A256GCM") return webCrypto.open(key, parts)
  const iv = Buffer.from(parts.iv, "base64url")
  const ciphertext = Buffer.from(parts.ciphertext, "base64url")
  const tag = Buffer.from(parts.tag, "base64url")
  const expected = cbcTag(key.macKey, parts.header, iv, ciphertext)
  if (tag.length !== expected.length || !timingSafeEqual(tag, expected)) return null
  const plaintext = decipher(key.encKey, iv, ciphertext)
  if (plaintext === null) return null
  if (!isUtf8(plaintext)) throw tokenError("PAYLOAD_INVALID", "JWT payload is not valid UTF-8")
  return plaintext.toString("utf8")
}

/** The node:crypto implementation of {@link JweCrypto}. */
export const nodeCrypto: JweCrypto<NodeKey> = { importKey, seal, open }

// `crypto.hash` (Node 20.12+) skips the Hash object; a runtime that answers the `node` condition without it gets `createHash`.
const oneShot = (cryptoModule as { hash?: (algorithm: string, data: string, encoding: "base64url") => string }).hash

/** SHA-256 of `value` (UTF-8), base64url: several times faster than SHA-256 in JavaScript (see `FastSha256`). */
export const fastSha256: FastSha256 | undefined =
  typeof oneShot === "function" ? (value) => oneShot("sha256", value, "base64url") : (value) => createHash("sha256").update(value, "utf8").digest("base64url")
