/**
 * `@authlib/xata-adapter`: the record layout of spec 2.7 (Xata's `authlib_*` tables) as parameterised
 * SQL over one small executor, run by the `@xata.io/client` `XataClient` (its `sql` call), by PGlite, or
 * by node-postgres. No driver is imported by this module: pass the client you use. On the same
 * clients, `PostgresRateLimitStore` keeps core's rate-limit counters in the database.
 *
 * @example
 * ```ts
 * import { PGlite } from "@electric-sql/pglite"
 * import { XataAdapter, migrate } from "@authlib/xata-adapter"
 *
 * const db = new PGlite("./.data/auth")
 * await migrate(db)
 * export const config = { adapter: XataAdapter(db), providers: [...] }
 * ```
 */
import { toExecutor, type AdapterClient } from "./executors/index.js"
import { userMethods } from "./sql/users.js"
import { accountMethods } from "./sql/accounts.js"
import { sessionMethods } from "./sql/sessions.js"
import { verificationTokenMethods } from "./sql/verification-tokens.js"
import { linkSignInMethods } from "./sql/link-sign-in.js"
import { authenticatorMethods } from "./sql/authenticators.js"
import { passkeySignInMethods } from "./sql/passkey-sign-in.js"
import { twoFactorMethods } from "./sql/two-factor.js"
import { organizationMethods } from "./sql/organizations.js"
import { ssoMethods } from "./sql/sso.js"
import { toAdapterError } from "./sql/values.js"
import type { XataAdapterMethods } from "./adapter-type.js"
import { OrganizationError } from "@authlib/core"

export { migrate, type MigrateResult } from "./migrate.js"
export { migrateFromAuthJs, type AuthJsSource, type MigrateFromAuthJsOptions, type MigrateFromAuthJsResult } from "./migrate-from-authjs.js"
export {
  PostgresRateLimitStore,
  type PostgresRateLimitStoreMethods,
  type PostgresRateLimitStoreOptions,
  type RateLimitStoreLogger,
} from "./rate-limit-store.js"
export { MIGRATIONS, MIGRATIONS_TABLE, schemaSql, type Migration } from "./schema.js"
export { XataAdapterError, type XataAdapterErrorCode } from "./errors.js"
export type { XataAdapterMethods } from "./adapter-type.js"
export type { AdapterClient, Executor, PGliteLike, PgClientLike, Row, SqlParam, XataClientLike } from "./executors/index.js"

type AnyMethod = (...args: never[]) => unknown

/**
 * Rethrows every failure of `method` as a `XataAdapterError` with a stable `code`, except the
 * `OrganizationError`s the organizations port's contract has adapters throw (core answers those).
 */
function guarded<M extends AnyMethod>(method: M): M {
  return (async (...args: Parameters<M>) => {
    try {
      return await method(...args)
    } catch (err) {
      if (err instanceof OrganizationError) throw err
      throw toAdapterError(err)
    }
  }) as unknown as M
}

/**
 * The adapter over `client`: a `XataClient` (this package's `@authlib/xata-adapter/xata-client`, or
 * any `@xata.io/client`-based client), a PGlite instance, or a node-postgres `Pool`/`Client`.
 *
 * - Every multi-record write (link + record, cascading delete) is one SQL statement, so it is atomic
 *   on all three clients, and `useVerificationToken` is a single `DELETE ... RETURNING`: under
 *   concurrent calls exactly one caller receives the token, with its stored expiry. `extendSession`
 *   is a single conditional `UPDATE ... WHERE expires < dueBefore`: one of concurrent reads extends a
 *   session, so a due session is written once.
 * - Session tokens arrive hashed from core and are stored as given.
 * - A user without an e-mail address (`email: null`, as core passes for OAuth accounts without one)
 *   is stored with a NULL e-mail (unique only when present), reads back with `email: null` and is
 *   never found by `getUserByEmail`.
 * - Organizations (migration 9): the rule-guarding writes (a role change, a removal, an invitation
 *   under the membership limit, `deleteUser`) take the organization's row lock before they count,
 *   so two owners demoting each other leave one; `deleteUser` of a last owner with other members
 *   throws `OrganizationError` `LAST_OWNER` and deletes nothing.
 * - Lookups with keys Postgres cannot hold (NUL bytes, lone surrogates) return `null`; writes of such
 *   values, duplicates (e-mail, provider account, session token) and links to unknown users throw a
 *   `XataAdapterError` and write nothing.
 *
 * Run `migrate(client)` (or `authlib-xata migrate`) once before use.
 */
export function XataAdapter(client: AdapterClient): XataAdapterMethods {
  const db = toExecutor(client)
  const methods: XataAdapterMethods = {
    ...userMethods(db),
    ...accountMethods(db),
    ...sessionMethods(db),
    ...verificationTokenMethods(db),
    ...linkSignInMethods(db),
    ...authenticatorMethods(db),
    ...passkeySignInMethods(db),
    ...twoFactorMethods(db),
    ...organizationMethods(db),
    ...ssoMethods(db),
  }
  const entries = Object.entries(methods).map(([name, method]) => [name, guarded(method as AnyMethod)])
  return Object.fromEntries(entries) as unknown as XataAdapterMethods
}
