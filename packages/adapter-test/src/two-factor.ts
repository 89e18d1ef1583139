import { expect } from "vitest"
import { base32Encode, createTotpKey, generateBackupCodes, hashBackupCode, normalizeBackupCode, sealTotpKey } from "@authlib/core/internal"
import type { AdapterTwoFactor } from "@authlib/core"
import type { SuiteContext } from "./types.js"

/** An auth secret for the enrolments of this suite (core derives the sealing and hashing keys from it). */
const SECRET = "adapter-test-two-factor-secret-0123456789"
/** A time step of today's order of magnitude (RFC 6238's T for 2023-11-14). */
const STEP = 56_666_666

/**
 * The two-factor port (optional, registered when the adapter has `getTwoFactor`): a pending secret,
 * enabling it by compare-and-swap, the last used TOTP step that only moves forward, single-use
 * backup codes, replacing and deleting them, the count of TOTP attempts in a row (an atomic
 * increment up to a ceiling, set back to 0 by an accepted step, a used backup code or a reset), the
 * cascade from `deleteUser`, and the race rules: of parallel callers recording one step, or using
 * one backup code, exactly one wins; parallel attempts are all counted, up to the ceiling and no
 * further. Enrolment
 * uses core's own sealing and hashing, and a dump of the store (`db.dump`) must show neither the
 * secret nor a backup code in plain text.
 */
