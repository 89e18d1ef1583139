/** `authlib_verificationTokens`: one-time tokens of e-mail sign-in. */
import type { VerificationToken } from "@authlib/core"
import type { XataAdapterMethods } from "../adapter-type.js"
import type { Executor, Row } from "../executors/index.js"
import { asDate, first, lookupable, text, timestamp } from "./values.js"

function toToken(row: Row): VerificationToken {
  return { identifier: String(row.identifier), token: String(row.token), expires: asDate(row.expires) as Date }
}

export function verificationTokenMethods(db: Executor): Pick<XataAdapterMethods, "createVerificationToken" | "useVerificationToken"> {
  return {
    async createVerificationToken({ identifier, token, expires }) {
      const rows = await db.query(
        `INSERT INTO "authlib_verificationTokens" (identifier, token, expires) VALUES ($1::text, $2::text, $3::timestamptz)
         RETURNING identifier, token, expires`,
        [text(identifier, "identifier"), text(token, "token"), timestamp(expires, "expires")],
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
