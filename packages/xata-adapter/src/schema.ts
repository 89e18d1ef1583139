/**
 * The schema, as versioned migrations. `schema.sql` at the package root is generated from
 * `MIGRATIONS` (a test keeps the two equal), so a database administrator can read or apply it by hand.
 *
 * Layout: the tables and fields of spec 2.7 with the prefix `authlib_`, every field nullable, links as
 * references to the linked table's `xata_id`, plus Xata's record metadata columns. `authlib_authenticators`
 * (passkeys) is our extension. Unique indexes carry the adapter's lookups and its duplicate checks
 * (`authlib_users.email` is nullable: a unique index admits any number of NULLs, so users without an
 * e-mail address coexist while addresses stay unique);
 * `ON DELETE CASCADE` keeps links from ever dangling, even when rows are deleted outside the adapter.
 * Migration 3 adds `authlib_rate_limits`, the counters of `PostgresRateLimitStore` (not a record table).
 * Migration 4 adds session metadata and the users' session epoch; migration 6 the two-factor records;
 * migration 7 step-up's session fields; migration 8 the count of the TOTP lock; migration 9
 * organizations (their tables and the functions that keep their rules under concurrent writes),
 * migrations 10 and 11 enterprise SSO: those three live in `schema-organizations.ts`.
 */
import { META, link } from "./schema-columns.js"
import { ORGANIZATIONS, SSO, SSO_SETTINGS } from "./schema-organizations.js"

/** One schema step. Statements are idempotent, so a migration interrupted half-way can simply run again. */
export interface Migration {
  version: number
  name: string
  statements: readonly string[]
}

const TABLES: Record<string, string> = {
  authlib_users: `email text, "emailVerified" timestamptz, image text, name text`,
  authlib_accounts: `access_token text, expires_at bigint, id_token text, provider text, "providerAccountId" text,
  refresh_token text, scope text, session_state text, token_type text, type text, "user" ${link("authlib_users")}`,
  authlib_sessions: `expires timestamptz, "sessionToken" text, "user" ${link("authlib_users")}`,
  authlib_users_accounts: `account ${link("authlib_accounts")}, "user" ${link("authlib_users")}`,
  authlib_users_sessions: `session ${link("authlib_sessions")}, "user" ${link("authlib_users")}`,
  "authlib_verificationTokens": `expires timestamptz, identifier text, token text`,
  authlib_authenticators: `"credentialID" text, "user" ${link("authlib_users")}, "providerAccountId" text,
  counter bigint, "credentialBackedUp" boolean, "credentialPublicKey" text, "credentialDeviceType" text, transports text`,
}

const INDEXES: string[] = [
  `CREATE UNIQUE INDEX IF NOT EXISTS authlib_users_email_key ON authlib_users (email)`,
  `CREATE UNIQUE INDEX IF NOT EXISTS authlib_accounts_provider_key ON authlib_accounts (provider, "providerAccountId")`,
  `CREATE INDEX IF NOT EXISTS authlib_accounts_user_idx ON authlib_accounts ("user")`,
  `CREATE UNIQUE INDEX IF NOT EXISTS authlib_sessions_token_key ON authlib_sessions ("sessionToken")`,
  `CREATE INDEX IF NOT EXISTS authlib_sessions_user_idx ON authlib_sessions ("user")`,
  `CREATE UNIQUE INDEX IF NOT EXISTS authlib_users_accounts_account_key ON authlib_users_accounts (account)`,
  `CREATE INDEX IF NOT EXISTS authlib_users_accounts_user_idx ON authlib_users_accounts ("user")`,
  `CREATE UNIQUE INDEX IF NOT EXISTS authlib_users_sessions_session_key ON authlib_users_sessions (session)`,
  `CREATE INDEX IF NOT EXISTS authlib_users_sessions_user_idx ON authlib_users_sessions ("user")`,
  `CREATE UNIQUE INDEX IF NOT EXISTS "authlib_verificationTokens_key" ON "authlib_verificationTokens" (identifier, token)`,
  `CREATE UNIQUE INDEX IF NOT EXISTS authlib_authenticators_credential_key ON authlib_authenticators ("credentialID")`,
  `CREATE INDEX IF NOT EXISTS authlib_authenticators_user_idx ON authlib_authenticators ("user")`,
]

