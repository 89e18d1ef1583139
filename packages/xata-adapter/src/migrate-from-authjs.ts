/**
 * `migrateFromAuthJs`: moves an Auth.js app's data into the adapter's `authlib_*` tables, in the
 * same database, so that switching the app to authlib signs no one out.
 *
 * - Sources: `@auth/pg-adapter`'s tables (`users`, `accounts`, `sessions`, `verification_token`,
 *   integer ids) or `@auth/xata-adapter`'s (`nextauth_*`, Xata record ids). NextAuth.js v4 apps
 *   use the same tables (`@auth/pg-adapter` serves v4 too; v4's `@next-auth/xata-adapter` made
 *   the same `nextauth_*` ones), and core reads v4's database session cookie
 *   (`next-auth.session-token`) as it reads v5's.
 * - Ids are kept as text (`1` becomes `"1"`), so a JWT whose `sub` is an Auth.js user id still names
 *   the same user.
 * - Session tokens are hashed on the way, in SQL: authlib stores base64url(SHA-256("authjs." + token)),
 *   which is what core looks up for the token in an Auth.js session cookie (core's
 *   `session.acceptAuthJsSessions`; the prefix means only moved sessions are found through an Auth.js
 *   cookie, never a live authlib token planted under an Auth.js name). Expired sessions and tokens are
 *   not copied.
 * - Verification tokens copy as they are: both libraries store hex(SHA-256(token + secret)).
 * - Idempotent and resumable: every statement is `INSERT ... SELECT ... ON CONFLICT DO NOTHING` in
 *   batches in key order, so running it again copies only what is missing (rows that changed in
 *   Auth.js after they were copied are not updated).
 */
import { toExecutor, type AdapterClient, type Executor, type SqlParam } from "./executors/index.js"
import { migrate } from "./migrate.js"
import { XataAdapterError } from "./errors.js"
import { toAdapterError } from "./sql/values.js"

/** Which Auth.js adapter wrote the data. */
export type AuthJsSource = "pg-adapter" | "xata-adapter"

/** Options of `migrateFromAuthJs`. */
export interface MigrateFromAuthJsOptions {
  from: AuthJsSource
  /** Count what would be copied, write nothing. */
  dryRun?: boolean
  /** Rows per statement. Default 1,000. */
  batchSize?: number
}

/** Rows copied per table (with `dryRun`: rows that would be copied). */
export interface MigrateFromAuthJsResult {
  users: number
  accounts: number
  sessions: number
  verificationTokens: number
  dryRun: boolean
}

interface Layout {
  users: string
  accounts: string
  sessions: string
  tokens: string
  /** The source's id column and its SQL type (the batch cursor). */
  id: string
  idType: "bigint" | "text"
  /** The user reference column of accounts and sessions. */
  userRef: string
}

const LAYOUTS: Record<AuthJsSource, Layout> = {
  "pg-adapter": { users: "users", accounts: "accounts", sessions: "sessions", tokens: "verification_token", id: "id", idType: "bigint", userRef: `"userId"` },
  "xata-adapter": { users: "nextauth_users", accounts: "nextauth_accounts", sessions: "nextauth_sessions", tokens: `"nextauth_verificationTokens"`, id: "xata_id", idType: "text", userRef: `"user"` },
}

/**
 * base64url(SHA-256(UTF-8 "authjs." + token)) without padding, as core's `sha256` computes it for a
 * carried-over token (core's `AUTHJS_TOKEN_PREFIX`).
 */
const HASHED_TOKEN = (column: string) => `rtrim(translate(encode(sha256(convert_to('authjs.' || ${column}, 'UTF8')), 'base64'), '+/', '-_'), '=')`

/** The statements of one source: each copies one batch after the cursor and reports it. */
function statements(l: Layout) {
  const batch = (table: string, where = "TRUE") =>
    `batch AS (SELECT * FROM ${table} WHERE ${l.id} > $1::${l.idType} AND ${where} ORDER BY ${l.id} LIMIT $2::integer)`
  const report = `SELECT (SELECT max(${l.id})::text FROM batch) AS last, (SELECT count(*) FROM batch)::integer AS seen, (SELECT count(*) FROM ins)::integer AS copied`
  const userExists = `EXISTS (SELECT 1 FROM authlib_users u WHERE u.xata_id = ${l.userRef}::text)`
  return {
    users: `WITH ${batch(l.users)},
ins AS (INSERT INTO authlib_users (xata_id, name, email, "emailVerified", image)
  SELECT ${l.id}::text, name, email, "emailVerified", image FROM batch ON CONFLICT DO NOTHING RETURNING 1)
${report}`,
    accounts: `WITH ${batch(l.accounts, userExists)},
a AS (INSERT INTO authlib_accounts (xata_id, "user", type, provider, "providerAccountId", refresh_token, access_token, expires_at, id_token, scope, session_state, token_type)
  SELECT 'authjs_' || ${l.id}::text, ${l.userRef}::text, type, provider, "providerAccountId", refresh_token, access_token, expires_at::bigint, id_token, scope, session_state, token_type
  FROM batch ON CONFLICT DO NOTHING RETURNING xata_id, "user"),
ins AS (INSERT INTO authlib_users_accounts ("user", account) SELECT "user", xata_id FROM a RETURNING 1)
${report}`,
    sessions: `WITH ${batch(l.sessions, `expires > now() AND ${userExists}`)},
s AS (INSERT INTO authlib_sessions (xata_id, "sessionToken", expires, "user")
  SELECT 'authjs_' || ${l.id}::text, ${HASHED_TOKEN(`"sessionToken"`)}, expires, ${l.userRef}::text
  FROM batch ON CONFLICT DO NOTHING RETURNING xata_id, "user"),
ins AS (INSERT INTO authlib_users_sessions ("user", session) SELECT "user", xata_id FROM s RETURNING 1)
${report}`,
    tokens: `WITH ins AS (INSERT INTO "authlib_verificationTokens" (identifier, token, expires)
  SELECT identifier, token, expires FROM ${l.tokens} t WHERE expires > now()
    AND NOT EXISTS (SELECT 1 FROM "authlib_verificationTokens" v WHERE v.identifier = t.identifier AND v.token = t.token)
  ON CONFLICT DO NOTHING RETURNING 1)
SELECT count(*)::integer AS copied FROM ins`,
  }
}

