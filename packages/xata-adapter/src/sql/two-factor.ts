/**
 * `authlib_two_factors`: the two-factor port, one row per user (the sealed TOTP secret, whether it
 * is enabled, the last used time step, the backup-code hashes as a text array, the TOTP attempts
 * since the last accepted code). Every write is one
 * conditional statement on that row: Postgres locks the row for the first writer, and a concurrent
 * writer re-checks its WHERE on the row as the first one left it (READ COMMITTED), so of parallel
 * calls recording one step or using one code exactly one matches, and parallel attempts each add
 * 1 to the count as the previous one left it (none lost, none past the ceiling).
 *
 * Hash lists travel as one JSON text parameter (`jsonb_array_elements_text`): the same on the Xata
 * endpoint, PGlite and node-postgres, none of which agree on array parameters.
 */
import type { AdapterTwoFactor } from "@authlib/core"
import type { XataAdapterMethods } from "../adapter-type.js"
import type { Executor, Row } from "../executors/index.js"
import { XataAdapterError } from "../errors.js"
import { asBoolean, asNumber, asString, first, integer, lookupable, requiredText } from "./values.js"

const COLUMNS = `"user", secret, enabled, "lastUsedStep", COALESCE(cardinality("backupCodes"), 0) AS "backupCodesLeft", COALESCE("failedAttempts", 0) AS "failedAttempts"`
/** The count's ceiling: the column is an `integer`, and an attempt past it must not fail the statement. */
const MAX_ATTEMPTS = 2_147_483_647
/** The hash list parameter `$n` as a text array. */
const hashes = (n: number) => `ARRAY(SELECT jsonb_array_elements_text($${n}::jsonb))`

/** A record row, or `null` when it lacks the user or the secret (only rows written by other tools can). */
function toRecord(row: Row | null): AdapterTwoFactor | null {
  const userId = row && asString(row.user)
  const secret = row && asString(row.secret)
  if (!row || userId === null || secret === null) return null
  return { userId, secret, enabled: asBoolean(row.enabled) === true, lastUsedStep: asNumber(row.lastUsedStep), backupCodesLeft: Number(row.backupCodesLeft), failedAttempts: Number(row.failedAttempts) }
}

/** A safe non-negative integer, as the contract requires of a time step and a ceiling. */
function nonNegative(value: number, field: string): number {
  const checked = integer(value, field)
  if (checked === null || (checked as number) < 0) throw new XataAdapterError(`"${field}" must be a non-negative integer`, { code: "INVALID_INPUT", cause: { field } })
  return checked as number
}
const step = (value: number) => nonNegative(value, "step")

/** A list of hashes as the JSON text parameter; each must be storable text. */
function hashList(values: readonly string[], field: string): string {
  if (!Array.isArray(values)) throw new XataAdapterError(`"${field}" must be an array of strings`, { code: "INVALID_INPUT", cause: { field } })
  return JSON.stringify(values.map((value) => requiredText(value, field)))
}

type TwoFactorMethods =
  | "getTwoFactor" | "setTwoFactorPendingSecret" | "enableTwoFactor" | "countTwoFactorAttempt" | "recordTwoFactorStep"
  | "useTwoFactorBackupCode" | "resetTwoFactorFailures" | "replaceTwoFactorBackupCodes" | "deleteTwoFactor"

