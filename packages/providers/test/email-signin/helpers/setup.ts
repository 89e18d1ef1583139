/**
 * The database and configuration of the e-mail sign-in tests: the Xata adapter on one in-memory
 * PGlite per test file (real Postgres, so `useVerificationToken`'s single-use rule is the
 * database's), the Nodemailer provider pointed at the loopback SMTP server, and recorded events.
 */
import { PGlite } from "@electric-sql/pglite"
import { MemoryRateLimitStore, type AuthConfig, type EventCallbacks } from "@authlib/core"
import Nodemailer, { type NodemailerUserConfig } from "@authlib/providers/nodemailer"
import { XataAdapter, migrate } from "@authlib/xata-adapter"
import { recordingLogger } from "./browser.js"

export const SECRET = "e-mail-sign-in-test-secret-0123456789abcdef"
export const APP = "http://app.test:3000"

export interface Database {
  db: PGlite
  adapter: ReturnType<typeof XataAdapter>
  count(table: "users" | "accounts" | "sessions" | "verificationTokens"): Promise<number>
}

export async function startDatabase(): Promise<Database> {
  const db = new PGlite()
  await migrate(db)
  return {
    db,
    adapter: XataAdapter(db),
    async count(table) {
      const rows = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM "authlib_${table}"`)
      return rows.rows[0]!.n
    },
  }
}

export type EventName = keyof EventCallbacks
export interface Recorded {
  name: EventName
  message: Record<string, unknown>
}

/** Event handlers that push every message onto `into`. */
export function recordEvents(into: Recorded[]): Partial<EventCallbacks> {
  const names: EventName[] = ["createUser", "updateUser", "linkAccount", "session", "signIn", "signOut"]
  return Object.fromEntries(names.map((name) => [name, (message: Record<string, unknown>) => void into.push({ name, message })]))
}

export interface Setup {
  config: AuthConfig
  events: Recorded[]
  log: ReturnType<typeof recordingLogger>
}

/** A configuration with the Nodemailer provider on `server` and the database's adapter. */
export function setup(database: Database, server: string, over: Partial<AuthConfig> = {}, provider: NodemailerUserConfig = {}): Setup {
  const events: Recorded[] = []
  const log = recordingLogger()
  const config: AuthConfig = {
    url: APP,
    secret: SECRET,
    trustHost: true,
    adapter: database.adapter,
    providers: [Nodemailer({ server, from: "Test App <login@app.test>", ...provider })],
    events: recordEvents(events),
    logger: log.logger,
    // Each setup is a fresh app: its own rate-limit counters (core's default store is per process).
    rateLimit: { store: new MemoryRateLimitStore() },
    ...over,
  }
  return { config, events, log }
}
