/**
 * `authlib_authenticators` (our extension of the spec 2.7 layout): WebAuthn credentials (passkeys),
 * with the management fields of migration 2: `createdAt` stamped on insert (unless given),
 * `lastUsedAt` stamped by the counter update of each sign-in (the same statement), `name`.
 */
import type { AdapterAuthenticator } from "@authlib/core"
import { XataAdapterError } from "../errors.js"
import type { XataAdapterMethods } from "../adapter-type.js"
import type { Executor, Row } from "../executors/index.js"
import { asBoolean, asDate, asNumber, asString, first, integer, lookupable, requiredInteger, requiredStrings, requiredText, text, timestamp, written } from "./values.js"

export const COLUMNS = `"credentialID", "user", "providerAccountId", counter, "credentialBackedUp", "credentialPublicKey",
  "credentialDeviceType", transports, name, "createdAt", "lastUsedAt"`

const REQUIRED = ["credentialID", "user", "providerAccountId", "credentialPublicKey", "credentialDeviceType"] as const

/**
 * A passkey row as an `AdapterAuthenticator`, or `null` when it lacks a field the type requires (only
 * other tools write such a row): a NULL key must not read as the key "null", nor a NULL counter as 0.
 */
export function toAuthenticator(row: Row): AdapterAuthenticator | null {
  const required = requiredStrings(row, REQUIRED)
  const counter = asNumber(row.counter)
  const credentialBackedUp = asBoolean(row.credentialBackedUp)
  if (!required || counter === null || credentialBackedUp === null) return null
  return {
    credentialID: required.credentialID,
    userId: required.user,
    providerAccountId: required.providerAccountId,
    counter,
    credentialBackedUp,
    credentialPublicKey: required.credentialPublicKey,
    credentialDeviceType: required.credentialDeviceType,
    transports: asString(row.transports),
    name: asString(row.name),
    createdAt: asDate(row.createdAt),
    lastUsedAt: asDate(row.lastUsedAt),
  }
}

const oneAuthenticator = (rows: Row[]) => {
  const row = first(rows)
  return row ? toAuthenticator(row) : null
}

const isAuthenticator = (a: AdapterAuthenticator | null): a is AdapterAuthenticator => a !== null

type AuthenticatorMethods = "createAuthenticator" | "getAuthenticator" | "listAuthenticatorsByUserId" | "updateAuthenticatorCounter" | "deleteAuthenticator" | "updateAuthenticator"

export function authenticatorMethods(db: Executor): Pick<XataAdapterMethods, AuthenticatorMethods> {
  const getAuthenticator = async (credentialID: string) => {
    if (!lookupable(credentialID)) return null
    return oneAuthenticator(await db.query(`SELECT ${COLUMNS} FROM authlib_authenticators WHERE "credentialID" = $1::text`, [credentialID]))
  }
  return {
    async createAuthenticator(a) {
      const rows = await db.query(
        `INSERT INTO authlib_authenticators (${COLUMNS})
         VALUES ($1::text, $2::text, $3::text, $4::bigint, $5::boolean, $6::text, $7::text, $8::text, $9::text,
                 COALESCE($10::timestamptz, now()), $11::timestamptz) RETURNING ${COLUMNS}`,
        [
          requiredText(a.credentialID, "credentialID"),
          requiredText(a.userId, "userId"),
          requiredText(a.providerAccountId, "providerAccountId"),
          requiredInteger(a.counter, "counter"),
          Boolean(a.credentialBackedUp),
          requiredText(a.credentialPublicKey, "credentialPublicKey"),
          requiredText(a.credentialDeviceType, "credentialDeviceType"),
          text(a.transports, "transports"),
          text(a.name, "name"),
          timestamp(a.createdAt, "createdAt"),
          timestamp(a.lastUsedAt, "lastUsedAt"),
        ],
      )
      return written(oneAuthenticator(rows), "authenticator")
    },
    getAuthenticator,
    async listAuthenticatorsByUserId(userId) {
      if (!lookupable(userId)) return []
      const rows = await db.query(
        `SELECT ${COLUMNS} FROM authlib_authenticators WHERE "user" = $1::text ORDER BY xata_createdat, "credentialID"`,
        [userId],
      )
      return rows.map(toAuthenticator).filter(isAuthenticator)
    },
    async updateAuthenticatorCounter(credentialID, newCounter) {
      const counter = integer(newCounter, "newCounter")
      const rows = lookupable(credentialID)
        ? await db.query(
            `UPDATE authlib_authenticators SET counter = $2::bigint, "lastUsedAt" = now() WHERE "credentialID" = $1::text RETURNING ${COLUMNS}`,
            [credentialID, counter],
          )
        : []
      const updated = oneAuthenticator(rows)
      if (!updated) {
        throw new XataAdapterError("no authenticator has this credential ID", { code: "UNKNOWN_CREDENTIAL", cause: { credentialID } })
      }
      return updated
    },
    // One DELETE ... RETURNING: of concurrent calls exactly one receives the row.
    async deleteAuthenticator(credentialID) {
      if (!lookupable(credentialID)) return null
      return oneAuthenticator(
        await db.query(`DELETE FROM authlib_authenticators WHERE "credentialID" = $1::text RETURNING ${COLUMNS}`, [credentialID]),
      )
    },
    async updateAuthenticator(credentialID, patch) {
      if (!lookupable(credentialID)) return null
      if (patch.name === undefined) return getAuthenticator(credentialID)
      return oneAuthenticator(
        await db.query(`UPDATE authlib_authenticators SET name = $2::text WHERE "credentialID" = $1::text RETURNING ${COLUMNS}`, [
          credentialID,
          text(patch.name, "name"),
        ]),
      )
    },
  }
}
