/**
 * Backup codes: one-time codes a user keeps on paper for when the authenticator is gone. Shown
 * once, stored only as keyed hashes, each usable once (`useTwoFactorBackupCode` deletes the hash
 * in one conditional write).
 *
 * A code is 12 symbols of Crockford's base32 (digits and upper-case letters without I, L, O, U),
 * shown as three groups of four: `7KQ2-M9XD-4TRB`. Each symbol carries 5 bits, so a code holds
 * 60 bits of entropy (10 codes: a guess hits one with probability 10 / 2^60). Input is read
 * forgivingly: case, spaces and dashes do not matter, and O, I and L read as 0, 1 and 1.
 *
 * Why a fast keyed hash and not a password hash (bcrypt, Argon2): those slow down guessing of
 * low-entropy secrets people choose. These codes are random with 60 bits, so even an unkeyed
 * SHA-256 would take 2^59 tries on average per code offline; the key (derived from the auth
 * secret) goes further: without the secret, a leaked table cannot be tested at all. Online,
 * guesses meet the two-factor rate limit long before luck could matter.
 */
import { base64url } from "../../kernel/security/random.js"
import { derivedMac } from "../../kernel/security/derived-mac.js"

/** How many codes a set has. */
export const BACKUP_CODE_COUNT = 10
/** Entropy of one code, in bits: 12 symbols of 5 bits. */
export const BACKUP_CODE_BITS = 60

/** Crockford's base32: no I, L, O or U, so no symbol is mistaken for another. */
const ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
const SYMBOLS = 12
const GROUP = 4
/** The key-derivation label: backup-code hashes have a key of their own. */
const PURPOSE = "authlib two-factor backup code v1"
/** Longest input looked at: a code with generous spacing. */
const MAX_INPUT = 64
/** Separators people type or paste: whitespace, ASCII and Unicode dashes. */
const SEPARATORS = /[\s\-\u2010-\u2015\u2212]/g
const CANONICAL = /^[0-9A-HJKMNP-TV-Z]{12}$/

/**
 * `count` new codes, formatted for display (`XXXX-XXXX-XXXX`). Each symbol comes from one random
 * byte's low 5 bits: 256 is a multiple of 32, so every symbol is equally likely.
 */
export function generateBackupCodes(count: number = BACKUP_CODE_COUNT): string[] {
  if (!Number.isInteger(count) || count < 1 || count > 100) throw new RangeError(`backup code count must be an integer from 1 to 100, got ${count}`)
  const random = crypto.getRandomValues(new Uint8Array(count * SYMBOLS))
  return Array.from({ length: count }, (_, c) => {
    let code = ""
    for (let i = 0; i < SYMBOLS; i++) code += (i > 0 && i % GROUP === 0 ? "-" : "") + ALPHABET[random[c * SYMBOLS + i]! & 31]
    return code
  })
}

/**
 * The canonical form of what a user typed (12 symbols, upper case, no separators; O, I and L
 * read as 0, 1 and 1), or `null` when it cannot be a backup code. Hostile input is cheap to
 * refuse: anything over 64 characters is not looked at.
 */
export function normalizeBackupCode(input: string): string | null {
  if (typeof input !== "string" || input.length > MAX_INPUT) return null
  const code = input.replace(SEPARATORS, "").toUpperCase().replace(/O/g, "0").replace(/[IL]/g, "1")
  return CANONICAL.test(code) ? code : null
}

/**
 * The stored form of a code of `userId`: HMAC-SHA256 (key derived from `secret`, see the top of
 * this file) of the user id and the canonical code, base64url. The user id is part of the MAC,
 * so equal codes of two users hash apart and a hash copied to another user's row matches nothing.
 * `code` may be displayed or typed; it is normalised first. Throws `TypeError` when it is not a code.
 */
export function hashBackupCode(code: string, userId: string, secret: string): string {
  const canonical = normalizeBackupCode(code)
  if (canonical === null) throw new TypeError("not a backup code")
  return base64url(derivedMac(secret, PURPOSE, `${userId.length}:${userId}:${canonical}`))
}

/**
 * The hashes under which a typed code may be stored for `userId`, one per secret of the rotation
 * list (a code hashed before a rotation is still found), for `useTwoFactorBackupCode`; `null`
 * when the input is not a backup code at all (then nothing needs to be asked of the store).
 */
export function backupCodeCandidates(input: string, userId: string, secrets: readonly string[]): string[] | null {
  if (normalizeBackupCode(input) === null) return null
  return [...new Set(secrets.map((secret) => hashBackupCode(input, userId, secret)))]
}