/**
 * What a dry run counts: source rows with no counterpart yet (by the keys the copy checks), or,
 * before authlib's tables exist, every live source row.
 */
function dryRunCounts(l: Layout, targetExists: boolean) {
  if (!targetExists)
    return `SELECT (SELECT count(*) FROM ${l.users})::integer AS users, (SELECT count(*) FROM ${l.accounts})::integer AS accounts,
  (SELECT count(*) FROM ${l.sessions} WHERE expires > now())::integer AS sessions, (SELECT count(*) FROM ${l.tokens} WHERE expires > now())::integer AS "verificationTokens"`
  return `SELECT
  (SELECT count(*) FROM ${l.users} s WHERE NOT EXISTS (SELECT 1 FROM authlib_users u WHERE u.xata_id = s.${l.id}::text OR u.email = s.email))::integer AS users,
  (SELECT count(*) FROM ${l.accounts} s WHERE NOT EXISTS (SELECT 1 FROM authlib_accounts a WHERE a.provider = s.provider AND a."providerAccountId" = s."providerAccountId"))::integer AS accounts,
  (SELECT count(*) FROM ${l.sessions} s WHERE s.expires > now() AND NOT EXISTS (SELECT 1 FROM authlib_sessions a WHERE a."sessionToken" = ${HASHED_TOKEN(`s."sessionToken"`)}))::integer AS sessions,
  (SELECT count(*) FROM ${l.tokens} s WHERE s.expires > now() AND NOT EXISTS (SELECT 1 FROM "authlib_verificationTokens" v WHERE v.identifier = s.identifier AND v.token = s.token))::integer AS "verificationTokens"`
}

/** Which of `names` are not tables of the current schema. */
async function missingTables(db: Executor, names: string[]): Promise<string[]> {
  const rows = await db.query(`SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = ANY($1::text[])`, [
    `{${names.map((n) => `"${n}"`).join(",")}}`,
  ])
  const found = new Set(rows.map((r) => String(r.table_name)))
  return names.filter((n) => !found.has(n))
}

async function copyInBatches(db: Executor, sql: string, start: SqlParam, batchSize: number): Promise<number> {
  let cursor = start
  let copied = 0
  for (;;) {
    const [row] = await db.query(sql, [cursor, batchSize])
    copied += Number(row?.copied ?? 0)
    if (Number(row?.seen ?? 0) < batchSize || row?.last == null) return copied
    cursor = String(row.last)
  }
}

/**
 * Copies an Auth.js app's users, accounts, live sessions (tokens hashed) and live verification
 * tokens into the adapter's tables on `client`, applying the adapter's own migrations first. See
 * the module comment; `dryRun` counts without writing (and without migrating).
 *
 * @throws XataAdapterError `AUTHJS_TABLES_MISSING` when the source tables are not there.
 */
export async function migrateFromAuthJs(client: AdapterClient, options: MigrateFromAuthJsOptions): Promise<MigrateFromAuthJsResult> {
  const layout = LAYOUTS[options.from]
  if (!layout) throw new XataAdapterError(`Unknown Auth.js source "${String(options.from)}": use "pg-adapter" or "xata-adapter"`, { code: "INVALID_INPUT" })
  const batchSize = options.batchSize ?? 1000
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new XataAdapterError("batchSize must be an integer >= 1", { code: "INVALID_INPUT" })
  const db = toExecutor(client)
  const sources = [layout.users, layout.accounts, layout.sessions, layout.tokens].map((t) => t.replace(/"/g, ""))
  const missing = await missingTables(db, sources).catch((err: unknown) => {
    throw toAdapterError(err)
  })
  if (missing.length > 0)
    throw new XataAdapterError(`The Auth.js tables of ${options.from} are not in this database (missing: ${missing.join(", ")})`, { code: "AUTHJS_TABLES_MISSING" })
  try {
    if (options.dryRun) {
      const targetExists = (await missingTables(db, ["authlib_users"])).length === 0
      const [row] = await db.query(dryRunCounts(layout, targetExists))
      return { users: Number(row?.users), accounts: Number(row?.accounts), sessions: Number(row?.sessions), verificationTokens: Number(row?.verificationTokens), dryRun: true }
    }
    await migrate(client)
    const sql = statements(layout)
    const start = layout.idType === "bigint" ? "-9223372036854775808" : ""
    const users = await copyInBatches(db, sql.users, start, batchSize)
    const accounts = await copyInBatches(db, sql.accounts, start, batchSize)
    const sessions = await copyInBatches(db, sql.sessions, start, batchSize)
    const [tokens] = await db.query(sql.tokens)
    return { users, accounts, sessions, verificationTokens: Number(tokens?.copied ?? 0), dryRun: false }
  } catch (err) {
    throw err instanceof XataAdapterError ? err : toAdapterError(err)
  }
}
