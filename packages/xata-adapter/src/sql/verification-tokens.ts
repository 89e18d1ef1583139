/** `authlib_verificationTokens`: one-time tokens of e-mail sign-in. */
import type { VerificationToken } from "@authlib/core"
import type { XataAdapterMethods } from "../adapter-type.js"
import type { Executor, Row } from "../executors/index.js"
import { asDate, asString, first, lookupable, requiredText, requiredTimestamp } from "./values.js"

/** A token row, or `null` when it lacks a field the type requires (only rows written by other tools can). */
function toToken(row: Row): VerificationToken | null {
  const identifier = asString(row.identifier)
  const token = asString(row.token)
  const expires = asDate(row.expires)
  return identifier === null || token === null || expires === null ? null : { identifier, token, expires }
}

export function verificationTokenMethods(db: Executor): Pick<XataAdapterMethods, "createVerificationToken" | "useVerificationToken"> {
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
  }
}
