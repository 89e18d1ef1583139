/**
 * The conformance suite's `db`: reads the tables with plain SQL, bypassing the adapter, and also
 * checks the layout on every read (each session and account has its users_* link row).
 */
import type { TestDb } from "@authlib/adapter-test"
import type { AdapterAccount, AdapterAccountType } from "@authlib/core"

export type Query = (statement: string, params?: unknown[]) => Promise<Record<string, unknown>[]>

const date = (v: unknown) => (v === null || v === undefined ? null : new Date(v as string))
const optional = (v: unknown) => (v === null || v === undefined ? null : String(v))

function account(row: Record<string, unknown>): AdapterAccount {
  const result: AdapterAccount = {
    userId: String(row.user),
    type: String(row.type) as AdapterAccountType,
    provider: String(row.provider),
    providerAccountId: String(row.providerAccountId),
  }
  for (const key of ["access_token", "id_token", "refresh_token", "scope", "session_state", "token_type"]) {
    if (row[key] !== null) result[key] = String(row[key])
  }
  if (row.expires_at !== null) result.expires_at = Number(row.expires_at)
  return result
}

async function linked(query: Query, table: string, column: string, id: unknown, user: unknown): Promise<void> {
  const rows = await query(`SELECT "user" FROM ${table} WHERE ${column} = $1`, [id])
  if (rows.length !== 1 || rows[0]?.user !== user) {
    throw new Error(`${table}: expected one link row for ${String(id)} to user ${String(user)}, got ${JSON.stringify(rows)}`)
  }
}

export function directDb(query: Query, hooks: Pick<TestDb, "connect" | "disconnect"> = {}): TestDb {
  return {
    ...hooks,
    // Every row of every authlib_ table (the migrations' and rate limits' too), as JSON.
    async dump() {
      const tables = await query(`SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_name LIKE 'authlib\\_%' ORDER BY table_name`)
      if (!tables.some((t) => t.table_name === "authlib_two_factors")) throw new Error("dump: authlib_two_factors is missing")
      const rows = await Promise.all(tables.map(async (t) => [t.table_name, await query(`SELECT * FROM "${String(t.table_name)}"`)]))
      return JSON.stringify(rows)
    },
    async user(id) {
      const [row] = await query(`SELECT * FROM authlib_users WHERE xata_id = $1`, [id])
      if (!row) return null
      return { id: String(row.xata_id), name: optional(row.name), email: optional(row.email), emailVerified: date(row.emailVerified), image: optional(row.image) }
    },
    async session(sessionToken) {
      const [row] = await query(`SELECT * FROM authlib_sessions WHERE "sessionToken" = $1`, [sessionToken])
      if (!row) return null
      await linked(query, "authlib_users_sessions", "session", row.xata_id, row.user)
      return { sessionToken: String(row.sessionToken), userId: String(row.user), expires: date(row.expires) as Date }
    },
    async account({ provider, providerAccountId }) {
      const [row] = await query(`SELECT * FROM authlib_accounts WHERE provider = $1 AND "providerAccountId" = $2`, [provider, providerAccountId])
      if (!row) return null
      await linked(query, "authlib_users_accounts", "account", row.xata_id, row.user)
      return account(row)
    },
    async verificationToken({ identifier, token }) {
      const [row] = await query(`SELECT * FROM "authlib_verificationTokens" WHERE identifier = $1 AND token = $2`, [identifier, token])
      return row ? { identifier: String(row.identifier), token: String(row.token), expires: date(row.expires) as Date } : null
    },
    async authenticator(credentialID) {
      const [row] = await query(`SELECT * FROM authlib_authenticators WHERE "credentialID" = $1`, [credentialID])
      if (!row) return null
      return {
        credentialID: String(row.credentialID),
        userId: String(row.user),
        providerAccountId: String(row.providerAccountId),
        counter: Number(row.counter),
        credentialBackedUp: row.credentialBackedUp === true,
        credentialPublicKey: String(row.credentialPublicKey),
        credentialDeviceType: String(row.credentialDeviceType),
        transports: optional(row.transports),
        name: optional(row.name),
        createdAt: date(row.createdAt),
        lastUsedAt: date(row.lastUsedAt),
      }
    },
  }
}
