import { toQueryError, type Executor, type Row, type SqlParam } from "./query.js"

/** The part of `@electric-sql/pglite`'s `PGlite` the adapter uses (structural: PGlite stays optional). */
export interface PGliteLike {
  query(statement: string, params?: unknown[]): Promise<{ rows: unknown[] }>
  exec(statement: string): Promise<unknown>
  waitReady: Promise<void>
}

export function isPGlite(client: unknown): client is PGliteLike {
  const c = client as Partial<PGliteLike> | null
  return (
    typeof c === "object" && c !== null && typeof c.query === "function" && typeof c.exec === "function" && "waitReady" in c
  )
}

/** PGlite runs one statement at a time in-process, so statements are serialised by PGlite itself. */
export function pgliteExecutor(db: PGliteLike): Executor {
  return {
    async query(statement: string, params: readonly SqlParam[] = []): Promise<Row[]> {
      try {
        const { rows } = await db.query(statement, [...params])
        return rows as Row[]
      } catch (err) {
        throw toQueryError(err)
      }
    },
  }
}
