/**
 * What the signed-in user does with their second factor: enrol a TOTP authenticator (a secret that
 * is not yet enabled), confirm it with a first code (enabled, with 10 backup codes shown once),
 * disable it, or replace the backup codes (both with a current code). Each write is conditional in
 * the adapter, so concurrent requests cannot enable twice or keep old codes alive.
 */
import { TwoFactorError } from "./errors.js"
import { adapterMethods } from "../../kernel/ports/ports.js"
import { count } from "../../kernel/rate-limit/limiter.js"
import type { Context } from "../../kernel/types/http.js"
import { base32Encode } from "./base32.js"
import { generateBackupCodes, hashBackupCode } from "./backup-codes.js"
import { accepted, checkCode, codeOf } from "./check-code.js"
import { otpauthUri } from "./otpauth-uri.js"
import { openTotpKey, sealTotpKey } from "./secret-box.js"
import { twoFactorStore } from "./store.js"
import { createTotpKey, verifyTotp, type TotpKey } from "./totp.js"

/** An enrolment: the secret to type in (base32) and the `otpauth://` URI a QR code carries. */
export interface TotpEnrollment {
  secret: string
  uri: string
}

/** Whether the user has two factors on, and how many backup codes are left. */
export interface TwoFactorStatus {
  enabled: boolean
  backupCodesLeft: number
}

/** The options, or `TWO_FACTOR_OFF` when the app did not set `twoFactor`. */
export function twoFactorOptions(ctx: Context): NonNullable<Context["config"]["twoFactor"]> {
  const options = ctx.config.twoFactor
  if (!options) throw new TwoFactorError('Two-factor sign-in is off: set the "twoFactor" option', { code: "TWO_FACTOR_OFF" })
  return options
}

export async function twoFactorStatus(ctx: Context, userId: string): Promise<TwoFactorStatus> {
  twoFactorOptions(ctx)
  const record = await twoFactorStore(ctx).getTwoFactor(userId)
  return { enabled: record?.enabled === true, backupCodesLeft: record?.enabled ? record.backupCodesLeft : 0 }
}

/** What an authenticator app is shown for `key`: the secret to type in and the URI of the QR code, labelled with the user's address or name. */
export function enrollmentOf(ctx: Context, key: TotpKey, user: { email?: string | null; name?: string | null } | null | undefined, fallback: string): TotpEnrollment {
  const { issuer } = twoFactorOptions(ctx)
  return { secret: base32Encode(key.secret), uri: otpauthUri(key, { issuer, account: user?.email ?? user?.name ?? fallback }) }
}

const alreadyOn = () => new TwoFactorError("Two-factor sign-in is already on: disable it first to enrol again", { code: "ALREADY_ENABLED" })

export async function enrollTotp(ctx: Context, userId: string): Promise<TotpEnrollment> {
  twoFactorOptions(ctx)
  const user = await adapterMethods(ctx.config.adapter, ["getUser"], "Two-factor sign-in").getUser(userId)
  const key = createTotpKey()
  const stored = await twoFactorStore(ctx).setTwoFactorPendingSecret(userId, await sealTotpKey(key, userId, ctx.config.secret))
  if (!stored) throw alreadyOn()
  return enrollmentOf(ctx, key, user, userId)
}

function newBackupCodes(ctx: Context, userId: string): { codes: string[]; hashes: string[] } {
  const codes = generateBackupCodes()
  return { codes, hashes: codes.map((code) => hashBackupCode(code, userId, ctx.config.secret[0]!)) }
}

/**
 * Turns two factors on with the stored pending secret `sealed` (the one `step` was verified against):
 * the conditional `enableTwoFactor`, the backup codes made and answered this once.
 */
async function enable(ctx: Context, userId: string, sealed: string, step: number): Promise<{ enabled: true; backupCodes: string[] }> {
  const { codes, hashes } = newBackupCodes(ctx, userId)
  // Conditional on the pending secret: a second enrolment meanwhile makes this a no-op.
  const enabled = await twoFactorStore(ctx).enableTwoFactor(userId, { secret: sealed, step, backupCodeHashes: hashes })
  if (!enabled) throw new TwoFactorError("The enrolment changed meanwhile: enrol again", { code: "NOT_ENROLLED" })
  return accepted(ctx, userId, { enabled: true as const, backupCodes: codes })
}

/**
 * Stores `key`, confirmed with a code of time step `step` outside the adapter (a sign-in held to
 * enrol keeps its secret in its own cookie), and turns two factors on for `userId`: the secret
 * written as pending, then enabled by the same conditional write as any confirmation.
 */
export async function enableConfirmedKey(ctx: Context, userId: string, key: TotpKey, step: number): Promise<{ enabled: true; backupCodes: string[] }> {
  const sealed = await sealTotpKey(key, userId, ctx.config.secret)
  if (!(await twoFactorStore(ctx).setTwoFactorPendingSecret(userId, sealed))) throw alreadyOn()
  return enable(ctx, userId, sealed, step)
}

export async function confirmTotp(ctx: Context, userId: string, code: unknown): Promise<{ enabled: true; backupCodes: string[] }> {
  twoFactorOptions(ctx)
  const input = codeOf(code)
  if (ctx.config.rateLimit) await count(ctx, "twoFactor.perUser", userId, 1)
  const store = twoFactorStore(ctx)
  const record = await store.getTwoFactor(userId)
  if (!record) throw new TwoFactorError("Enrol an authenticator first", { code: "NOT_ENROLLED" })
  if (record.enabled) throw new TwoFactorError("Two-factor sign-in is already on", { code: "ALREADY_ENABLED" })
  const { key } = await openTotpKey(record.secret, userId, ctx.config.secret)
  const step = verifyTotp(key, input, { timeMs: Date.now() })
  if (step === null) throw new TwoFactorError("The code is not valid", { code: "CODE_INVALID" })
  return enable(ctx, userId, record.secret, step)
}

export async function disableTwoFactor(ctx: Context, userId: string, code: unknown): Promise<{ enabled: false }> {
  twoFactorOptions(ctx)
  await checkCode(ctx, userId, codeOf(code))
  await twoFactorStore(ctx).deleteTwoFactor(userId)
  return { enabled: false }
}

export async function regenerateBackupCodes(ctx: Context, userId: string, code: unknown): Promise<{ backupCodes: string[] }> {
  twoFactorOptions(ctx)
  await checkCode(ctx, userId, codeOf(code))
  const { codes, hashes } = newBackupCodes(ctx, userId)
  if (!(await twoFactorStore(ctx).replaceTwoFactorBackupCodes(userId, hashes))) throw new TwoFactorError("Two-factor sign-in is off", { code: "NOT_ENABLED" })
  return { backupCodes: codes }
}
