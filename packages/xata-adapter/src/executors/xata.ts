import { toQueryError, type Executor, type Row, type SqlParam } from "./query.js"

/**
 * The part of `@xata.io/client`'s `XataClient` the adapter uses: its `sql` call (the `/sql` endpoint
 * of the database branch) and `getConfig()`. Typed structurally so the package's types do not
 * require `@xata.io/client` to be installed.
 */
export interface XataClientLike {
  sql: (query: { statement: string; params?: unknown[]; responseType?: "json" }) => Promise<{ records: unknown[] }>
  getConfig(): Promise<{ databaseURL: string; branch: string }>
}

export function isXataClient(client: unknown): client is XataClientLike {
  const c = client as Partial<XataClientLike> | null
  return typeof c === "object" && c !== null && typeof c.sql === "function" && typeof c.getConfig === "function"
}

/** Runs each statement through `client.sql({ statement, params })`; rows come back as JSON records. */
export function xataExecutor(client: XataClientLike): Executor {
  return {
    async query(statement: string, params: readonly SqlParam[] = []): Promise<Row[]> {
      try {
        const { records } = await client.sql({ statement, params: [...params], responseType: "json" })
        return (records ?? []) as Row[]
      } catch (err) {
        throw toQueryError(err)
      }
    },
  }
}
