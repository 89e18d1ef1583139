/**
 * E-mail link completion for a returning user in one statement: the link used, the owner of the
 * e-mail account read, and a session with its `authlib_users_sessions` link row written for that
 * owner (`useVerificationTokenAndCreateSession`, issue 27).
 */
import type { XataAdapterMethods } from "../adapter-type.js"
import type { Executor } from "../executors/index.js"
import { amrIn, insertedSession, ownedSessionParams } from "./sessions.js"
import { asBoolean, asDate, first, lookupable, timestamp } from "./values.js"
import { toUser } from "./users.js"

/**
 * `t` is the single-use DELETE of `useVerificationToken` (of concurrent statements, one sees the
 * row; the others' `t` is empty, so they write nothing). The session is inserted only from a row
 * of `t` joined to the owner, and only for a live link (`expires` later than `$12`, the adapter's
 * clock, as core's), an owner whose address is the link's and is verified: exactly the case in
 * which core's usual path would write nothing before the session. Otherwise the answer carries
 * the token and owner without a session, and core goes on as after `useVerificationTokenForAccount`.
 */
const USE_AND_CREATE = `WITH t AS (
  DELETE FROM "authlib_verificationTokens" WHERE identifier = $1::text AND token = $2::text
  RETURNING identifier, token, expires
), o AS (
  SELECT u.xata_id, u.name, u.email, u."emailVerified", u.image
  FROM authlib_accounts a JOIN authlib_users u ON u.xata_id = a."user"
  WHERE a.provider = $3::text AND a."providerAccountId" = $4::text
), s AS (
  INSERT INTO authlib_sessions ("sessionToken", expires, "user", "createdAt", "clientDescription", "clientNetwork", "authTime", amr)
  SELECT $5::text, $6::timestamptz, o.xata_id, $7::timestamptz, $8::text, $9::text, $10::bigint, ${amrIn(11)}
  FROM t JOIN o ON o.email = t.identifier
  WHERE t.expires > $12::timestamptz AND o."emailVerified" IS NOT NULL
  RETURNING xata_id, "user"
), link AS (
  INSERT INTO authlib_users_sessions ("user", session) SELECT "user", xata_id FROM s
)
SELECT t.expires, o.xata_id AS u_xata_id, o.name AS u_name, o.email AS u_email,
       o."emailVerified" AS "u_emailVerified", o.image AS u_image, s.xata_id IS NOT NULL AS created
FROM t LEFT JOIN o ON true LEFT JOIN s ON true`

export function linkSignInMethods(db: Executor): Pick<XataAdapterMethods, "useVerificationTokenAndCreateSession"> {
  return {
    async useVerificationTokenAndCreateSession({ identifier, token }, { provider, providerAccountId }, session) {
      if (!lookupable(identifier, token)) return null
      // An account key Postgres cannot hold matches no account (NULL never equals): the token is still used, no session written.
      const accountKey = lookupable(provider, providerAccountId) ? [provider, providerAccountId] : [null, null]
      const params = ownedSessionParams(session)
      const row = first(await db.query(USE_AND_CREATE, [identifier, token, ...accountKey, ...params, timestamp(new Date(), "now")]))
      // The used token is the one asked for (the DELETE matched both by equality); its expiry comes back.
      const expires = row ? asDate(row.expires) : null
      if (!row || expires === null) return null
      const owner = row.u_xata_id == null ? null : toUser(row, "u_")
      const created = owner && asBoolean(row.created) ? insertedSession(params, owner.id) : null
      return { token: { identifier, token, expires }, owner, session: created }
    },
  }
}
