import { toQueryError, type Executor, type Row, type SqlParam } from "./query.js"

/** The part of node-postgres' `Pool` or `Client` the adapter uses (structural: `pg` stays optional). */
export interface PgClientLike {
  query(statement: string, params?: unknown[]): Promise<{ rows: unknown[] }>
  connect(...args: never[]): unknown
}

export function isPgClient(client: unknown): client is PgClientLike {
  const c = client as Partial<PgClientLike> | null
  return typeof c === "object" && c !== null && typeof c.query === "function" && typeof c.connect === "function"
}

/**
 * A node-postgres `Pool` or `Client` itself (not a wrapper with the same two methods): only these
 * are sure to accept a query config object (`{ name, text, values }`).
 */
function isNodePostgres(client: PgClientLike): boolean {
  const c = client as unknown as Record<string, unknown>
  return typeof c.connectionParameters === "object" || (typeof c.totalCount === "number" && typeof c.options === "object")
}

/** node-postgres' `Query` class, as far as the executor uses it. */
interface PgQuery {
  name?: string
}
type PgQueryClass = new (text: string, values: unknown[]) => PgQuery

/**
 * node-postgres' `Query` class, read from the client itself (`Client.Query`; a `Pool` holds its
 * `Client` class), so the adapter never imports `pg`; undefined when the client has none.
 */
function queryClassOf(client: PgClientLike): PgQueryClass | undefined {
  const c = client as unknown as { Client?: { Query?: unknown }; constructor?: { Query?: unknown } }
  const found = c.Client?.Query ?? c.constructor?.Query
  return typeof found === "function" ? (found as PgQueryClass) : undefined
}

/** Statement names by text, shared by every executor of the process (a pool may serve several). */
const names = new Map<string, string>()

/** `authlib_` and a 64-bit FNV-1a of the text: the same text gets the same name in every process. */
function nameOf(statement: string): string {
  let name = names.get(statement)
  if (name === undefined) {
    let h1 = 0x811c9dc5
    let h2 = 0x050c5d1f
    for (let i = 0; i < statement.length; i++) {
      const c = statement.charCodeAt(i)
      h1 = Math.imul(h1 ^ c, 0x01000193)
      h2 = Math.imul(h2 ^ c, 0x01000193) ^ (h1 >>> 15)
    }
    name = `authlib_${(h1 >>> 0).toString(16).padStart(8, "0")}${(h2 >>> 0).toString(16).padStart(8, "0")}`
    names.set(statement, name)
  }
  return name
}

/**
 * Runs a named statement. node-postgres copies a query config object (`{ name, text, values }`)
 * through its property descriptors before reading it, about 1.5 us per query on Node 20; a `Query`
 * made from the text and values, its name set before it is sent, is taken as it is (a submittable,
 * as pg-cursor hands in). Without the `Query` class at hand, the config object.
 */
function namedQuery(client: PgClientLike): (name: string, text: string, values: unknown[]) => Promise<{ rows: unknown[] }> {
  const Query = queryClassOf(client)
  const withConfig = client as unknown as { query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }> }
  if (!Query) return (name, text, values) => withConfig.query({ name, text, values })
  // The callback goes to `query()`, never onto the `Query`: a `Pool` hands its own (which releases
  // the connection) to the client, and the client only takes it for a query without one.
  const submit = client as unknown as { query(query: PgQuery, callback: (err: Error | null | undefined, result: { rows: unknown[] }) => void): unknown }
  return (name, text, values) =>
    new Promise((resolve, reject) => {
      const query = new Query(text, values)
      query.name = name
      submit.query(query, (err, result) => (err ? reject(err) : resolve(result)))
    })
}

/** A pooler that does not keep a connection's prepared statements (PgBouncer in transaction mode) answers these. */
const PREPARED_STATEMENT_LOST = new Set(["26000", "42P05"])

/**
 * With a `Pool`, concurrent calls run on separate connections: the race rules hold because every
 * adapter method is a single statement (one implicit transaction), not because calls are serialised.
 *
 * A node-postgres `Pool`/`Client` runs the adapter's statements as named prepared statements: each
 * is parsed and planned once per connection instead of on every call, which halves the server's
 * CPU for the session writes (`pnpm bench db`, issue 27). Statements without parameters (the
 * migrations) are sent as they are. Behind a pooler that loses prepared statements between
 * transactions, the first such error (raised before the statement runs, so nothing was written)
 * switches this executor to unnamed statements and the statement is sent again.
 */
export function pgExecutor(client: PgClientLike): Executor {
  let prepared = isNodePostgres(client)
  const named = namedQuery(client)
  return {
    async query(statement: string, params: readonly SqlParam[] = []): Promise<Row[]> {
      try {
        if (prepared && params.length > 0) {
          try {
            return (await named(nameOf(statement), statement, [...params])).rows as Row[]
          } catch (err) {
            if (!PREPARED_STATEMENT_LOST.has((err as { code?: unknown } | null)?.code as string)) throw err
            prepared = false
          }
        }
        const { rows } = await client.query(statement, [...params])
        return rows as Row[]
      } catch (err) {
        throw toQueryError(err)
      }
    },
  }
}
