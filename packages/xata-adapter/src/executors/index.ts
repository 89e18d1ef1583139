/**
 * The seam between the SQL of the adapter and the three clients it runs on. An executor runs one
 * parameterised statement and returns its rows; everything else (atomicity, races) is the SQL's job,
 * so the three executors stay a few lines each.
 */
import { XataAdapterError } from "../errors.js"
import type { Executor } from "./query.js"
import { xataExecutor, isXataClient, type XataClientLike } from "./xata.js"
import { pgliteExecutor, isPGlite, type PGliteLike } from "./pglite.js"
import { pgExecutor, isPgClient, type PgClientLike } from "./pg.js"

export type { XataClientLike, PGliteLike, PgClientLike }
export type { Executor, Row, SqlParam } from "./query.js"
export { QueryError, toQueryError } from "./query.js"

/** Anything `XataAdapter` and `migrate` accept. */
export type AdapterClient = XataClientLike | PGliteLike | PgClientLike

/** Picks the executor for `client`: a `XataClient`, a PGlite instance, or a node-postgres `Pool`/`Client`. */
export function toExecutor(client: AdapterClient): Executor {
  if (isXataClient(client)) return xataExecutor(client)
  if (isPGlite(client)) return pgliteExecutor(client)
  if (isPgClient(client)) return pgExecutor(client)
  throw new XataAdapterError("expected a XataClient, a PGlite instance or a node-postgres Pool/Client", {
    code: "UNSUPPORTED_CLIENT",
    cause: { received: client === null ? "null" : typeof client },
  })
}
