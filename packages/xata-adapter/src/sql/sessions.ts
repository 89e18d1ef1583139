/** `authlib_sessions` and `authlib_users_sessions`. Tokens arrive hashed by core and are stored as given. */
import type { AdapterSession } from "@authlib/core"
import type { XataAdapterMethods } from "../adapter-type.js"
import type { Executor, Row, SqlParam } from "../executors/index.js"
import { XataAdapterError } from "../errors.js"
import { asDate, asNumber, asString, first, integer, lookupable, requiredText, requiredTimestamp, text, timestamp, written } from "./values.js"
import { toUser } from "./users.js"

/** `amr` (text[], migration 7) read as JSON text: the Xata endpoint, PGlite and node-postgres agree on that, not on arrays. */
const AMR_OUT = `array_to_json(amr)::text AS amr`
export const SESSION_COLUMNS = `"sessionToken", expires, "user", "createdAt", "clientDescription", "clientNetwork", error, "authTime", ${AMR_OUT}`
/** The same columns selected from a CTE that returned `SESSION_COLUMNS` (`amr` already JSON text). */
const RETURNED_COLUMNS = `"sessionToken", expires, "user", "createdAt", "clientDescription", "clientNetwork", error, "authTime", amr`
/** The `amr` parameter `$n` (JSON text or NULL) as a text array, its order kept. */
export const amrIn = (n: number) => `CASE WHEN $${n}::text IS NULL THEN NULL ELSE ARRAY(SELECT e FROM jsonb_array_elements_text($${n}::jsonb) WITH ORDINALITY AS t(e, i) ORDER BY i) END`

/** The optional metadata of `AdapterSession` (migrations 4 and 7), by field name; each read back only when set. */
const METADATA = ["createdAt", "clientDescription", "clientNetwork", "error", "authTime", "amr"] as const

/** `amr` as a JSON text parameter, or null; anything but an array of short strings is refused. */
export function amrParam(value: unknown): string | null {
  if (value === null || value === undefined) return null
  if (!Array.isArray(value) || value.length > 32 || !value.every((m) => typeof m === "string" && m.length > 0 && m.length <= 64))
    throw new XataAdapterError('"amr" must be an array of method names', { code: "INVALID_INPUT", cause: { field: "amr" } })
  return JSON.stringify(value)
}

/**
 * A new session's parameters, in their placeholders' order: token, expires, createdAt,
 * clientDescription, clientNetwork, authTime, amr (a statement that finds the owner itself needs no
 * more; `createSession` adds the user and `error` after them).
 */
export function ownedSessionParams(session: Omit<AdapterSession, "userId">): SqlParam[] {
  return [
    requiredText(session.sessionToken, "sessionToken"),
    requiredTimestamp(session.expires, "expires"),
    timestamp(session.createdAt, "createdAt"),
    text(session.clientDescription, "clientDescription"),
    text(session.clientNetwork, "clientNetwork"),
    integer(session.authTime, "authTime"),
    amrParam(session.amr),
  ]
}

/** `amr` as stored (JSON text of a text array), or null. */
function asAmr(value: unknown): string[] | null {
  if (typeof value !== "string") return Array.isArray(value) ? value.map(String) : null
  try {
    const parsed: unknown = JSON.parse(value)
    return Array.isArray(parsed) ? parsed.map(String) : null
  } catch {
    return null
  }
}

/**
 * A session row as an `AdapterSession`, or `null` when it lacks the expiry or user the type requires:
 * the adapter never writes such a row (`createSession` rejects a missing `expires`), and one written by
 * other tools must not read as a session that never expires.
 */
export function toSession(row: Row): AdapterSession | null {
  const sessionToken = asString(row.sessionToken)
  const userId = asString(row.user)
  const expires = asDate(row.expires)
  if (sessionToken === null || userId === null || expires === null) return null
  const session: AdapterSession = { sessionToken, userId, expires }
  const createdAt = asDate(row.createdAt)
  if (createdAt !== null) session.createdAt = createdAt
  for (const field of ["clientDescription", "clientNetwork", "error"] as const) {
    const value = asString(row[field])
    if (value !== null) session[field] = value
  }
  const authTime = asNumber(row.authTime)
  if (authTime !== null) session.authTime = authTime
  const amr = asAmr(row.amr)
  if (amr !== null) session.amr = amr
  return session
}

/**
 * The session an INSERT just stored from `params` (`ownedSessionParams`, in their order) for
 * `userId`, as `toSession` reads it back. The statements that create a session for an owner they
 * find (`createSessionForAccount`, the e-mail link's) send back only the owner: every session
 * column is one of their own parameters, and node-postgres' work per row grows with its columns.
 */