export function twoFactorSuite(ctx: SuiteContext): void {
  const { adapter, db, make, test, concurrency } = ctx

  /** A user with a pending secret, as `totp-enroll` leaves one. */
  async function pending() {
    const user = await adapter.createUser(make.user())
    const key = createTotpKey()
    const secret = await sealTotpKey(key, user.id, [SECRET])
    expect(await adapter.setTwoFactorPendingSecret(user.id, secret)).toStrictEqual({ userId: user.id, secret, enabled: false, lastUsedStep: null, backupCodesLeft: 0, failedAttempts: 0 })
    return { user, key, secret }
  }

  /** A user with two-factor enabled at `STEP` and 10 backup codes, as `totp-confirm` leaves one. */
  async function enrolled() {
    const { user, key, secret } = await pending()
    const codes = generateBackupCodes()
    const backupCodeHashes = codes.map((code) => hashBackupCode(code, user.id, SECRET))
    const record: AdapterTwoFactor = { userId: user.id, secret, enabled: true, lastUsedStep: STEP, backupCodesLeft: codes.length, failedAttempts: 0 }
    expect(await adapter.enableTwoFactor(user.id, { secret, step: STEP, backupCodeHashes })).toStrictEqual(record)
    return { user, key, secret, codes, hashes: backupCodeHashes, record }
  }

  test("getTwoFactor answers null for a user without two-factor and for an unknown user", async () => {
    const user = await adapter.createUser(make.user())
    expect(await adapter.getTwoFactor(user.id)).toBeNull()
    expect(await adapter.getTwoFactor(crypto.randomUUID())).toBeNull()
  })

  test("setTwoFactorPendingSecret stores a pending record, replaces a pending one, and answers null for an unknown user", async () => {
    const { user, secret } = await pending()
    expect(await adapter.getTwoFactor(user.id)).toStrictEqual({ userId: user.id, secret, enabled: false, lastUsedStep: null, backupCodesLeft: 0, failedAttempts: 0 })
    const newer = await sealTotpKey(createTotpKey(), user.id, [SECRET])
    expect(await adapter.setTwoFactorPendingSecret(user.id, newer)).toMatchObject({ secret: newer, enabled: false })
    expect(await adapter.getTwoFactor(user.id)).toMatchObject({ secret: newer })
    expect(await adapter.setTwoFactorPendingSecret(crypto.randomUUID(), newer)).toBeNull()
  })

  test("enableTwoFactor enables only the pending record with that secret, once; an enabled record refuses a new pending secret", async () => {
    const { user, secret } = await pending()
    const other = await sealTotpKey(createTotpKey(), user.id, [SECRET])
    expect(await adapter.enableTwoFactor(user.id, { secret: other, step: STEP, backupCodeHashes: [] })).toBeNull()
    expect(await adapter.getTwoFactor(user.id)).toMatchObject({ enabled: false })
    const enabled = await adapter.enableTwoFactor(user.id, { secret, step: STEP, backupCodeHashes: ["h1", "h2"] })
    expect(enabled).toStrictEqual({ userId: user.id, secret, enabled: true, lastUsedStep: STEP, backupCodesLeft: 2, failedAttempts: 0 })
    expect(await adapter.enableTwoFactor(user.id, { secret, step: STEP + 1, backupCodeHashes: [] })).toBeNull()
    expect(await adapter.setTwoFactorPendingSecret(user.id, other)).toBeNull()
    expect(await adapter.getTwoFactor(user.id)).toStrictEqual(enabled)
    expect(await adapter.enableTwoFactor(crypto.randomUUID(), { secret, step: STEP, backupCodeHashes: [] })).toBeNull()
  })

  test("recordTwoFactorStep accepts only a later step, and only while two-factor is enabled", async () => {
    const { user, record } = await enrolled()
    expect(await adapter.recordTwoFactorStep(user.id, STEP)).toBe(false)
    expect(await adapter.recordTwoFactorStep(user.id, STEP - 1)).toBe(false)
    expect(await adapter.recordTwoFactorStep(user.id, STEP + 1)).toBe(true)
    expect(await adapter.recordTwoFactorStep(user.id, STEP + 1)).toBe(false)
    expect(await adapter.getTwoFactor(user.id)).toStrictEqual({ ...record, lastUsedStep: STEP + 1 })
    const { user: waiting } = await pending()
    expect(await adapter.recordTwoFactorStep(waiting.id, STEP)).toBe(false)
    expect(await adapter.getTwoFactor(waiting.id)).toMatchObject({ lastUsedStep: null })
    expect(await adapter.recordTwoFactorStep(crypto.randomUUID(), STEP)).toBe(false)
  })

  test(`race: ${concurrency} parallel recordTwoFactorStep calls for one step: exactly one records it`, async () => {
    const { user } = await enrolled()
    const answers = await Promise.all(Array.from({ length: concurrency }, () => adapter.recordTwoFactorStep(user.id, STEP + 1)))
    expect(answers.filter(Boolean)).toHaveLength(1)
    expect(await adapter.getTwoFactor(user.id)).toMatchObject({ lastUsedStep: STEP + 1 })
  })

  test("race: parallel recordTwoFactorStep calls for different steps never move the step back", async () => {
    const { user } = await enrolled()
    const steps = Array.from({ length: concurrency }, (_, i) => STEP + 1 + ((i * 7) % concurrency))
    const answers = await Promise.all(steps.map((step) => adapter.recordTwoFactorStep(user.id, step)))
    expect(answers[steps.indexOf(STEP + concurrency)]).toBe(true)
    expect(await adapter.getTwoFactor(user.id)).toMatchObject({ lastUsedStep: STEP + concurrency })
  })

  test("countTwoFactorAttempt counts an attempt of an enabled record below the ceiling and answers the record; null and nothing written otherwise", async () => {
    const { user, record } = await enrolled()
    expect(await adapter.countTwoFactorAttempt(user.id, 2)).toStrictEqual({ ...record, failedAttempts: 1 })
    expect(await adapter.countTwoFactorAttempt(user.id, 2)).toStrictEqual({ ...record, failedAttempts: 2 })
    expect(await adapter.countTwoFactorAttempt(user.id, 2)).toBeNull()
    expect(await adapter.countTwoFactorAttempt(user.id, 1)).toBeNull()
    expect(await adapter.getTwoFactor(user.id)).toStrictEqual({ ...record, failedAttempts: 2 })
    // A higher ceiling (a sign-in by e-mail link) counts on from there.
    expect(await adapter.countTwoFactorAttempt(user.id, 4)).toStrictEqual({ ...record, failedAttempts: 3 })
    const { user: waiting } = await pending()
    expect(await adapter.countTwoFactorAttempt(waiting.id, 100)).toBeNull()
    expect(await adapter.getTwoFactor(waiting.id)).toMatchObject({ failedAttempts: 0 })
    expect(await adapter.countTwoFactorAttempt(crypto.randomUUID(), 100)).toBeNull()
  })

  test(`race: ${concurrency} parallel countTwoFactorAttempt calls are all counted, each answered a different count`, async () => {
    const { user } = await enrolled()
    const answers = await Promise.all(Array.from({ length: concurrency }, () => adapter.countTwoFactorAttempt(user.id, 100)))
    expect(answers.map((r) => r?.failedAttempts).sort((a, b) => a! - b!)).toStrictEqual(Array.from({ length: concurrency }, (_, i) => i + 1))
    expect(await adapter.getTwoFactor(user.id)).toMatchObject({ failedAttempts: concurrency })
  })

  test(`race: ${concurrency} parallel countTwoFactorAttempt calls with a lower ceiling: exactly that many are counted, none past it`, async () => {
    const { user } = await enrolled()
    const ceiling = Math.max(1, Math.floor(concurrency / 3))
    const answers = await Promise.all(Array.from({ length: concurrency }, () => adapter.countTwoFactorAttempt(user.id, ceiling)))
    const counted = answers.filter((r) => r !== null).map((r) => r!.failedAttempts).sort((a, b) => a - b)
    expect(counted).toStrictEqual(Array.from({ length: ceiling }, (_, i) => i + 1))
    expect(await adapter.getTwoFactor(user.id)).toMatchObject({ failedAttempts: ceiling })
  })

  test("recordTwoFactorStep sets the count back to 0 in the write that records the step; a refused step leaves it", async () => {
    const { user } = await enrolled()
    await adapter.countTwoFactorAttempt(user.id, 100)
    await adapter.countTwoFactorAttempt(user.id, 100)
    expect(await adapter.recordTwoFactorStep(user.id, STEP)).toBe(false)
    expect(await adapter.getTwoFactor(user.id)).toMatchObject({ failedAttempts: 2, lastUsedStep: STEP })
    expect(await adapter.recordTwoFactorStep(user.id, STEP + 1)).toBe(true)
    expect(await adapter.getTwoFactor(user.id)).toMatchObject({ failedAttempts: 0, lastUsedStep: STEP + 1 })
  })

  test("useTwoFactorBackupCode sets the count back to 0 with the code it uses; a refused code leaves it", async () => {
    const { user, hashes } = await enrolled()
    await adapter.countTwoFactorAttempt(user.id, 100)
    expect(await adapter.useTwoFactorBackupCode(user.id, ["not-a-stored-hash"])).toBe(false)
    expect(await adapter.getTwoFactor(user.id)).toMatchObject({ failedAttempts: 1 })
    expect(await adapter.useTwoFactorBackupCode(user.id, [hashes[0]!])).toBe(true)
    expect(await adapter.getTwoFactor(user.id)).toMatchObject({ failedAttempts: 0, backupCodesLeft: hashes.length - 1 })
  })

  test("resetTwoFactorFailures sets the count of an enabled record back to 0; false for a pending record and an unknown user", async () => {
    const { user, record } = await enrolled()
    for (let i = 0; i < 3; i++) await adapter.countTwoFactorAttempt(user.id, 100)
    expect(await adapter.resetTwoFactorFailures(user.id)).toBe(true)
    expect(await adapter.getTwoFactor(user.id)).toStrictEqual(record)
    expect(await adapter.resetTwoFactorFailures(user.id)).toBe(true)
    const { user: waiting } = await pending()
    expect(await adapter.resetTwoFactorFailures(waiting.id)).toBe(false)
    expect(await adapter.resetTwoFactorFailures(crypto.randomUUID())).toBe(false)
  })

  test("a new enrolment starts its count at 0", async () => {
    const { user } = await enrolled()
    await adapter.countTwoFactorAttempt(user.id, 100)
    expect(await adapter.deleteTwoFactor(user.id)).toBe(true)
    const secret = await sealTotpKey(createTotpKey(), user.id, [SECRET])
    expect(await adapter.setTwoFactorPendingSecret(user.id, secret)).toMatchObject({ failedAttempts: 0 })
    expect(await adapter.enableTwoFactor(user.id, { secret, step: STEP, backupCodeHashes: [] })).toMatchObject({ failedAttempts: 0 })
  })

  test("useTwoFactorBackupCode uses a code once, finds it among a rotation list's hashes, and refuses other users' and unknown codes", async () => {
    const { user, codes, hashes } = await enrolled()
    const { user: other } = await enrolled()
    expect(await adapter.useTwoFactorBackupCode(other.id, [hashes[0]!])).toBe(false)
    expect(await adapter.useTwoFactorBackupCode(user.id, ["not-a-stored-hash"])).toBe(false)
    expect(await adapter.useTwoFactorBackupCode(user.id, ["hash-under-a-newer-secret", hashes[0]!])).toBe(true)
    expect(await adapter.useTwoFactorBackupCode(user.id, [hashes[0]!])).toBe(false)
    expect(await adapter.getTwoFactor(user.id)).toMatchObject({ backupCodesLeft: codes.length - 1 })
    expect(await adapter.getTwoFactor(other.id)).toMatchObject({ backupCodesLeft: codes.length })
    expect(await adapter.useTwoFactorBackupCode(crypto.randomUUID(), [hashes[1]!])).toBe(false)
  })

  test("race: 20 parallel uses of one backup code: exactly one succeeds", async () => {
    const { user, hashes } = await enrolled()
    const answers = await Promise.all(Array.from({ length: 20 }, () => adapter.useTwoFactorBackupCode(user.id, [hashes[3]!])))
    expect(answers.filter(Boolean)).toHaveLength(1)
    expect(await adapter.getTwoFactor(user.id)).toMatchObject({ backupCodesLeft: hashes.length - 1 })
  })

  test("replaceTwoFactorBackupCodes: the old codes die, the new ones work; refused while two-factor is pending", async () => {
    const { user, hashes } = await enrolled()
    const fresh = generateBackupCodes().map((code) => hashBackupCode(code, user.id, SECRET))
    expect(await adapter.replaceTwoFactorBackupCodes(user.id, fresh)).toBe(true)
    expect(await adapter.useTwoFactorBackupCode(user.id, [hashes[0]!])).toBe(false)
    expect(await adapter.useTwoFactorBackupCode(user.id, [fresh[0]!])).toBe(true)
    expect(await adapter.getTwoFactor(user.id)).toMatchObject({ backupCodesLeft: fresh.length - 1 })
    const { user: waiting } = await pending()
    expect(await adapter.replaceTwoFactorBackupCodes(waiting.id, fresh)).toBe(false)
    expect(await adapter.replaceTwoFactorBackupCodes(crypto.randomUUID(), fresh)).toBe(false)
  })

  test("deleteTwoFactor removes a record (enabled or pending) and answers whether there was one; enrolment can start again", async () => {
    const { user, hashes } = await enrolled()
    expect(await adapter.deleteTwoFactor(user.id)).toBe(true)
    expect(await adapter.getTwoFactor(user.id)).toBeNull()
    expect(await adapter.deleteTwoFactor(user.id)).toBe(false)
    expect(await adapter.useTwoFactorBackupCode(user.id, [hashes[0]!])).toBe(false)
    const again = await sealTotpKey(createTotpKey(), user.id, [SECRET])
    expect(await adapter.setTwoFactorPendingSecret(user.id, again)).toMatchObject({ enabled: false, secret: again })
  })

  test("deleteUser removes the user's two-factor record with them", async () => {
    const { user, secret, hashes } = await enrolled()
    await adapter.deleteUser(user.id)
    expect(await adapter.getTwoFactor(user.id)).toBeNull()
    const stored = await db.dump?.()
    if (stored !== undefined) for (const value of [secret, ...hashes]) expect(stored).not.toContain(value)
  })

  test("at rest: after enrolment no table holds the TOTP secret or a backup code in plain text", async () => {
    if (!db.dump) throw new TypeError("db.dump is required to test the two-factor port")
    const { key, codes, secret, hashes } = await enrolled()
    const stored = await db.dump()
    const base32 = base32Encode(key.secret)
    const hex = [...key.secret].map((b) => b.toString(16).padStart(2, "0")).join("")
    const forbidden = [base32, base32.toLowerCase(), hex, btoa(String.fromCharCode(...key.secret)).replace(/=+$/, ""), ...codes, ...codes.map((c) => normalizeBackupCode(c)!)]
    for (const value of forbidden) expect(stored.includes(value), `plain text found in the store: ${value.slice(0, 6)}...`).toBe(false)
    // What core gave is there: the dump does cover the two-factor records.
    expect(stored).toContain(secret)
    for (const hash of hashes) expect(stored).toContain(hash)
  })
}
