/**
 * A passkey sign-in in two statements (issue 38): the challenge's record used and the credential
 * read (`useVerificationTokenAndGetAuthenticator`), then, once core has verified the assertion,
 * the counter stored and the owner's session with its `authlib_users_sessions` link row written
 * (`updateAuthenticatorCounterAndCreateSession`).
 */
import type { XataAdapterMethods } from "../adapter-type.js"
import type { Executor, Row } from "../executors/index.js"
import { COLUMNS, toAuthenticator } from "./authenticators.js"
import { amrIn, ownedSessionParams, SESSION_COLUMNS, toSession } from "./sessions.js"
import { toToken } from "./verification-tokens.js"
import { toUser } from "./users.js"
import { first, integer, lookupable } from "./values.js"

/**
 * `t` is `useVerificationToken`'s single-use DELETE (of concurrent statements one sees the row);
 * `a` is `getAuthenticator`'s read. One row always, each side NULL when absent.
 */
const USE_AND_READ = `WITH t AS (
  DELETE FROM "authlib_verificationTokens" WHERE identifier = $1::text AND token = $2::text
  RETURNING identifier, token, expires
), a AS (
  SELECT ${COLUMNS} FROM authlib_authenticators WHERE "credentialID" = $3::text
)
SELECT t.identifier AS t_identifier, t.token AS t_token, t.expires AS t_expires, a.*
FROM (SELECT 1) one LEFT JOIN t ON true LEFT JOIN a ON true`

/**
 * `a` updates the counter only of a passkey whose user still exists (a passkey deleted meanwhile
 * matches nothing: the UPDATE waits for a concurrent DELETE and re-checks the row); the session
 * and its link are inserted only from `a`'s row, for its user: no passkey, nothing written.
 */
const UPDATE_AND_CREATE = `WITH a AS (
  UPDATE authlib_authenticators SET counter = $2::bigint, "lastUsedAt" = now()
  WHERE "credentialID" = $1::text AND EXISTS (SELECT 1 FROM authlib_users u WHERE u.xata_id = authlib_authenticators."user")
  RETURNING ${COLUMNS}
), o AS (
  SELECT u.xata_id, u.name, u.email, u."emailVerified", u.image FROM authlib_users u JOIN a ON u.xata_id = a."user"
), s AS (
  INSERT INTO authlib_sessions ("sessionToken", expires, "user", "createdAt", "clientDescription", "clientNetwork", "authTime", amr)
  SELECT $3::text, $4::timestamptz, o.xata_id, $5::timestamptz, $6::text, $7::text, $8::bigint, ${amrIn(9)} FROM o
  RETURNING xata_id, ${SESSION_COLUMNS}
), link AS (
  INSERT INTO authlib_users_sessions ("user", session) SELECT "user", xata_id FROM s
)
SELECT a.*, o.xata_id AS u_xata_id, o.name AS u_name, o.email AS u_email, o."emailVerified" AS "u_emailVerified", o.image AS u_image,
       s."sessionToken", s.expires AS s_expires, s."user" AS s_user, s."createdAt" AS "s_createdAt", s."clientDescription", s."clientNetwork", s.error, s."authTime", s.amr
FROM a JOIN o ON true JOIN s ON true`

/** The session columns of `UPDATE_AND_CREATE`'s row (renamed where they share a name with the authenticator's). */
const sessionOf = (row: Row) => toSession({ ...row, expires: row.s_expires, user: row.s_user, createdAt: row.s_createdAt })

export function passkeySignInMethods(db: Executor): Pick<XataAdapterMethods, "useVerificationTokenAndGetAuthenticator" | "updateAuthenticatorCounterAndCreateSession"> {
  return {
    async useVerificationTokenAndGetAuthenticator({ identifier, token }, credentialID) {
      if (!lookupable(identifier, token)) return { token: null, authenticator: null }
      // An id Postgres cannot hold matches no passkey (NULL never equals): the token is still used.
      const row = first(await db.query(USE_AND_READ, [identifier, token, lookupable(credentialID) ? credentialID : null]))
      const used = row && row.t_identifier != null ? toToken({ identifier: row.t_identifier, token: row.t_token, expires: row.t_expires }) : null
      const authenticator = row && row.credentialID != null ? toAuthenticator(row) : null
      return { token: used, authenticator }
    },
    async updateAuthenticatorCounterAndCreateSession(credentialID, newCounter, session) {
      const counter = integer(newCounter, "newCounter")
      if (!lookupable(credentialID)) return null
      const row = first(await db.query(UPDATE_AND_CREATE, [credentialID, counter, ...ownedSessionParams(session)]))
      const authenticator = row ? toAuthenticator(row) : null
      const stored = row ? sessionOf(row) : null
      return row && authenticator && stored ? { authenticator, user: toUser(row, "u_"), session: stored } : null
    },
  }
}
