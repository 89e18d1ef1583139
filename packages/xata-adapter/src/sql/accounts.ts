/** `authlib_accounts` and `authlib_users_accounts`: linkAccount, unlinkAccount, getAccount, listAccountsByUserId, updateAccount. */
import type { AdapterAccount, AdapterAccountType } from "@authlib/core"
import type { XataAdapterMethods } from "../adapter-type.js"
import type { Executor, Row, SqlParam } from "../executors/index.js"
import { asNumber, asString, first, integer, lookupable, requiredStrings, requiredText, text } from "./values.js"

/** The token fields of spec 2.7, stored as text. Other keys of an account are not part of the layout. */
const TOKEN_FIELDS = ["access_token", "id_token", "refresh_token", "scope", "session_state", "token_type"] as const

const ACCOUNT_COLUMNS = `"user", type, provider, "providerAccountId", expires_at, ${TOKEN_FIELDS.join(", ")}`

const REQUIRED = ["user", "type", "provider", "providerAccountId"] as const

/**
 * An account row as an `AdapterAccount`; fields stored as null are left out, as the type says. A row
 * lacking a required field (only other tools write one) reads as no account.
 */
function toAccount(row: Row): AdapterAccount | null {
  const required = requiredStrings(row, REQUIRED)
  if (!required) return null
  const account: AdapterAccount = {
    userId: required.user,
    type: required.type as AdapterAccountType,
    provider: required.provider,
    providerAccountId: required.providerAccountId,
  }
  for (const field of TOKEN_FIELDS) {
    // token_type is stored lower-case already (core lowercases it), so the cast only restates that.
    const value = asString(row[field])
    if (value !== null) account[field] = value as Lowercase<string>
  }
  const expiresAt = asNumber(row.expires_at)
  if (expiresAt !== null) account.expires_at = expiresAt
  return account
}

const oneAccount = (rows: Row[]) => {
  const row = first(rows)
  return row ? toAccount(row) : null
}

function accountParams(account: AdapterAccount) {
  return [
    requiredText(account.userId, "userId"),
    requiredText(account.type, "type"),
    requiredText(account.provider, "provider"),
    requiredText(account.providerAccountId, "providerAccountId"),
    integer(account.expires_at, "expires_at"),
    ...TOKEN_FIELDS.map((field) => text(account[field] as string | undefined, field)),
  ]
}

const isAccount = (a: AdapterAccount | null): a is AdapterAccount => a !== null

/** The SET list and parameters of `updateAccount` for the fields `patch` names (from `$first`). */
function updates(patch: Partial<AdapterAccount>, first: number): { set: string[]; params: SqlParam[] } {
  const set: string[] = []
  const params: SqlParam[] = []
  if (patch.expires_at !== undefined) {
    params.push(integer(patch.expires_at, "expires_at"))
    set.push(`expires_at = $${first + params.length - 1}::bigint`)
  }
  for (const field of TOKEN_FIELDS) {
    const value = patch[field] as string | null | undefined
    if (value === undefined) continue
    params.push(text(value, field))
    set.push(`${field} = $${first + params.length - 1}::text`)
  }
  return { set, params }
}

export function accountMethods(db: Executor): Pick<XataAdapterMethods, "linkAccount" | "unlinkAccount" | "getAccount" | "listAccountsByUserId" | "updateAccount"> {
  return {
    async linkAccount(account) {
      // The account and its users_accounts link are written by one statement: both or neither.
      const rows = await db.query(
        `WITH a AS (
           INSERT INTO authlib_accounts (${ACCOUNT_COLUMNS})
           VALUES ($1::text, $2::text, $3::text, $4::text, $5::bigint, $6::text, $7::text, $8::text, $9::text, $10::text, $11::text)
           RETURNING xata_id, ${ACCOUNT_COLUMNS}
         ), link AS (
           INSERT INTO authlib_users_accounts ("user", account) SELECT "user", xata_id FROM a
         )
         SELECT ${ACCOUNT_COLUMNS} FROM a`,
        accountParams(account),
      )
      return oneAccount(rows)
    },
    async unlinkAccount({ provider, providerAccountId }) {
      if (!lookupable(provider, providerAccountId)) return undefined
      const rows = await db.query(
        `WITH a AS (
           DELETE FROM authlib_accounts WHERE provider = $1::text AND "providerAccountId" = $2::text
           RETURNING xata_id, ${ACCOUNT_COLUMNS}
         ), link AS (
           DELETE FROM authlib_users_accounts WHERE account IN (SELECT xata_id FROM a)
         )
         SELECT ${ACCOUNT_COLUMNS} FROM a`,
        [provider, providerAccountId],
      )
      return oneAccount(rows) ?? undefined
    },
    async getAccount(providerAccountId, provider) {
      if (!lookupable(provider, providerAccountId)) return null
      const rows = await db.query(
        `SELECT ${ACCOUNT_COLUMNS} FROM authlib_accounts WHERE provider = $1::text AND "providerAccountId" = $2::text`,
        [provider, providerAccountId],
      )
      return oneAccount(rows)
    },
    async updateAccount(patch, expected) {
      if (!lookupable(patch.provider, patch.providerAccountId)) return null
      const { set, params } = updates(patch, expected ? 4 : 3)
      const key = [patch.provider, patch.providerAccountId, ...(expected ? [text(expected.refresh_token, "refresh_token")] : [])]
      // The compare-and-swap is part of the one statement: of racing callers exactly one matches.
      const where = `provider = $1::text AND "providerAccountId" = $2::text${expected ? " AND refresh_token IS NOT DISTINCT FROM $3::text" : ""}`
      const rows = set.length
        ? await db.query(`UPDATE authlib_accounts SET ${set.join(", ")} WHERE ${where} RETURNING ${ACCOUNT_COLUMNS}`, [...key, ...params])
        : await db.query(`SELECT ${ACCOUNT_COLUMNS} FROM authlib_accounts WHERE ${where}`, key)
      return oneAccount(rows)
    },
    async listAccountsByUserId(userId) {
      if (!lookupable(userId)) return []
      const rows = await db.query(
        `SELECT ${ACCOUNT_COLUMNS} FROM authlib_accounts WHERE "user" = $1::text ORDER BY xata_createdat, provider, "providerAccountId"`,
        [userId],
      )
      return rows.map(toAccount).filter(isAccount)
    },
  }
}
