/** `authlib_sessions` and `authlib_users_sessions`. Tokens arrive hashed by core and are stored as given. */
import type { AdapterSession } from "@authlib/core"
import type { XataAdapterMethods } from "../adapter-type.js"
import type { Executor, Row } from "../executors/index.js"
import { asDate, first, lookupable, text, timestamp } from "./values.js"
import { toUser } from "./users.js"

const SESSION_COLUMNS = `"sessionToken", expires, "user"`

function toSession(row: Row): AdapterSession {
  return { sessionToken: String(row.sessionToken), userId: String(row.user), expires: asDate(row.expires) as Date }
}

const oneSession = (rows: Row[]) => {
  const row = first(rows)
  return row ? toSession(row) : null
}

export function sessionMethods(db: Executor): Pick<XataAdapterMethods, "createSession" | "getSessionAndUser" | "updateSession" | "deleteSession"> {
  return {
    async createSession(session) {
      const rows = await db.query(
        `WITH s AS (
           INSERT INTO authlib_sessions ("sessionToken", expires, "user") VALUES ($1::text, $2::timestamptz, $3::text)
           RETURNING xata_id, ${SESSION_COLUMNS}
         ), link AS (
           INSERT INTO authlib_users_sessions ("user", session) SELECT "user", xata_id FROM s
         )
         SELECT ${SESSION_COLUMNS} FROM s`,
        [text(session.sessionToken, "sessionToken"), timestamp(session.expires, "expires"), text(session.userId, "userId")],
      )
      return oneSession(rows) as AdapterSession
    },
    async getSessionAndUser(sessionToken) {
      if (!lookupable(sessionToken)) return null
      const row = first(
        await db.query(
          `SELECT s."sessionToken", s.expires, s."user", u.xata_id AS u_xata_id, u.name AS u_name, u.email AS u_email,
                  u."emailVerified" AS "u_emailVerified", u.image AS u_image
           FROM authlib_sessions s JOIN authlib_users u ON u.xata_id = s."user"
           WHERE s."sessionToken" = $1::text`,
          [sessionToken],
        ),
      )
      return row ? { session: toSession(row), user: toUser(row, "u_") } : null
    },
    async updateSession({ sessionToken, expires, userId }) {
      if (!lookupable(sessionToken)) return null
      const rows = await db.query(
        `WITH s AS (
           UPDATE authlib_sessions SET expires = COALESCE($2::timestamptz, expires), "user" = COALESCE($3::text, "user")
           WHERE "sessionToken" = $1::text RETURNING xata_id, ${SESSION_COLUMNS}
         ), link AS (
           UPDATE authlib_users_sessions l SET "user" = s."user" FROM s WHERE l.session = s.xata_id AND l."user" IS DISTINCT FROM s."user"
         )
         SELECT ${SESSION_COLUMNS} FROM s`,
        [sessionToken, timestamp(expires, "expires"), text(userId, "userId")],
      )
      return oneSession(rows)
    },
    async deleteSession(sessionToken) {
      if (!lookupable(sessionToken)) return null
      const rows = await db.query(
        `WITH s AS (
           DELETE FROM authlib_sessions WHERE "sessionToken" = $1::text RETURNING xata_id, ${SESSION_COLUMNS}
         ), link AS (
           DELETE FROM authlib_users_sessions WHERE session IN (SELECT xata_id FROM s)
         )
         SELECT ${SESSION_COLUMNS} FROM s`,
        [sessionToken],
      )
      return oneSession(rows)
    },
  }
}
