/**
 * `authlib_users`: createUser, getUser, getUserByEmail, getUserByAccount, updateUser, deleteUser
 * (which also applies the organizations' rule: see `authlib_organization_release_user` in `schema.ts`).
 */
import { OrganizationError, type AdapterUser } from "@authlib/core"
import { XataAdapterError } from "../errors.js"
import type { XataAdapterMethods } from "../adapter-type.js"
import { QueryError, type Executor, type Row, type SqlParam } from "../executors/index.js"
import { LAST_OWNER_MESSAGE, LAST_OWNER_STATE } from "../schema-organizations.js"
import { asDate, asString, first, lookupable, text, timestamp, written } from "./values.js"

export const USER_COLUMNS = `xata_id, name, email, "emailVerified", image`
const NEW_ID = `'rec_' || replace(gen_random_uuid()::text, '-', '')`

/**
 * A user row (optionally with prefixed column names, as in a join) as an `AdapterUser`. A `NULL`
 * e-mail is a user whose provider gave no address and reads as `email: null`, never as a string.
 */
export function toUser(row: Row, prefix = ""): AdapterUser {
  return {
    id: String(row[`${prefix}xata_id`]),
    name: asString(row[`${prefix}name`]),
    email: asString(row[`${prefix}email`]),
    emailVerified: asDate(row[`${prefix}emailVerified`]),
    image: asString(row[`${prefix}image`]),
  }
}

const oneUser = (rows: Row[]) => {
  const row = first(rows)
  return row ? toUser(row) : null
}

/** Fields `updateUser` may change, with their parameter conversion and SQL type. */
const UPDATABLE: Record<string, [column: string, convert: (v: never, f: string) => SqlParam, type: string]> = {
  name: ["name", text, "text"],
  // null removes the address (an OAuth user may have none); undefined leaves it as it is.
  email: ["email", text, "text"],
  image: ["image", text, "text"],
  emailVerified: ['"emailVerified"', timestamp, "timestamptz"],
}

function updateStatement(patch: Partial<AdapterUser>): { sql: string; params: SqlParam[] } {
  const params: SqlParam[] = [text(patch.id, "id")]
  const sets: string[] = []
  for (const [field, [column, convert, type]] of Object.entries(UPDATABLE)) {
    const value = (patch as Record<string, unknown>)[field]
    if (value === undefined) continue
    params.push(convert(value as never, field))
    sets.push(`${column} = $${params.length}::${type}`)
  }
  const sql =
    sets.length === 0
      ? `SELECT ${USER_COLUMNS} FROM authlib_users WHERE xata_id = $1::text`
      : `UPDATE authlib_users SET ${sets.join(", ")} WHERE xata_id = $1::text RETURNING ${USER_COLUMNS}`
  return { sql, params }
}

type UserMethods = "createUser" | "getUser" | "getUserByEmail" | "getUserByAccount" | "updateUser" | "deleteUser" | "getUserSessionEpoch" | "incrementUserSessionEpoch"

const epochOf = (rows: Row[]) => {
  const row = first(rows)
  return row ? Number(row.epoch) : null
}

export function userMethods(db: Executor): Pick<XataAdapterMethods, UserMethods> {
  return {
    async getUserSessionEpoch(userId) {
      if (!lookupable(userId)) return null
      return epochOf(await db.query(`SELECT COALESCE("sessionEpoch", 0) AS epoch FROM authlib_users WHERE xata_id = $1::text`, [userId]))
    },
    // One UPDATE: concurrent calls queue on the row lock, and each reads the value the one before wrote.
    async incrementUserSessionEpoch(userId) {
      if (!lookupable(userId)) return null
      return epochOf(
        await db.query(`UPDATE authlib_users SET "sessionEpoch" = COALESCE("sessionEpoch", 0) + 1 WHERE xata_id = $1::text RETURNING "sessionEpoch" AS epoch`, [userId]),
      )
    },
    async createUser(user) {
      // A missing e-mail is stored as NULL: the unique index admits any number of those.
      const params = [text(user.id || null, "id"), text(user.name, "name"), text(user.email, "email")]
      const rows = await db.query(
        `INSERT INTO authlib_users (xata_id, name, email, "emailVerified", image)
         VALUES (COALESCE($1::text, ${NEW_ID}), $2::text, $3::text, $4::timestamptz, $5::text)
         RETURNING ${USER_COLUMNS}`,
        [...params, timestamp(user.emailVerified, "emailVerified"), text(user.image, "image")],
      )
      return written(oneUser(rows), "user")
    },
    async getUser(id) {
      if (!lookupable(id)) return null
      return oneUser(await db.query(`SELECT ${USER_COLUMNS} FROM authlib_users WHERE xata_id = $1::text`, [id]))
    },
    async getUserByEmail(email) {
      // Only a string is looked up, and `email = $1` is never true for a NULL: no address, no match.
      if (!lookupable(email)) return null
      return oneUser(await db.query(`SELECT ${USER_COLUMNS} FROM authlib_users WHERE email = $1::text`, [email]))
    },
    async getUserByAccount({ provider, providerAccountId }) {
      if (!lookupable(provider, providerAccountId)) return null
      const rows = await db.query(
        `SELECT u.xata_id, u.name, u.email, u."emailVerified", u.image
         FROM authlib_accounts a JOIN authlib_users u ON u.xata_id = a."user"
         WHERE a.provider = $1::text AND a."providerAccountId" = $2::text`,
        [provider, providerAccountId],
      )
      return oneUser(rows)
    },
    async updateUser(patch) {
      const { sql, params } = updateStatement(patch)
      const user = oneUser(await db.query(sql, params))
      if (!user) throw new XataAdapterError(`no user with id "${patch.id}"`, { code: "UNKNOWN_USER", cause: { id: patch.id } })
      return user
    },
    async deleteUser(userId) {
      if (!lookupable(userId)) return null
      // One statement: links, accounts, sessions, authenticators, memberships and the user go together
      // or not at all. The user row is deleted only once the organizations' function has answered
      // (its WHERE needs the answer), and that function fails the whole statement for a last owner.
      let rows: Row[]
      try {
        rows = await db.query(
        `WITH released AS (SELECT authlib_organization_release_user($1::text) AS done),
              ua AS (DELETE FROM authlib_users_accounts WHERE "user" = $1::text),
              us AS (DELETE FROM authlib_users_sessions WHERE "user" = $1::text),
              a AS (DELETE FROM authlib_accounts WHERE "user" = $1::text),
              s AS (DELETE FROM authlib_sessions WHERE "user" = $1::text),
              au AS (DELETE FROM authlib_authenticators WHERE "user" = $1::text)
         DELETE FROM authlib_users WHERE xata_id = $1::text AND (SELECT done FROM released) RETURNING ${USER_COLUMNS}`,
        [userId],
        )
      } catch (err) {
        // By its SQLSTATE, or by its message where only that travels (the Xata endpoint).
        if (err instanceof QueryError && (err.sqlState === LAST_OWNER_STATE || err.message.includes(LAST_OWNER_MESSAGE))) {
          throw new OrganizationError("The user is the last owner of an organization with other members", { code: "LAST_OWNER" })
        }
        throw err
      }
      return oneUser(rows)
    },
  }
}
