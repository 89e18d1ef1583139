/**
 * The adapter port of two-factor sign-in: the record type, the nine methods (added to `Adapter`
 * by declaration merging, so adapters type them as before) and the port's method list, which the
 * capability declares (`Capability.ports`) and `ADAPTER_PORTS` lists.
 *
 * Race rules (the conformance suite in `@authlib/adapter-test` checks them): `enableTwoFactor`,
 * `recordTwoFactorStep` and `useTwoFactorBackupCode` are conditional writes; under concurrent
 * calls with the same arguments exactly one caller wins. `countTwoFactorAttempt` is an atomic
 * increment up to a ceiling: of concurrent calls, as many as the ceiling allows are counted (none
 * lost, none past it), each answered a different count. `deleteUser`
 * removes the user's two-factor record too.
 */
import type { Awaitable } from "@authlib/jwt"

/**
 * A user's two-factor record as an adapter returns it (authlib only). Core seals the TOTP secret
 * and hashes the backup codes before they reach the adapter: store them as given. The hashes
 * themselves are never read back, only how many are left.
 */
export interface AdapterTwoFactor {
  userId: string
  /** The TOTP secret, sealed by core (encrypted with a key derived from the auth secret). */
  secret: string
  /** `false` while enrolment waits for its first code (a pending secret); `true` once confirmed. */
  enabled: boolean
  /** The latest TOTP time step accepted (RFC 6238's T); `null` before the first. Only later steps are accepted. */
  lastUsedStep: number | null
  /** How many backup codes are left unused (0 for a pending record). */
  backupCodesLeft: number
  /**
   * TOTP attempts since the last accepted TOTP code or backup code (0 for a new or pending record):
   * core counts an attempt before checking it (`countTwoFactorAttempt`), so at rest this is the
   * number of wrong TOTP codes in a row. At `twoFactor.lockAfterFailures` TOTP codes are refused
   * (a sign-in by e-mail link may raise it further, up to the cap past the count it started from).
   */
  failedAttempts: number
}

/** The `twoFactor` port: the methods an adapter implements together for two-factor sign-in. */
export const TWO_FACTOR_PORT = [
  "getTwoFactor", "setTwoFactorPendingSecret", "enableTwoFactor", "countTwoFactorAttempt", "recordTwoFactorStep",
  "useTwoFactorBackupCode", "resetTwoFactorFailures", "replaceTwoFactorBackupCodes", "deleteTwoFactor",
] as const

declare module "../../kernel/types/adapters.js" {
  interface Adapter {
    /**
     * Optional, authlib only (the `twoFactor` port, implemented together): the user's two-factor
     * record, `null` when they have none (or are unknown).
     */
    getTwoFactor?(userId: string): Awaitable<AdapterTwoFactor | null>
    /**
     * Two-factor port: stores `secret` as the user's pending (not yet enabled) TOTP secret,
     * replacing a pending one (with its last used step cleared, `failedAttempts` 0), and returns the record. Conditional:
     * while two-factor is enabled nothing changes and the answer is `null` (a new secret needs
     * `deleteTwoFactor` first); `null` too for an unknown user.
     */
    setTwoFactorPendingSecret?(userId: string, secret: string): Awaitable<AdapterTwoFactor | null>
    /**
     * Two-factor port: enables the pending record whose stored secret is `secret`, sets its last
     * used step to `step` (the code that confirmed it is used up), `failedAttempts` to 0 and stores
     * `backupCodeHashes` as its backup codes, in one conditional write (such as `UPDATE ... WHERE "user" = $1 AND secret =
     * $2 AND NOT enabled RETURNING ...`). Returns the enabled record; `null` when there is no
     * pending record with that secret (already enabled, replaced by a newer enrolment, unknown).
     * Under concurrent calls exactly one caller receives the record.
     */
    enableTwoFactor?(userId: string, params: { secret: string; step: number; backupCodeHashes: readonly string[] }): Awaitable<AdapterTwoFactor | null>
    /**
     * Two-factor port: adds 1 to `failedAttempts` of the user's enabled record while it is below
     * `ceiling` (a whole number) and returns the record as updated, in one atomic conditional write
     * (such as `UPDATE ... SET "failedAttempts" = "failedAttempts" + 1 WHERE "user" = $1 AND enabled
     * AND "failedAttempts" < $2 RETURNING ...`); `null`, and nothing written, when the count is at
     * or above `ceiling` or two-factor is not enabled (pending, none, unknown user). Core calls it
     * instead of `getTwoFactor` before checking a TOTP code, so an attempt is counted before it is
     * checked: of concurrent calls none is lost and none passes the ceiling, each counted one
     * answering a different count.
     */
    countTwoFactorAttempt?(userId: string, ceiling: number): Awaitable<AdapterTwoFactor | null>
    /**
     * Two-factor port: records `step` as the last used TOTP step and sets `failedAttempts` to 0, only
     * when two-factor is enabled and `step` is later than the stored one, in one conditional write
     * (such as `UPDATE ... SET "lastUsedStep" = $2, "failedAttempts" = 0 WHERE "user" = $1 AND
     * enabled AND ("lastUsedStep" IS NULL OR "lastUsedStep" < $2)`). Answers whether this call
     * recorded it: under concurrent calls with the same step exactly one caller receives `true`, so
     * two instances never both accept one code. A refused call changes nothing.
     */
    recordTwoFactorStep?(userId: string, step: number): Awaitable<boolean>
    /**
     * Two-factor port: uses up the backup code stored under one of `codeHashes` (the hashes of one
     * typed code under each auth secret of the rotation list) when two-factor is enabled, removing
     * it and setting `failedAttempts` to 0 in one conditional write. Answers whether this call
     * removed it: under concurrent calls for one code exactly one caller receives `true`; a refused
     * call changes nothing.
     */
    useTwoFactorBackupCode?(userId: string, codeHashes: readonly string[]): Awaitable<boolean>
    /**
     * Two-factor port: sets `failedAttempts` of the user's enabled record to 0 (the app unlocks
     * TOTP: `unlockTwoFactor`). Answers whether there was an enabled record (`false`: pending, none,
     * or unknown user; nothing written).
     */
    resetTwoFactorFailures?(userId: string): Awaitable<boolean>
    /**
     * Two-factor port: replaces all of the user's backup codes with `codeHashes` (the old ones stop
     * working) when two-factor is enabled, in one write. Answers whether it replaced them (`false`:
     * not enabled, or unknown user).
     */
    replaceTwoFactorBackupCodes?(userId: string, codeHashes: readonly string[]): Awaitable<boolean>
    /**
     * Two-factor port: deletes the user's two-factor record (secret, last used step, backup codes),
     * pending or enabled. Answers whether there was one.
     */
    deleteTwoFactor?(userId: string): Awaitable<boolean>
  }
  interface CapabilityPorts {
    /** Two-factor sign-in: the user's sealed TOTP secret, last used step, hashed backup codes and TOTP attempts in a row. */
    twoFactor: typeof TWO_FACTOR_PORT
  }
}
