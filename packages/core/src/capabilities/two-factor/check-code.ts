/**
 * The one check of a second-factor code, for a pending sign-in and for the signed-in user's own
 * changes alike: counted first (per user, and per pending sign-in when there is one), then a TOTP
 * code counted in the user's record and refused past the cap of wrong codes in a row
 * (`lockout.ts`), else accepted only for a time step later than the last one used (a conditional
 * write: two instances cannot both accept one code); any other code as a backup code, consumed
 * once. A right TOTP code of a step already used is `CODE_USED` (wait for the next code); every other
 * refusal is the same `CODE_INVALID`, whether the code was wrong or there is no second factor at all. A right code clears the user's counts, so the limits count guesses,
 * never a user's own sign-ins.
 */
import { TwoFactorError } from "./errors.js"
import { count, forgetCounts } from "../../kernel/rate-limit/limiter.js"
import { recordVerifiedFactor, type VerifiedFactor } from "../../kernel/sign-in/amr.js"
import type { Context } from "../../kernel/types/http.js"
import { backupCodeCandidates } from "./backup-codes.js"
import { attemptCeiling, totpAttemptFailed, totpLocked } from "./lockout.js"
import { openTotpKey } from "./secret-box.js"
import { twoFactorStore } from "./store.js"
import { verifyTotp } from "./totp.js"

/** Which factor a code proved. */
export type SecondFactor = "totp" | "backup-code"

/** The pending sign-in a code is checked for: its id keys the per-sign-in limit; `emailProvenAt` lets TOTP past the lock. */
export interface CodeForSignIn {
  id: string
  emailProvenAt?: number
}

/** What a TOTP code looks like (spaces removed): 6 to 8 digits. Anything else is tried as a backup code. */
const TOTP_SHAPE = /^\d{6,8}$/

const invalid = () => new TwoFactorError("The code is not valid", { code: "CODE_INVALID" })

/** Throws `TwoFactorError` `CODE_MISSING` unless `code` is a non-empty string of sane length. */
export function codeOf(code: unknown): string {
  if (typeof code !== "string" || code.trim() === "" || code.length > 64) throw new TwoFactorError('"code" is missing', { code: "CODE_MISSING" })
  return code
}

/** A TOTP or backup code as a second factor: a one-time code (RFC 8176 `otp`), a kind no first factor is. */
export const CODE_FACTOR: VerifiedFactor = { kind: "otp", amr: ["otp"] }

/** Records the factor for a session this request issues. */
function verifiedAs(ctx: Context, factor: SecondFactor): SecondFactor {
  recordVerifiedFactor(ctx, CODE_FACTOR)
  return factor
}

/**
 * Checks `code` for `userId` (for `pending`, the pending sign-in, when there is one); resolves the
 * factor it proved, or throws `CODE_INVALID`, `CODE_USED`, `TOTP_LOCKED` or `RateLimited`.
 */
export async function checkCode(ctx: Context, userId: string, code: string, pending?: CodeForSignIn): Promise<SecondFactor> {
  if (ctx.config.rateLimit) {
    await count(ctx, "twoFactor.perUser", userId, 1)
    if (pending) await count(ctx, "twoFactor.perSignIn", pending.id, 1)
  }
  const trimmed = code.replace(/\s+/g, "")
  if (TOTP_SHAPE.test(trimmed)) return checkTotp(ctx, userId, trimmed, pending?.emailProvenAt)
  const store = twoFactorStore(ctx)
  const record = await store.getTwoFactor(userId)
  if (!record?.enabled) throw invalid()
  const candidates = backupCodeCandidates(code, userId, ctx.config.secret)
  if (candidates && (await store.useTwoFactorBackupCode(userId, candidates))) return accepted(ctx, userId, verifiedAs(ctx, "backup-code"))
  throw invalid()
}

/**
 * A TOTP code: the attempt is counted in the user's record first (the same call answers the secret,
 * so no extra statement), then checked; a right code's write sets the count back to 0. An attempt
 * the adapter did not count (the count is at the ceiling, or there is no enabled record) is refused
 * unchecked; only that refusal reads the record again, to say which.
 */
async function checkTotp(ctx: Context, userId: string, digits: string, emailProvenAt: number | undefined): Promise<SecondFactor> {
  const store = twoFactorStore(ctx)
  const record = await store.countTwoFactorAttempt(userId, attemptCeiling(ctx, emailProvenAt))
  if (!record?.enabled) throw (await store.getTwoFactor(userId))?.enabled ? totpLocked() : invalid()
  const { key } = await openTotpKey(record.secret, userId, ctx.config.secret)
  const timeMs = Date.now()
  const step = verifyTotp(key, digits, { timeMs, lastUsedStep: record.lastUsedStep })
  if (step !== null && (await store.recordTwoFactorStep(userId, step))) return accepted(ctx, userId, verifiedAs(ctx, "totp"))
  await totpAttemptFailed(ctx, userId, record.failedAttempts)
  // A right code of a step already used (typed twice, or by two tabs) is told apart from a wrong one,
  // so the person waits for the next code instead of doubting the app. It says no more than that the
  // code was right once, which only its step's owner could know, and that step is spent.
  if (step !== null || verifyTotp(key, digits, { timeMs }) !== null) throw new TwoFactorError("That code was already used", { code: "CODE_USED" })
  throw invalid()
}

/** A right code clears the user's count: the limit is on guesses, not on a user's own sign-ins. */
export async function accepted<F>(ctx: Context, userId: string, factor: F): Promise<F> {
  await forgetCounts(ctx, "twoFactor.perUser", userId)
  return factor
}