/** Keeps `xata_version` and `xata_updatedat` truthful on every update, as Xata does. */
const TOUCH_FUNCTION = `CREATE OR REPLACE FUNCTION authlib_xata_touch() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.xata_version := OLD.xata_version + 1;
  NEW.xata_updatedat := now();
  RETURN NEW;
END
$$`

const quote = (table: string) => (table === table.toLowerCase() ? table : `"${table}"`)

function tableStatements(): string[] {
  return Object.entries(TABLES).flatMap(([table, columns]) => [
    `CREATE TABLE IF NOT EXISTS ${quote(table)} (\n  ${META},\n  ${columns}\n)`,
    `CREATE OR REPLACE TRIGGER ${table.toLowerCase()}_touch BEFORE UPDATE ON ${quote(table)} FOR EACH ROW EXECUTE FUNCTION authlib_xata_touch()`,
  ])
}

/**
 * Migration 2: what managing passkeys shows, as nullable columns (a passkey stored by other tools
 * without them still reads). Passkeys stored before get `createdAt` from their record's
 * `xata_createdat`, which is when they were registered; `lastUsedAt` stays unknown until their next use.
 */
const PASSKEY_MANAGEMENT: readonly string[] = [
  `ALTER TABLE authlib_authenticators ADD COLUMN IF NOT EXISTS name text`,
  `ALTER TABLE authlib_authenticators ADD COLUMN IF NOT EXISTS "createdAt" timestamptz`,
  `ALTER TABLE authlib_authenticators ADD COLUMN IF NOT EXISTS "lastUsedAt" timestamptz`,
  `UPDATE authlib_authenticators SET "createdAt" = xata_createdat WHERE "createdAt" IS NULL`,
]

/**
 * Migration 3: the counters of `PostgresRateLimitStore`, one row per key and window. Not a Xata
 * record table (no metadata columns, no touch trigger): a counter written on every hit should cost
 * one small row update. The key is the hex SHA-256 of core's key (which may hold an e-mail address
 * or a network), and the CHECK refuses anything else, so a key can never be stored in clear.
 * `reset_at` is indexed for the sweep of ended windows.
 */
const RATE_LIMITS: readonly string[] = [
  `CREATE TABLE IF NOT EXISTS authlib_rate_limits (
  key text PRIMARY KEY CHECK (key ~ '^[0-9a-f]{64}$'),
  count integer NOT NULL,
  reset_at timestamptz NOT NULL
)`,
  `CREATE INDEX IF NOT EXISTS authlib_rate_limits_reset_at_idx ON authlib_rate_limits (reset_at)`,
]

/**
 * Migration 4: what listing sessions shows (when a session started, a display-safe client name, the
 * client's coarse network), the mark of a refused provider refresh token, and each user's session
 * epoch (JWT sessions issued under a lower epoch are refused). All nullable and additive: rows
 * written before read as "unknown" (a session's start is taken from its record's `xata_createdat`)
 * and epoch 0.
 */
const SESSION_METADATA: readonly string[] = [
  `ALTER TABLE authlib_sessions ADD COLUMN IF NOT EXISTS "createdAt" timestamptz`,
  `ALTER TABLE authlib_sessions ADD COLUMN IF NOT EXISTS "clientDescription" text`,
  `ALTER TABLE authlib_sessions ADD COLUMN IF NOT EXISTS "clientNetwork" text`,
  `ALTER TABLE authlib_sessions ADD COLUMN IF NOT EXISTS error text`,
  `UPDATE authlib_sessions SET "createdAt" = xata_createdat WHERE "createdAt" IS NULL`,
  `ALTER TABLE authlib_users ADD COLUMN IF NOT EXISTS "sessionEpoch" integer`,
]

/**
 * Migration 6: two-factor sign-in, one row per user (`"user"` unique, removed with the user by
 * the cascade): the TOTP secret as core sealed it, whether it is enabled, the last used time step
 * (only later steps are accepted), and the backup codes as core hashed them. Nothing here is
 * readable without the auth secret. Additive: no existing table changes. (Version 5 is another
 * release step; versions are applied by number, so the two land in either order.)
 */
