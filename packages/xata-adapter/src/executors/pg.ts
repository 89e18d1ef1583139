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
 * With a `Pool`, concurrent calls run on separate connections: the race rules hold because every
 * adapter method is a single statement (one implicit transaction), not because calls are serialised.
 */
export function pgExecutor(client: PgClientLike): Executor {
  return {
    async query(statement: string, params: readonly SqlParam[] = []): Promise<Row[]> {
      try {
        const { rows } = await client.query(statement, [...params])
        return rows as Row[]
      } catch (err) {
        throw toQueryError(err)
      }
    },
  }
}
