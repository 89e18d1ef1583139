/**
 * Device marks (OWASP's "device cookies"): after a successful credentials sign-in the browser
 * gets a cookie saying "this browser signed in as <identifier>", HMAC'd with a key derived from the
 * auth secret, with an expiry. A later attempt for the same identifier that carries a valid mark is
 * counted on the mark's own counter, not on the identifier's: someone guessing the password from
 * elsewhere can slow every other browser down, never one the user has signed in with.
 *
 * The cookie holds `<expiry seconds>.<nonce>.<mac>` only: the identifier is not written into it,
 * it is part of what the MAC covers, so a mark checks out only for the identifier it was given for.
 * Everything here is synchronous (`@noble/hashes`): the check sits on the sign-in hot path.
 */
import { hkdf } from "@noble/hashes/hkdf.js"
import { hmac } from "@noble/hashes/hmac.js"
import { sha256 } from "@noble/hashes/sha2.js"
import { deviceMarkCookieName } from "../cookies/names.js"
import type { Cookie } from "../cookies/serialize.js"
import { base64url, randomToken, timingSafeEqual } from "../security/random.js"

/** Seconds a device mark stays valid (and its cookie's `Max-Age`): 30 days. */
export const DEVICE_MARK_MAX_AGE = 30 * 24 * 60 * 60

const encoder = new TextEncoder()
const INFO = encoder.encode("authlib device mark v1")
/** Longest cookie value looked at: a real mark is about 70 characters. */
const MAX_MARK_LENGTH = 128

/** Derived keys by secret: a secret's key is derived once per process. */
const keys = new Map<string, Uint8Array>()

function keyOf(secret: string): Uint8Array {
  let key = keys.get(secret)
  if (!key) {
    // A separate key (HKDF-SHA256), so a mark's MAC can never be replayed as any other value made with the secret.
    key = hkdf(sha256, encoder.encode(secret), undefined, INFO, 32)
    if (keys.size >= 16) keys.clear()
    keys.set(secret, key)
  }
  return key
}

const macOf = (secret: string, expires: string, nonce: string, identifier: string) =>
  base64url(hmac(sha256, keyOf(secret), encoder.encode(`${expires}.${nonce}.${identifier}`)))

/**
 * The nonce of a mark that is valid for `identifier` (already normalised) at `nowMs`, checked
 * against every secret; undefined for anything else (absent, malformed, expired, another identifier).
 */
export function verifiedDeviceMark(value: string | undefined, identifier: string, secrets: readonly string[], nowMs: number): string | undefined {
  if (!value || value.length > MAX_MARK_LENGTH) return undefined
  const parts = value.split(".")
  if (parts.length !== 3) return undefined
  const [expires, nonce, mac] = parts as [string, string, string]
  if (!/^[0-9]{1,12}$/.test(expires) || Number(expires) * 1000 <= nowMs || nonce === "" || mac === "") return undefined
  for (const secret of secrets) if (timingSafeEqual(mac, macOf(secret, expires, nonce, identifier))) return nonce
  return undefined
}

/** A new mark for `identifier` (normalised): HttpOnly, SameSite=Lax, `__Secure-` and Secure on https. */
export function deviceMarkCookie(identifier: string, secret: string, secure: boolean, nowMs: number): Cookie {
  const expires = String(Math.floor(nowMs / 1000) + DEVICE_MARK_MAX_AGE)
  const nonce = randomToken(16)
  return {
    name: deviceMarkCookieName(secure),
    value: `${expires}.${nonce}.${macOf(secret, expires, nonce, identifier)}`,
    options: { httpOnly: true, sameSite: "lax", path: "/", secure, maxAge: DEVICE_MARK_MAX_AGE },
  }
}
