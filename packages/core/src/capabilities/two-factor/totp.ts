/**
 * TOTP (RFC 6238) over HOTP (RFC 4226): the codes of authenticator apps. HMAC comes from
 * `@noble/hashes` (pure JS, every runtime, synchronous: a check costs three HMACs of 8 bytes and
 * no thread-pool round trip, which `crypto.subtle` costs per call on Node).
 *
 * Replay: `verifyTotp` answers the time step a code matched, so the caller stores it and accepts
 * only later steps (RFC 6238 §5.2: a code is accepted at most once). The store's conditional write
 * (`recordTwoFactorStep`) is what makes that hold across instances.
 */
import { hmac } from "@noble/hashes/hmac.js"
import { sha1 } from "@noble/hashes/legacy.js"
import { sha256, sha512 } from "@noble/hashes/sha2.js"
import { timingSafeEqual } from "../../kernel/security/random.js"
import { base32Decode } from "./base32.js"
import { TwoFactorError } from "./errors.js"

/** The HMAC hashes of RFC 6238; SHA-1 is the default and the one every authenticator app supports. */
export type TotpAlgorithm = "SHA-1" | "SHA-256" | "SHA-512"
/** Code lengths RFC 4226 allows (§5.3: at least 6). */
export type TotpDigits = 6 | 7 | 8

/** A TOTP key: the shared secret and the parameters an authenticator app needs to make its codes. */
export interface TotpKey {
  /** The shared secret (20 random bytes for keys made here, RFC 4226 §4's recommended length). */
  readonly secret: Uint8Array
  readonly algorithm: TotpAlgorithm
  readonly digits: TotpDigits
  /** Seconds per time step. */
  readonly period: number
}

/** The parameters of a key, each optional: SHA-1, 6 digits, 30 seconds by default. */
export type TotpParameters = Partial<Pick<TotpKey, "algorithm" | "digits" | "period">>

/** What authenticator apps assume when a URI says nothing else. */
export const TOTP_DEFAULTS = Object.freeze({ algorithm: "SHA-1", digits: 6, period: 30 } as const satisfies Omit<TotpKey, "secret">)
/** Bytes of a new secret: 160 bits, the length RFC 4226 §4 recommends (and SHA-1's output). */
export const TOTP_SECRET_BYTES = 20
/** Shortest secret accepted on import: 128 bits (RFC 4226 §4, requirement R6). */
export const TOTP_MIN_SECRET_BYTES = 16

const HASHES = { "SHA-1": sha1, "SHA-256": sha256, "SHA-512": sha512 } as const

function checkedParameters(params: TotpParameters): Omit<TotpKey, "secret"> {
  const { algorithm = TOTP_DEFAULTS.algorithm, digits = TOTP_DEFAULTS.digits, period = TOTP_DEFAULTS.period } = params
  if (!(algorithm in HASHES)) throw new TypeError(`TOTP "algorithm" must be "SHA-1", "SHA-256" or "SHA-512", got ${String(algorithm)}`)
  if (digits !== 6 && digits !== 7 && digits !== 8) throw new TypeError(`TOTP "digits" must be 6, 7 or 8, got ${String(digits)}`)
  if (!Number.isInteger(period) || period < 1 || period > 300) throw new TypeError(`TOTP "period" must be a whole number of seconds from 1 to 300, got ${String(period)}`)
  return { algorithm, digits, period }
}

/** A new key: 20 bytes from `crypto.getRandomValues` and the given (or default) parameters. */
export function createTotpKey(params: TotpParameters = {}): TotpKey {
  return Object.freeze({ secret: crypto.getRandomValues(new Uint8Array(TOTP_SECRET_BYTES)), ...checkedParameters(params) })
}

/**
 * A key from an existing base32 secret (as another service or app shows it), so a user keeps
 * their enrolled authenticator. Throws `TwoFactorError` `SECRET_INVALID` for a string that is not
 * base32 or decodes to fewer than 16 bytes.
 */