export function insertedSession(params: readonly SqlParam[], userId: string): AdapterSession | null {
  return toSession({
    sessionToken: params[0], expires: params[1], user: userId, createdAt: params[2], clientDescription: params[3],
    clientNetwork: params[4], error: null, authTime: params[5], amr: params[6],
  })
}

const oneSession = (rows: Row[]) => {
  const row = first(rows)
  return row ? toSession(row) : null
}

/**
 * The statements of the session paths as module constants: the pg executor names each prepared
 * statement by its text, and a text built per call would be hashed again on every call.
 */
const CREATE_SESSION = `WITH s AS (
           INSERT INTO authlib_sessions ("sessionToken", expires, "user", "createdAt", "clientDescription", "clientNetwork", error, "authTime", amr)
           VALUES ($1::text, $2::timestamptz, $8::text, $3::timestamptz, $4::text, $5::text, $9::text, $6::bigint, ${amrIn(7)})
           RETURNING xata_id, ${SESSION_COLUMNS}
         ), link AS (
           INSERT INTO authlib_users_sessions ("user", session) SELECT "user", xata_id FROM s
         )
         SELECT ${RETURNED_COLUMNS} FROM s`
const CREATE_FOR_ACCOUNT = `WITH owner AS (
             SELECT u.xata_id, u.name, u.email, u."emailVerified", u.image
             FROM authlib_accounts a JOIN authlib_users u ON u.xata_id = a."user"
             WHERE a.provider = $1::text AND a."providerAccountId" = $2::text
           ), s AS (
             INSERT INTO authlib_sessions ("sessionToken", expires, "user", "createdAt", "clientDescription", "clientNetwork", "authTime", amr)
             SELECT $3::text, $4::timestamptz, xata_id, $5::timestamptz, $6::text, $7::text, $8::bigint, ${amrIn(9)} FROM owner
             RETURNING xata_id, "user"
           ), link AS (
             INSERT INTO authlib_users_sessions ("user", session) SELECT "user", xata_id FROM s
           )
           SELECT o.xata_id AS u_xata_id, o.name AS u_name, o.email AS u_email, o."emailVerified" AS "u_emailVerified", o.image AS u_image
           FROM s JOIN owner o ON o.xata_id = s."user"`
/**
 * Every request's session read. It leaves out the two columns the caller knows (the token, and the
 * user the join gives): node-postgres' work per row grows with its columns (issue 38).
 */
const SESSION_AND_USER = `SELECT s.expires, s."createdAt", s."clientDescription", s."clientNetwork", s.error, s."authTime",
                  array_to_json(s.amr)::text AS amr, u.xata_id AS u_xata_id, u.name AS u_name, u.email AS u_email,
                  u."emailVerified" AS "u_emailVerified", u.image AS u_image
           FROM authlib_sessions s JOIN authlib_users u ON u.xata_id = s."user"
           WHERE s."sessionToken" = $1::text`
const EXTEND_SESSION = `UPDATE authlib_sessions SET expires = $2::timestamptz
         WHERE "sessionToken" = $1::text AND expires < $3::timestamptz RETURNING ${SESSION_COLUMNS}`
const DELETE_SESSION = `DELETE FROM authlib_sessions WHERE "sessionToken" = $1::text RETURNING ${SESSION_COLUMNS}`

type SessionMethods = "createSessionForAccount" | "createSession" | "getSessionAndUser" | "updateSession" | "extendSession" | "deleteSession" | "listSessionsByUserId" | "deleteSessionsByUserId"

