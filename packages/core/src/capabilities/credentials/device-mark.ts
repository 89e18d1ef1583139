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
import { deviceMarkCookieName } from "../../kernel/cookies/names.js"
import { fixedCookie, type Cookie } from "../../kernel/cookies/serialize.js"
import { derivedMac } from "../../kernel/security/derived-mac.js"
import { base64url, randomToken, timingSafeEqual } from "../../kernel/security/random.js"

/** Seconds a device mark stays valid (and its cookie's `Max-Age`): 30 days. */
export const DEVICE_MARK_MAX_AGE = 30 * 24 * 60 * 60

// A key of its own (HKDF-SHA256 of the secret), so a mark's MAC can never be replayed as any other value made with the secret.
const PURPOSE = "authlib device mark v1"
/** Longest cookie value looked at: a real mark is about 50 characters. */
const MAX_MARK_LENGTH = 128

/** 128 bits of HMAC-SHA256: plenty for a MAC checked online, and a shorter cookie. */
function macOf(secret: string, expires: string, nonce: string, identifier: string): string {
  return base64url(derivedMac(secret, PURPOSE, `${expires}.${nonce}.${identifier}`).subarray(0, 16))
}

/**
 * Mark ids only need to be distinct (the MAC, not the id, is what cannot be forged): a random
 * prefix per process and a counter, instead of a `getRandomValues` call per sign-in.
 */
const PROCESS_PREFIX = randomToken(9)
let issued = 0

/** A mark that checked out: its id (the key of its counter) and whether it is due for renewal. */
export interface DeviceMark {
  readonly id: string
  /** Past half its life, or made with an older secret: a successful sign-in renews it. */
  readonly renew: boolean
}

/** How long a mark that checked out is taken on trust again without its MAC (see `verifiedDeviceMark`). */
const TRUST_MS = 60_000
/** A mark checked out lately: for which identifier, with which secret, until when, and its answers made once. */
interface Verified {
  readonly identifier: string
  readonly secret: string
  readonly until: number
  /** The cookie's expiry, in milliseconds. */
  readonly expiresMs: number
  /** The mark, renewal not yet due; and the same mark due for renewal. */
  readonly kept: DeviceMark
  readonly due: DeviceMark
}
/**
 * Marks that checked out lately, by cookie value (so a trusted mark is not split, parsed or
 * answered with a new object again); emptied when full.
 */
const verified = new Map<string, Verified>()
const VERIFIED_MAX = 4096

/** Past half its life (its expiry `expiresMs` less half the mark's life), a mark is due for renewal. */
const HALF_LIFE_MS = (DEVICE_MARK_MAX_AGE * 1000) / 2

/** The mark `known` made with `secrets[index]`, at `nowMs`. */
function markOf(known: Verified, index: number, nowMs: number): DeviceMark {
  return index > 0 || known.expiresMs - nowMs < HALF_LIFE_MS ? known.due : known.kept
}

/**
 * The mark in `value` when it is valid for `identifier` (already normalised) at `nowMs`, checked
 * against every secret; undefined for anything else (absent, malformed, expired, another identifier).
 * A mark that checked out is taken again for the same identifier and a secret still configured
 * for a minute (in this process) without its MAC: one MAC per mark and identifier per minute, not
 * one per sign-in. The cookie's expiry is still checked every time.
 */
export function verifiedDeviceMark(value: string | undefined, identifier: string, secrets: readonly string[], nowMs: number): DeviceMark | undefined {
  if (!value || value.length > MAX_MARK_LENGTH) return undefined
  // Only a value that passed every check below is in `verified`: its format holds again; its expiry is checked.
  const known = verified.get(value)
  if (known && known.identifier === identifier && nowMs < known.until && nowMs >= known.until - TRUST_MS && known.expiresMs > nowMs) {
    const index = secrets.indexOf(known.secret)
    if (index >= 0) return markOf(known, index, nowMs)
  }
  const parts = value.split(".")
  if (parts.length !== 3) return undefined
  const [expires, nonce, mac] = parts as [string, string, string]
  if (!/^[0-9]{1,12}$/.test(expires) || Number(expires) * 1000 <= nowMs || nonce === "" || mac === "") return undefined
  for (let i = 0; i < secrets.length; i++) {
    if (!timingSafeEqual(mac, macOf(secrets[i]!, expires, nonce, identifier))) continue
    if (verified.size >= VERIFIED_MAX) verified.clear()
    const checked: Verified = { identifier, secret: secrets[i]!, until: nowMs + TRUST_MS, expiresMs: Number(expires) * 1000, kept: Object.freeze({ id: nonce, renew: false }), due: Object.freeze({ id: nonce, renew: true }) }
    verified.set(value, checked)
    return markOf(checked, i, nowMs)
  }
  return undefined
}

/** The attributes of a mark cookie, made once. */
const OPTIONS = [false, true].map((secure) => Object.freeze({ httpOnly: true, sameSite: "lax" as const, path: "/", secure, maxAge: DEVICE_MARK_MAX_AGE }))

/** How long a mark just made is handed out again for the same identifier (see `deviceMarkCookie`). */
const REUSE_MS = 60_000
/**
 * The latest mark per identifier (and the secret it was made with), with its cookie per value of
 * `secure` once made; emptied when full, so memory stays bounded.
 */
const recent = new Map<string, { value: string; madeAt: number; secret: string; cookies: [Cookie | undefined, Cookie | undefined] }>()
const RECENT_MAX = 4096

/**
 * A mark for `identifier` (normalised): HttpOnly, SameSite=Lax, `__Secure-` and Secure on https.
 * Sign-ins of one identifier within a minute (in this process) get the same mark: one MAC per
 * identifier per minute instead of one per sign-in, which keeps a sign-in's cost within its budget
 * when a script or a load test signs in over and over. Only those browsers share a counter, and
 * each of them has proved the password. Within that minute the same frozen cookie object is
 * answered, its `Set-Cookie` text made once (`fixedCookie`).
 */
export function deviceMarkCookie(identifier: string, secret: string, secure: boolean, nowMs: number): Cookie {
  let made = recent.get(identifier)
  if (!made || made.secret !== secret || nowMs - made.madeAt >= REUSE_MS || nowMs < made.madeAt) {
    const expires = String(Math.floor(nowMs / 1000) + DEVICE_MARK_MAX_AGE)
    const nonce = PROCESS_PREFIX + (issued++).toString(36)
    made = { value: `${expires}.${nonce}.${macOf(secret, expires, nonce, identifier)}`, madeAt: nowMs, secret, cookies: [undefined, undefined] }
    if (recent.size >= RECENT_MAX) recent.clear()
    recent.set(identifier, made)
  }
  const which = secure ? 1 : 0
  return (made.cookies[which] ??= fixedCookie({ name: deviceMarkCookieName(secure), value: made.value, options: OPTIONS[which]! }))
}
