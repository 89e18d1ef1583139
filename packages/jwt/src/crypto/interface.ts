/**
 * The seam between the token logic and the runtime's crypto. Two implementations exist:
 * `web.ts` (WebCrypto, every runtime) and `node.ts` (node:crypto, picked by the `node` export
 * condition). Everything outside this folder talks to crypto through these three functions, so
 * one test suite runs against both.
 */

/** The content encryption algorithms `decode` accepts; `encode` only ever writes the first. */
export type ContentEncryption = "A256CBC-HS512" | "A256GCM"

/** Raw key length in bytes per content encryption algorithm (RFC 7518 5.2.5 and 5.3). */
export const KEY_BYTES: Readonly<Record<ContentEncryption, number>> = {
  "A256CBC-HS512": 64,
  A256GCM: 32,
}

/** The base64url segments of a compact JWE that the cipher reads (the encrypted key is empty for `dir`). */
export interface SealedParts {
  /** The encoded protected header: the additional authenticated data, as ASCII. */
  header: string
  iv: string
  ciphertext: string
  tag: string
}

/**
 * The crypto operations of a direct-key JWE. `K` is the implementation's prepared key, made once
 * per derived key and cached with it.
 */
export interface JweCrypto<K> {
  /** Prepares a raw derived key (64 bytes for A256CBC-HS512, 32 for A256GCM) for repeated use. */
  importKey(raw: Uint8Array<ArrayBuffer>, enc: ContentEncryption): Promise<K>
  /**
   * Encrypts `plaintext` (UTF-8) with A256CBC-HS512 under a fresh random IV and returns the
   * compact serialisation `header..iv.ciphertext.tag`.
   */
  seal(key: K, header: string, plaintext: string): Promise<string>
  /**
   * Verifies the tag in constant time, then decrypts. Resolves `null` when authentication fails
   * (wrong key or tampered segment), never a partial plaintext. Segment sizes are checked by the
   * caller; the key's algorithm decides the cipher. Throws `PAYLOAD_INVALID` when the
   * authenticated plaintext is not UTF-8.
   */
  open(key: K, parts: SealedParts): Promise<string | null>
}

/**
 * A synchronous SHA-256 of a string (UTF-8), base64url without padding: the package's `fastSha256`,
 * a function in `node.ts` (node:crypto's one-shot hash) and `undefined` in `web.ts`, where no
 * synchronous SHA-256 is built in. Core hashes short strings on its hot paths with it (the CSRF
 * cookie's check, database session tokens) and keeps its own portable one for other runtimes.
 */
export type FastSha256 = (value: string) => string
