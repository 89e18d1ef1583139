import { base64url, calculateJwkThumbprint } from "jose"
import { KEY_BYTES } from "./crypto/interface.js"
import type { ContentEncryption, JweCrypto } from "./crypto/interface.js"

/** A derived key ready for use, with the identifiers a token carries for it. */
export interface KeyEntry<K> {
  enc: ContentEncryption
  /** JWK thumbprint of the raw key (SHA-512 for 64-byte keys, SHA-256 for 32-byte ones). */
  kid: string
  /** The encoded protected header `{"alg":"dir","enc":...,"kid":...}` as `encode` writes it. */
  header: string
  /** That header, parsed: what `decode` uses when a token carries it byte for byte. */
  parsed: { enc: ContentEncryption; kid: string; fields: Record<string, unknown> }
  key: K
}

/** Looks up (or derives once) the key for a secret, salt and algorithm. */
export type KeyLookup<K> = (
  secret: string,
  salt: string,
  enc: ContentEncryption,
) => KeyEntry<K> | Promise<KeyEntry<K>>

const encoder = new TextEncoder()

/**
 * HKDF-SHA-256(ikm = secret, salt, info = `Auth.js Generated Encryption Key (<salt>)`): the Auth.js
 * v5 construction, kept on purpose so tokens move between the two libraries.
 */
export async function deriveRawKey(
  secret: string,
  salt: string,
  enc: ContentEncryption,
): Promise<Uint8Array<ArrayBuffer>> {
  const ikm = await crypto.subtle.importKey("raw", encoder.encode(secret), "HKDF", false, [
    "deriveBits",
  ])
  const info = encoder.encode(`Auth.js Generated Encryption Key (${salt})`)
  const params = { name: "HKDF", hash: "SHA-256", salt: encoder.encode(salt), info }
  return new Uint8Array(await crypto.subtle.deriveBits(params, ikm, KEY_BYTES[enc] * 8))
}

/** The `kid` of a raw key: its JWK thumbprint with the digest size matching the key size. */
export function keyId(raw: Uint8Array<ArrayBuffer>): Promise<string> {
  const jwk = { kty: "oct", k: base64url.encode(raw) }
  return calculateJwkThumbprint(jwk, raw.length === 64 ? "sha512" : "sha256")
}

async function makeEntry<K>(
  backend: JweCrypto<K>,
  secret: string,
  salt: string,
  enc: ContentEncryption,
): Promise<KeyEntry<K>> {
  const raw = await deriveRawKey(secret, salt, enc)
  const [kid, key] = await Promise.all([keyId(raw), backend.importKey(raw, enc)])
  raw.fill(0)
  const fields = { alg: "dir", enc, kid }
  const header = base64url.encode(JSON.stringify(fields))
  return { enc, kid, header, parsed: Object.freeze({ enc, kid, fields: Object.freeze(fields) }), key }
}

/**
 * A least-recently-used cache of derived keys per (secret, salt, algorithm). HKDF plus the
 * thumbprint cost about as much as the decryption itself, so a hot decode must never redo them;
 * the bound keeps memory flat when callers pass many salts. Concurrent first uses share one
 * derivation; a failed derivation is not cached.
 */
export function createKeyCache<K>(backend: JweCrypto<K>, capacity = 64): KeyLookup<K> {
  const cache = new Map<string, KeyEntry<K> | Promise<KeyEntry<K>>>()
  // The last resolved lookup: an app decodes with one secret and salt, so most calls end here
  // without building the composite key (measured: that alone was 6% of a decode).
  let last: { secret: string; salt: string; entry: KeyEntry<K> } | undefined
  return (secret, salt, enc) => {
    if (last !== undefined && last.secret === secret && last.salt === salt && last.entry.enc === enc) {
      return last.entry
    }
    // Length-prefixing the salt keeps the composite key unambiguous for any strings.
    const id = `${enc}:${salt.length}:${salt}:${secret}`
    const hit = cache.get(id)
    if (hit !== undefined) {
      cache.delete(id)
      cache.set(id, hit)
      if (!(hit instanceof Promise)) last = { secret, salt, entry: hit }
      return hit
    }
    const pending = makeEntry(backend, secret, salt, enc).then(
      (entry) => {
        if (cache.get(id) === pending) cache.set(id, entry)
        return entry
      },
      (error: unknown) => {
        if (cache.get(id) === pending) cache.delete(id)
        throw error
      },
    )
    cache.set(id, pending)
    if (cache.size > capacity) cache.delete(cache.keys().next().value as string)
    return pending
  }
}
