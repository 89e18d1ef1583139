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
  const named = client as unknown as { query(config: { name: string; text: string; values: unknown[] }): Promise<{ rows: unknown[] }> }
  return {
    async query(statement: string, params: readonly SqlParam[] = []): Promise<Row[]> {
      try {
        if (prepared && params.length > 0) {
          try {
            return (await named.query({ name: nameOf(statement), text: statement, values: [...params] })).rows as Row[]
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
