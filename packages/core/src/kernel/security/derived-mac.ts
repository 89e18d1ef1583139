/**
 * MACs under keys derived from the auth secret, one key per purpose: HMAC-SHA256 keyed with
 * HKDF-SHA256(ikm = secret, info = purpose, 32 bytes). A separate key per purpose means a MAC made
 * for one purpose (a device mark, a backup code's hash) can never stand for a value of another.
 *
 * Synchronous (`@noble/hashes`, pure JS: every runtime, no thread-pool round trip) because its
 * callers sit on the sign-in path. The keyed HMAC state is made once per (purpose, secret) and
 * cloned for each MAC: keying is two of a short MAC's four compressions.
 */
import { hkdf } from "@noble/hashes/hkdf.js"
import { hmac, type _HMAC } from "@noble/hashes/hmac.js"
import { sha256 } from "@noble/hashes/sha2.js"

type Hmac = _HMAC<ReturnType<typeof sha256.create>>

const encoder = new TextEncoder()
/** Keyed states by purpose and secret; emptied when full, so a caller cycling secrets cannot grow it. */
const keyed = new Map<string, Hmac>()
const KEYED_MAX = 32
/** Where a keyed state is copied for one MAC: reused, since a MAC is computed synchronously, start to end. */
let scratch: Hmac | undefined

function keyedHmac(secret: string, purpose: string): Hmac {
  // Length-prefixed, so no (purpose, secret) pair can collide with another.
  const id = `${purpose.length}:${purpose}:${secret}`
  let base = keyed.get(id)
  if (!base) {
    base = hmac.create(sha256, hkdf(sha256, encoder.encode(secret), undefined, encoder.encode(purpose), 32))
    if (keyed.size >= KEYED_MAX) keyed.clear()
    keyed.set(id, base)
  }
  return base
}

/**
 * HMAC-SHA256 of `message` (a string is taken as UTF-8) under the key derived from `secret` for
 * `purpose` (a fixed, versioned label such as `"authlib device mark v1"`). 32 bytes; callers may
 * truncate.
 */
export function derivedMac(secret: string, purpose: string, message: string | Uint8Array): Uint8Array {
  const mac = (scratch = keyedHmac(secret, purpose)._cloneInto(scratch))
  return mac.update(typeof message === "string" ? encoder.encode(message) : message).digest()
}