export function importTotpKey(base32Secret: string, params: TotpParameters = {}): TotpKey {
  const secret = base32Decode(base32Secret)
  if (secret.length < TOTP_MIN_SECRET_BYTES) {
    throw new TwoFactorError(`a TOTP secret must have at least ${TOTP_MIN_SECRET_BYTES} bytes (${Math.ceil((TOTP_MIN_SECRET_BYTES * 8) / 5)} base32 characters)`, {
      code: "SECRET_INVALID",
      cause: { bytes: secret.length },
    })
  }
  return Object.freeze({ secret, ...checkedParameters(params) })
}

/** The time step (RFC 6238's T) of `timeMs` for a period of `period` seconds. */
export function totpStep(timeMs: number, period: number = TOTP_DEFAULTS.period): number {
  return Math.floor(timeMs / 1000 / period)
}

/** The HOTP value (RFC 4226 §5.3) of `counter`: dynamic truncation, then `digits` decimal digits, zero-padded. */
export function hotp(key: Pick<TotpKey, "secret" | "algorithm" | "digits">, counter: number): string {
  if (!Number.isSafeInteger(counter) || counter < 0) throw new RangeError(`HOTP counter must be a safe non-negative integer, got ${counter}`)
  const message = new Uint8Array(8)
  const view = new DataView(message.buffer)
  view.setUint32(0, Math.floor(counter / 2 ** 32))
  view.setUint32(4, counter >>> 0)
  const mac = hmac(HASHES[key.algorithm], key.secret, message)
  const offset = mac[mac.length - 1]! & 0x0f
  const binary = (((mac[offset]! & 0x7f) << 24) | (mac[offset + 1]! << 16) | (mac[offset + 2]! << 8) | mac[offset + 3]!) >>> 0
  return String(binary % 10 ** key.digits).padStart(key.digits, "0")
}

/** The TOTP code of `key` at `timeMs` (milliseconds since the epoch). */
export function totp(key: TotpKey, timeMs: number): string {
  return hotp(key, totpStep(timeMs, key.period))
}

/** Options of `verifyTotp`. */
export interface VerifyTotpOptions {
  /** The time to check against, in milliseconds since the epoch. */
  timeMs: number
  /**
   * The last time step accepted for this key (stored by the caller); only later steps match, so a
   * code is never accepted twice. `null` or absent: none yet.
   */
  lastUsedStep?: number | null
  /** Steps accepted either side of the current one, for clock drift: 1 (±30 s) by default, at most 2. */
  window?: 0 | 1 | 2
}

/** Longest input looked at: a code with a few spaces. */
const MAX_CODE_INPUT = 32

/**
 * Checks `code` (digits; spaces between them are ignored) against the steps from `window` before
 * to `window` after the current one, skipping steps at or before `lastUsedStep`. Answers the time
 * step that matched, for the caller to record, or `null`. Every candidate is computed and compared
 * in constant time, so timing tells neither which step matched nor how much of the code was right.
 */
export function verifyTotp(key: TotpKey, code: string, options: VerifyTotpOptions): number | null {
  const window = options.window ?? 1
  if (window !== 0 && window !== 1 && window !== 2) throw new RangeError(`TOTP "window" must be 0, 1 or 2, got ${String(window)}`)
  if (typeof code !== "string" || code.length > MAX_CODE_INPUT) return null
  const digits = code.replace(/ /g, "")
  if (digits.length !== key.digits || !/^[0-9]+$/.test(digits)) return null
  const current = totpStep(options.timeMs, key.period)
  const after = options.lastUsedStep ?? -1
  let matched: number | null = null
  for (let step = current - window; step <= current + window; step++) {
    if (step < 0 || step <= after) continue
    // No early exit: the loop does the same work whichever step matches.
    if (timingSafeEqual(hotp(key, step), digits) && matched === null) matched = step
  }
  return matched
}