const TWO_FACTOR: readonly string[] = [
  `CREATE TABLE IF NOT EXISTS authlib_two_factors (
  ${META},
  "user" ${link("authlib_users")}, secret text, enabled boolean, "lastUsedStep" bigint, "backupCodes" text[]
)`,
  `CREATE OR REPLACE TRIGGER authlib_two_factors_touch BEFORE UPDATE ON authlib_two_factors FOR EACH ROW EXECUTE FUNCTION authlib_xata_touch()`,
  `CREATE UNIQUE INDEX IF NOT EXISTS authlib_two_factors_user_key ON authlib_two_factors ("user")`,
]

/**
 * Migration 7: step-up. When the user last authenticated for a session (`"authTime"`, seconds since
 * the epoch) and how (`amr`, RFC 8176 method values in order). Nullable and additive: sessions
 * written before read as "unknown", which no freshness check accepts, so their users verify a second
 * factor again before changing their ways in. (Versions 5 and 6 are other release steps.)
 */
const STEP_UP: readonly string[] = [
  `ALTER TABLE authlib_sessions ADD COLUMN IF NOT EXISTS "authTime" bigint`,
  `ALTER TABLE authlib_sessions ADD COLUMN IF NOT EXISTS amr text[]`,
]

/**
 * Migration 8: the TOTP lock (core's `twoFactor.lockAfterFailures`). `"failedAttempts"`, the TOTP
 * attempts since the last accepted code, counted by one atomic `UPDATE` per attempt and set back to
 * 0 by the write that accepts a code. Nullable like every field here and additive: existing records
 * start at 0 (a constant default, so no table rewrite), and the adapter reads NULL (a row written by
 * another tool) as 0.
 */
const TOTP_LOCK: readonly string[] = [
  `ALTER TABLE authlib_two_factors ADD COLUMN IF NOT EXISTS "failedAttempts" integer DEFAULT 0`,
]

/** The table that records applied migrations. Created first, outside the versioned steps. */
export const MIGRATIONS_TABLE = `CREATE TABLE IF NOT EXISTS authlib_migrations (
  version integer PRIMARY KEY,
  name text NOT NULL,
  applied_at timestamptz NOT NULL DEFAULT now()
)`

/**
 * Every schema step, oldest first. A later release appends a step (for example
 * `ALTER TABLE authlib_users ADD COLUMN IF NOT EXISTS ...`); released steps never change.
 */
export const MIGRATIONS: readonly Migration[] = [
  { version: 1, name: "spec 2.7 tables, authenticators, indexes", statements: [TOUCH_FUNCTION, ...tableStatements(), ...INDEXES] },
  { version: 2, name: "authenticators: name, createdAt, lastUsedAt", statements: PASSKEY_MANAGEMENT },
  { version: 3, name: "rate limits: authlib_rate_limits", statements: RATE_LIMITS },
  { version: 4, name: "sessions: createdAt, clientDescription, clientNetwork, error; users: sessionEpoch", statements: SESSION_METADATA },
  { version: 6, name: "two-factor: authlib_two_factors", statements: TWO_FACTOR },
  { version: 7, name: "sessions: authTime, amr", statements: STEP_UP },
  { version: 8, name: "two-factor: failedAttempts", statements: TOTP_LOCK },
  { version: 9, name: "organizations: authlib_organizations, authlib_organization_members, authlib_organization_invitations", statements: ORGANIZATIONS },
  { version: 10, name: "enterprise SSO: authlib_sso_connections, authlib_sso_domains", statements: SSO },
  { version: 11, name: "enterprise SSO: requireIdpMfa, allowIdpInitiated, authlib_sso_join", statements: SSO_SETTINGS },
]

/** The whole schema as one SQL script (what `schema.sql` contains). */
export function schemaSql(): string {
  const header = `-- @authlib/xata-adapter schema (generated from src/schema.ts; apply with \`authlib-xata migrate\`).\n`
  const steps = MIGRATIONS.map(
    (m) =>
      `\n-- migration ${m.version}: ${m.name}\n${m.statements.join(";\n\n")};\n` +
      `INSERT INTO authlib_migrations (version, name) VALUES (${m.version}, '${m.name}') ON CONFLICT (version) DO NOTHING;\n`,
  )
  return `${header}\n${MIGRATIONS_TABLE};\n${steps.join("")}`
}