export function twoFactorMethods(db: Executor): Pick<XataAdapterMethods, TwoFactorMethods> {
  return {
    async getTwoFactor(userId) {
      if (!lookupable(userId)) return null
      return toRecord(first(await db.query(`SELECT ${COLUMNS} FROM authlib_two_factors WHERE "user" = $1::text`, [userId])))
    },
    // One INSERT: creates the row for a known user, or replaces a pending one; an enabled row is left as it is (no row returned).
    async setTwoFactorPendingSecret(userId, secret) {
      if (!lookupable(userId)) return null
      const rows = await db.query(
        `INSERT INTO authlib_two_factors ("user", secret, enabled, "lastUsedStep", "backupCodes", "failedAttempts")
         SELECT xata_id, $2::text, false, NULL, '{}', 0 FROM authlib_users WHERE xata_id = $1::text
         ON CONFLICT ("user") DO UPDATE SET secret = EXCLUDED.secret, "lastUsedStep" = NULL, "backupCodes" = '{}', "failedAttempts" = 0
           WHERE authlib_two_factors.enabled IS NOT TRUE
         RETURNING ${COLUMNS}`,
        [userId, requiredText(secret, "secret")],
      )
      return toRecord(first(rows))
    },
    async enableTwoFactor(userId, params) {
      if (!lookupable(userId)) return null
      const rows = await db.query(
        `UPDATE authlib_two_factors SET enabled = true, "lastUsedStep" = $3::bigint, "backupCodes" = ${hashes(4)}, "failedAttempts" = 0
         WHERE "user" = $1::text AND secret = $2::text AND enabled IS NOT TRUE
         RETURNING ${COLUMNS}`,
        [userId, requiredText(params.secret, "secret"), step(params.step), hashList(params.backupCodeHashes, "backupCodeHashes")],
      )
      return toRecord(first(rows))
    },
    // One UPDATE in place of the SELECT of `getTwoFactor`: the attempt is counted and the record read at once.
    async countTwoFactorAttempt(userId, ceiling) {
      if (!lookupable(userId)) return null
      const rows = await db.query(
        `UPDATE authlib_two_factors SET "failedAttempts" = LEAST(COALESCE("failedAttempts", 0), ${MAX_ATTEMPTS - 1}) + 1
         WHERE "user" = $1::text AND enabled AND COALESCE("failedAttempts", 0) < $2::bigint RETURNING ${COLUMNS}`,
        [userId, nonNegative(ceiling, "ceiling")],
      )
      return toRecord(first(rows))
    },
    // The count goes back to 0 in the same statement that accepts the step: the success path stays one write.
    async recordTwoFactorStep(userId, value) {
      if (!lookupable(userId)) return false
      const rows = await db.query(
        `UPDATE authlib_two_factors SET "lastUsedStep" = $2::bigint, "failedAttempts" = 0
         WHERE "user" = $1::text AND enabled AND ("lastUsedStep" IS NULL OR "lastUsedStep" < $2::bigint) RETURNING 1 AS done`,
        [userId, step(value)],
      )
      return rows.length === 1
    },
    async useTwoFactorBackupCode(userId, codeHashes) {
      if (!lookupable(userId)) return false
      const rows = await db.query(
        `UPDATE authlib_two_factors SET "backupCodes" = ARRAY(SELECT c FROM unnest("backupCodes") AS c WHERE NOT (c = ANY(${hashes(2)}))), "failedAttempts" = 0
         WHERE "user" = $1::text AND enabled AND "backupCodes" && ${hashes(2)} RETURNING 1 AS done`,
        [userId, hashList(codeHashes, "codeHashes")],
      )
      return rows.length === 1
    },
    async resetTwoFactorFailures(userId) {
      if (!lookupable(userId)) return false
      return (await db.query(`UPDATE authlib_two_factors SET "failedAttempts" = 0 WHERE "user" = $1::text AND enabled RETURNING 1 AS done`, [userId])).length === 1
    },
    async replaceTwoFactorBackupCodes(userId, codeHashes) {
      if (!lookupable(userId)) return false
      const rows = await db.query(`UPDATE authlib_two_factors SET "backupCodes" = ${hashes(2)} WHERE "user" = $1::text AND enabled RETURNING 1 AS done`, [
        userId,
        hashList(codeHashes, "codeHashes"),
      ])
      return rows.length === 1
    },
    async deleteTwoFactor(userId) {
      if (!lookupable(userId)) return false
      return (await db.query(`DELETE FROM authlib_two_factors WHERE "user" = $1::text RETURNING 1 AS done`, [userId])).length === 1
    },
  }
}
