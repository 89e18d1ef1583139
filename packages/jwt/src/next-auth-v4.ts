/**
 * Reading NextAuth.js v4's session tokens, so that an app moving from v4 signs no one out. Read
 * only: authlib never writes this format.
 *
 * next-auth 4.x (`next-auth/jwt`, confirmed against the source of next-auth 4.24.15's jwt module) seals a session
 * token as a compact JWE `dir` + `A256GCM` with the protected header `{"alg":"dir","enc":"A256GCM"}`
 * (no `kid`), under a 32-byte key HKDF-SHA-256(ikm = secret, salt = "", info = "NextAuth.js
 * Generated Encryption Key"), and checks `exp` with 15 s of tolerance. The salt is empty for
 * session tokens whatever the cookie is called, unlike Auth.js v5 (salt = cookie name).
 */
import { checkClaims, nowSeconds, parsePayload } from "./claims.js"
import { checkSegments, parseHeader, splitCompact } from "./compact.js"
import type { JweCrypto } from "./crypto/interface.js"
import { tokenError } from "./errors.js"
import { secretsOf } from "./params.js"
import type { JWT, NextAuthV4DecodeParams } from "./types.js"

/** The HKDF info of v4's session-token key (its salt is empty). */
const V4_INFO = "NextAuth.js Generated Encryption Key"

/**
 * The encoded protected header every v4 session token starts with: base64url of
 * `{"alg":"dir","enc":"A256GCM"}`, as jose's `EncryptJWT` serialises what v4 sets.
 */
const V4_HEADER = "eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0"

/**
 * Whether `token` has the shape of a NextAuth.js v4 session token: its protected header is the one
 * v4 writes, byte for byte. A look at the first 40 characters, no decoding; it says nothing of the
 * token's validity. Early Auth.js v5 betas wrote the same header (with another key), so a token of
 * this shape that v4's key does not open may still be one of theirs.
 */
export function isNextAuthV4Token(token: unknown): boolean {
  return typeof token === "string" && token.length > V4_HEADER.length && token.startsWith(V4_HEADER) && token.charCodeAt(V4_HEADER.length) === 46 // "."
}

const encoder = new TextEncoder()

/** HKDF-SHA-256(secret, salt "", info {@link V4_INFO}), 32 bytes: v4's session-token key. */
async function deriveV4Key(secret: string): Promise<Uint8Array<ArrayBuffer>> {
  const ikm = await crypto.subtle.importKey("raw", encoder.encode(secret), "HKDF", false, ["deriveBits"])
  const params = { name: "HKDF", hash: "SHA-256", salt: new Uint8Array(0), info: encoder.encode(V4_INFO) }
  return new Uint8Array(await crypto.subtle.deriveBits(params, ikm, 256))
}

/** Looks up (or derives once) the v4 key of a secret. */
export type V4KeyLookup<K> = (secret: string) => Promise<K>

/**
 * A cache of v4 keys per secret, at most `capacity` (oldest dropped): an app has one secret, or a
 * few in rotation. A failed derivation is not cached. v4 tokens come once per browser (they are
 * re-issued in authlib's format), so this never sits on a hot path.
 */
export function createV4KeyCache<K>(backend: JweCrypto<K>, capacity = 8): V4KeyLookup<K> {
  const cache = new Map<string, Promise<K>>()
  return (secret) => {
    const hit = cache.get(secret)
    if (hit !== undefined) return hit
    const pending = deriveV4Key(secret).then(async (raw) => {
      try {
        return await backend.importKey(raw, "A256GCM")
      } finally {
        raw.fill(0)
      }
    })
    pending.catch(() => {
      if (cache.get(secret) === pending) cache.delete(secret)
    })
    cache.set(secret, pending)
    if (cache.size > capacity) cache.delete(cache.keys().next().value as string)
    return pending
  }
}

/** What the v4 decoder needs from its runtime. */
export interface V4DecodeContext<K> {
  crypto: JweCrypto<K>
  v4Keys: V4KeyLookup<K>
}

/**
 * Decrypts and validates a v4 session token with each secret in order. Resolves `null` for no
 * token; rejects with a `JWTSessionError` (stable `code`) for any token that is not a valid v4 one.
 */
export async function decodeNextAuthV4With<K>(ctx: V4DecodeContext<K>, params: NextAuthV4DecodeParams): Promise<JWT | null> {
  const secrets = secretsOf(params?.secret, "decode")
  const token: unknown = params.token
  if (token === undefined || token === null || token === "") return null
  const parts = splitCompact(token)
  const header = parseHeader(parts.header)
  if (header.enc !== "A256GCM") {
    throw tokenError("ENC_UNSUPPORTED", 'A NextAuth.js v4 token is "dir" + "A256GCM"', { received: header.enc })
  }
  checkSegments(parts, "A256GCM")
  for (const secret of secrets) {
    const plaintext = await ctx.crypto.open(await ctx.v4Keys(secret), parts)
    if (plaintext === null) continue
    const payload = parsePayload(plaintext)
    checkClaims(header.fields, payload, nowSeconds())
    return payload
  }
  throw tokenError("DECRYPTION_FAILED", "NextAuth.js v4 token could not be decrypted with any of the secrets", { secrets: secrets.length })
}
