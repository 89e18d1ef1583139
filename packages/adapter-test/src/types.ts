/**
 * Options of `runBasicTests`. The shape follows the Auth.js adapter test harness
 * (`adapter`, `db`, `fixtures`, `skipTests`, `testWebAuthnMethods`) so an adapter's test file moves
 * between the two ecosystems with one change: a skipped test must say why.
 */
import type {
  Adapter,
  AdapterAccount,
  AdapterAuthenticator,
  AdapterSession,
  AdapterUser,
  Awaitable,
  VerificationToken,
} from "@authlib/core"

/** Reads the store directly, bypassing the adapter under test. Every reader returns `null` when nothing is stored. */
export interface TestDb {
  /** Called once before the first test (open a connection, apply the schema...). */
  connect?: () => Awaitable<void>
  /** Called once after the last test. */
  disconnect?: () => Awaitable<void>
  user: (id: string) => Awaitable<AdapterUser | null>
  session: (sessionToken: string) => Awaitable<AdapterSession | null>
  account: (key: { provider: string; providerAccountId: string }) => Awaitable<AdapterAccount | null>
  verificationToken: (key: { identifier: string; token: string }) => Awaitable<VerificationToken | null>
  /**
   * Required when `testWebAuthnMethods` is on. For an adapter with `updateAuthenticator`, it returns
   * the stored `name`, `createdAt` and `lastUsedAt` too.
   */
  authenticator?: (credentialID: string) => Awaitable<AdapterAuthenticator | null>
  /**
   * Every stored value of every table as one string (for example each table's rows as JSON).
   * Required when the adapter has the two-factor port: the suite searches it for TOTP secrets and
   * backup codes in plain text after an enrolment.
   */
  dump?: () => Awaitable<string>
}

/** A test left out, and why. A skip without a reason does not type-check (and is rejected at run time). */
export interface SkipTest {
  /** The full test name as printed by vitest, without the describe prefix (e.g. `"getUser returns null for an unknown id"`). */
  name: string
  /** Why the adapter cannot or need not pass this test. Shown next to the skipped test. */
  reason: string
}

/**
 * A generated user: it always has an e-mail address, so the suites can look it up by one. Tests of
 * users without an address (`email: null`, allowed by `AdapterUser`) set that themselves.
 */
export type UserWithEmail = AdapterUser & { email: string }

/** Values merged into the generated records, for stores with column constraints the defaults do not meet. */
export interface Fixtures {
  user?: Partial<Omit<UserWithEmail, "id">>
  account?: Partial<Omit<AdapterAccount, "userId" | "provider" | "providerAccountId">>
  /** Expiry used by session tests. Default: 30 days ahead, whole seconds. */
  sessionExpires?: Date
  /** The Auth.js spelling of `sessionExpires` (only `expires` is used: tokens must stay unique per test). */
  session?: { expires?: Date }
  /** Expiry a session is updated to. Default: 60 days ahead. */
  sessionUpdateExpires?: Date
  /** Expiry of verification tokens. Default: 1 day ahead. */
  verificationTokenExpires?: Date
}

export interface TestOptions {
  adapter: Adapter
  db: TestDb
  fixtures?: Fixtures
  skipTests?: readonly SkipTest[]
  /** Runs the five WebAuthn (passkey) methods' tests. Requires `db.authenticator`. */
  testWebAuthnMethods?: boolean
  /** Parallel callers in the race tests. Default 16. */
  concurrency?: number
}

/** What each suite receives. */
export interface SuiteContext {
  /** The adapter, with every method assumed present: a missing method fails its tests (skip them with a reason). */
  adapter: Required<Adapter>
  db: TestDb
  /** Registers one test, honouring `skipTests`. */
  test: (name: string, fn: () => Promise<void>) => void
  webauthn: boolean
  concurrency: number
  make: RecordFactory
}

/** Builds fresh records with unique keys, so tests never depend on one another's leftovers. */
export interface RecordFactory {
  user(overrides?: Partial<UserWithEmail>): UserWithEmail
  account(userId: string, overrides?: Partial<AdapterAccount>): AdapterAccount
  session(userId: string, overrides?: Partial<AdapterSession>): AdapterSession
  verificationToken(overrides?: Partial<VerificationToken>): VerificationToken
  authenticator(userId: string, providerAccountId: string, overrides?: Partial<AdapterAuthenticator>): AdapterAuthenticator
  sessionUpdateExpires(): Date
}
