/**
 * The TOTP key at rest: sealed with `@authlib/jwt`'s `encode` (JWE `dir` + `A256CBC-HS512`, the
 * key HKDF-derived from the auth secret with this module's own salt), the construction session
 * tokens use, so rotation works the same way: the first secret seals, every secret of the list
 * opens. A leaked table holds no usable secret without the auth secret.
 *
 * The sealed value names the user it belongs to, and `openTotpKey` refuses it for anyone else:
 * someone who can write the table cannot copy their own enrolment onto another user's row to pass
 * that user's second factor.
 */
import { decode, encode, JWTSessionError } from "@authlib/jwt"
import { Configuration } from "../../kernel/errors/errors.js"
import { base32Decode, base32Encode } from "./base32.js"
import type { TotpAlgorithm, TotpDigits, TotpKey } from "./totp.js"

/** The key-derivation salt: a label of its own, so no other sealed value of authlib opens as a TOTP key. */
const SALT = "authlib.two-factor-secret"
/** A sealed key does not expire (it lives until the user disables two-factor): a century, as `encode` wants a lifetime. */
const MAX_AGE = 100 * 365 * 24 * 60 * 60

interface SealedPayload extends Record<string, unknown> {
  sub: string
  /** The secret, base32. */
  key: string
  alg: TotpAlgorithm
  digits: TotpDigits
  period: number
}

/** A key opened from its sealed form. */
export interface OpenedTotpKey {
  key: TotpKey
  /**
   * Sealed with a secret other than the first (an older one of the rotation list): seal it again
   * (`sealTotpKey`) and store that, so the older secret can be retired without re-enrolment.
   */
  stale: boolean
}

/** `key` sealed for `userId` with the first of `secrets` (the auth secret list, newest first). */
export async function sealTotpKey(key: TotpKey, userId: string, secrets: readonly string[]): Promise<string> {
  const token: SealedPayload = { sub: userId, key: base32Encode(key.secret), alg: key.algorithm, digits: key.digits, period: key.period }
  return encode({ token, secret: secrets[0]!, salt: SALT, maxAge: MAX_AGE })
}

const unreadable = (userId: string, reason: string, err?: unknown) =>
  new Configuration(
    `The two-factor secret of user "${userId}" cannot be opened (${reason}): was the auth secret replaced without keeping the old one in the list, or was the stored record altered?`,
    { code: "TWO_FACTOR_SECRET_UNREADABLE", cause: { userId, reason, ...(err instanceof Error ? { err } : {}) } },
  )

/** Whether `err` says "not this secret" (try the next), rather than "not a sealed key at all". */
const wrongSecret = (err: unknown) => err instanceof JWTSessionError && (err.code === "KID_UNKNOWN" || err.code === "DECRYPTION_FAILED")

async function openWith(sealed: string, secrets: readonly string[]): Promise<Record<string, unknown> | null> {
  return decode({ token: sealed, secret: [...secrets], salt: SALT })
}

/**
 * Opens a key sealed by `sealTotpKey` for `userId`. Throws `Configuration`
 * (`TWO_FACTOR_SECRET_UNREADABLE`, logged in full, shown as a server error) when no secret of the
 * list opens it, when it was sealed for another user, or when its contents are not a key.
 */
export async function openTotpKey(sealed: string, userId: string, secrets: readonly string[]): Promise<OpenedTotpKey> {
  let payload: Record<string, unknown> | null
  let stale = false
  try {
    try {
      payload = await openWith(sealed, secrets.slice(0, 1))
    } catch (err) {
      if (!wrongSecret(err) || secrets.length < 2) throw err
      payload = await openWith(sealed, secrets.slice(1))
      stale = true
    }
  } catch (err) {
    throw unreadable(userId, err instanceof JWTSessionError ? err.code ?? "decode failed" : "decode failed", err)
  }
  if (!payload || payload.sub !== userId) throw unreadable(userId, "sealed for another user")
  return { key: keyOf(payload, userId), stale }
}

function keyOf(payload: Record<string, unknown>, userId: string): TotpKey {
  const { key, alg, digits, period } = payload as Partial<SealedPayload>
  if (typeof key !== "string" || (alg !== "SHA-1" && alg !== "SHA-256" && alg !== "SHA-512") || (digits !== 6 && digits !== 7 && digits !== 8) || !Number.isInteger(period)) {
    throw unreadable(userId, "not a TOTP key")
  }
  return Object.freeze({ secret: base32Decode(key), algorithm: alg, digits, period: period as number })
}
