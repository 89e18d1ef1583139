/** `authlib_verificationTokens`: one-time tokens of e-mail sign-in. */
import type { VerificationToken } from "@authlib/core"
import type { XataAdapterMethods } from "../adapter-type.js"
import type { Executor, Row } from "../executors/index.js"
import { XataAdapterError } from "../errors.js"
import { asDate, asNumber, asString, first, lookupable, requiredText, requiredTimestamp } from "./values.js"
import { toUser } from "./users.js"

/** A token row, or `null` when it lacks a field the type requires (only rows written by other tools can). */
export function toToken(row: Row): VerificationToken | null {
  const identifier = asString(row.identifier)
  const token = asString(row.token)
  const expires = asDate(row.expires)
  return identifier === null || token === null || expires === null ? null : { identifier, token, expires }
}

/**
 * Deletes every token of the identifier but the `keep` latest expiring (ties by `xata_id`, a stable
 * order; NULL expiries, written by other tools, count as the oldest) and counts them, in one statement.
 * Each concurrent call keeps the `keep` newest of its own snapshot, which always includes the
 * `keep` newest overall; a row another call deleted first is skipped, so it is counted once.
 */
const RETIRE = `WITH retired AS (
  DELETE FROM "authlib_verificationTokens"
  WHERE identifier = $1::text AND xata_id NOT IN (
    SELECT xata_id FROM "authlib_verificationTokens" WHERE identifier = $1::text
    ORDER BY expires DESC NULLS LAST, xata_id DESC LIMIT $2::integer)
  RETURNING 1)
SELECT count(*)::integer AS deleted FROM retired`

/** `keep` as the contract states it: an integer of at least 1 (0 would delete every live link). */
function keepCount(keep: number): number {
  if (!Number.isSafeInteger(keep) || keep < 1) {
    throw new XataAdapterError(`"keep" must be an integer >= 1`, { code: "INVALID_INPUT", cause: { field: "keep", received: keep } })
  }
  return keep
}

export function verificationTokenMethods(
  db: Executor,
): Pick<XataAdapterMethods, "createVerificationToken" | "useVerificationToken" | "useVerificationTokenForAccount" | "getVerificationToken" | "retireVerificationTokens"> {
  return {
    async createVerificationToken({ identifier, token, expires }) {
      const rows = await db.query(
        `INSERT INTO "authlib_verificationTokens" (identifier, token, expires) VALUES ($1::text, $2::text, $3::timestamptz)
         RETURNING identifier, token, expires`,
        [requiredText(identifier, "identifier"), requiredText(token, "token"), requiredTimestamp(expires, "expires")],
      )
      const row = first(rows)
      return row ? toToken(row) : null
    },
    // DELETE ... RETURNING is the read: under concurrent calls Postgres lets exactly one delete see the row.
    // It returns the stored expiry (the reference adapter returned the wrong one).
    async useVerificationToken({ identifier, token }) {
      if (!lookupable(identifier, token)) return null
      const rows = await db.query(
        `DELETE FROM "authlib_verificationTokens" WHERE identifier = $1::text AND token = $2::text
         RETURNING identifier, token, expires`,
        [identifier, token],
      )
      const row = first(rows)
      return row ? toToken(row) : null
    },
    // The same single-use DELETE, and the account's owner read in the same statement (e-mail
    // completion asks for both): a token no caller received answers null, whoever owns the account.
    async useVerificationTokenForAccount({ identifier, token }, { provider, providerAccountId }) {
      if (!lookupable(identifier, token)) return null
      const rows = await db.query(
        `WITH t AS (
           DELETE FROM "authlib_verificationTokens" WHERE identifier = $1::text AND token = $2::text
           RETURNING identifier, token, expires
         )
         SELECT t.identifier, t.token, t.expires, u.xata_id AS u_xata_id, u.name AS u_name, u.email AS u_email,
                u."emailVerified" AS "u_emailVerified", u.image AS u_image
         FROM t LEFT JOIN (authlib_accounts a JOIN authlib_users u ON u.xata_id = a."user")
           ON a.provider = $3::text AND a."providerAccountId" = $4::text`,
        // An account key Postgres cannot hold matches no account (NULL never equals), the token is still used.
        lookupable(provider, providerAccountId) ? [identifier, token, provider, providerAccountId] : [identifier, token, null, null],
      )
      const row = first(rows)
      const stored = row ? toToken(row) : null
      if (!row || !stored) return null
      return { token: stored, owner: row.u_xata_id == null ? null : toUser(row, "u_") }
    },
    async getVerificationToken({ identifier, token }) {
      if (!lookupable(identifier, token)) return null
      const rows = await db.query(`SELECT identifier, token, expires FROM "authlib_verificationTokens" WHERE identifier = $1::text AND token = $2::text LIMIT 1`, [identifier, token])
      const row = first(rows)
      return row ? toToken(row) : null
    },
    async retireVerificationTokens(identifier, keep) {
      const limit = keepCount(keep)
      if (!lookupable(identifier)) return 0
      const row = first(await db.query(RETIRE, [identifier, limit]))
      return asNumber(row?.deleted) ?? 0
    },
  }
}