export function sessionMethods(db: Executor): Pick<XataAdapterMethods, SessionMethods> {
  return {
    async createSession(session) {
      const rows = await db.query(
        CREATE_SESSION,
        [...ownedSessionParams(session), requiredText(session.userId, "userId"), text(session.error, "error")],
      )
      return written(oneSession(rows), "session")
    },
    // The account's owner, the session and its link in one statement (a sign-in whose first factor
    // named an account: credentials). No owner: nothing is written and core takes the usual path.
    async createSessionForAccount({ provider, providerAccountId }, session) {
      if (!lookupable(provider, providerAccountId)) return null
      const params = ownedSessionParams(session)
      const row = first(await db.query(CREATE_FOR_ACCOUNT, [provider, providerAccountId, ...params]))
      if (!row) return null
      const user = toUser(row, "u_")
      const stored = insertedSession(params, user.id)
      return stored && { session: stored, user }
    },
    async getSessionAndUser(sessionToken) {
      if (!lookupable(sessionToken)) return null
      const row = first(await db.query(SESSION_AND_USER, [sessionToken]))
      if (row) {
        // Not sent back: the token is the one asked for, the session's user is the joined user.
        row.sessionToken = sessionToken
        row.user = row.u_xata_id
      }
      const session = row ? toSession(row) : null
      return row && session ? { session, user: toUser(row, "u_") } : null
    },
    // A metadata key left out is kept and `null` clears it: each comes with a "given" flag.
    async updateSession(patch) {
      const { sessionToken, expires, userId } = patch
      if (!lookupable(sessionToken)) return null
      const given = (field: (typeof METADATA)[number]) => Object.hasOwn(patch, field) && patch[field] !== undefined
      const rows = await db.query(
        `WITH s AS (
           UPDATE authlib_sessions SET expires = COALESCE($2::timestamptz, expires), "user" = COALESCE($3::text, "user"),
             "createdAt" = CASE WHEN $4::boolean THEN $5::timestamptz ELSE "createdAt" END,
             "clientDescription" = CASE WHEN $6::boolean THEN $7::text ELSE "clientDescription" END,
             "clientNetwork" = CASE WHEN $8::boolean THEN $9::text ELSE "clientNetwork" END,
             error = CASE WHEN $10::boolean THEN $11::text ELSE error END,
             "authTime" = CASE WHEN $12::boolean THEN $13::bigint ELSE "authTime" END,
             amr = CASE WHEN $14::boolean THEN ${amrIn(15)} ELSE amr END
           WHERE "sessionToken" = $1::text RETURNING xata_id, ${SESSION_COLUMNS}
         ), link AS (
           UPDATE authlib_users_sessions l SET "user" = s."user" FROM s WHERE l.session = s.xata_id AND l."user" IS DISTINCT FROM s."user"
         )
         SELECT ${RETURNED_COLUMNS} FROM s`,
        [
          sessionToken,
          timestamp(expires, "expires"),
          text(userId, "userId"),
          given("createdAt"),
          timestamp(patch.createdAt, "createdAt"),
          given("clientDescription"),
          text(patch.clientDescription, "clientDescription"),
          given("clientNetwork"),
          text(patch.clientNetwork, "clientNetwork"),
          given("error"),
          text(patch.error, "error"),
          given("authTime"),
          integer(patch.authTime, "authTime"),
          given("amr"),
          amrParam(patch.amr),
        ],
      )
      return oneSession(rows)
    },
    // One conditional UPDATE: under concurrent calls Postgres re-checks `expires < $3` on the row the
    // first writer committed, so the others match nothing. Only `expires` changes: no link to update.
    async extendSession({ sessionToken, expires }, dueBefore) {
      if (!lookupable(sessionToken)) return null
      const rows = await db.query(
        EXTEND_SESSION,
        [sessionToken, requiredTimestamp(expires, "expires"), requiredTimestamp(dueBefore, "dueBefore")],
      )
      return oneSession(rows)
    },
    // Sign-out's statement. The session's `authlib_users_sessions` row goes with it through the
    // link's ON DELETE CASCADE (migration 1): the trigger runs on every session delete anyway, so
    // deleting the link in the statement as well only did that work twice (about a quarter of the
    // statement's server CPU, `bench/db-schema-probe.ts`).
    async deleteSession(sessionToken) {
      if (!lookupable(sessionToken)) return null
      return oneSession(await db.query(DELETE_SESSION, [sessionToken]))
    },
    async listSessionsByUserId(userId) {
      if (!lookupable(userId)) return []
      const rows = await db.query(`SELECT ${SESSION_COLUMNS} FROM authlib_sessions WHERE "user" = $1::text ORDER BY expires`, [userId])
      return rows.map(toSession).filter((s): s is AdapterSession => s !== null)
    },
    async deleteSessionsByUserId(userId, keepSessionToken) {
      if (!lookupable(userId)) return 0
      // The sessions and their links in one statement, as deleteSession does.
      const rows = await db.query(
        `WITH s AS (
           DELETE FROM authlib_sessions WHERE "user" = $1::text AND "sessionToken" IS DISTINCT FROM $2::text RETURNING xata_id
         ), link AS (
           DELETE FROM authlib_users_sessions WHERE session IN (SELECT xata_id FROM s)
         )
         SELECT count(*)::integer AS deleted FROM s`,
        [userId, keepSessionToken === undefined ? null : text(keepSessionToken, "keepSessionToken")],
      )
      return Number(first(rows)?.deleted ?? 0)
    },
  }
}
