/** The executor interface and the error every executor throws. */

/** A statement parameter. Dates are sent as ISO strings, so every driver reads them the same way. */
export type SqlParam = string | number | boolean | null

/** One result row; value types differ by driver (dates as `Date` or string, bigints as string...). */
export type Row = Record<string, unknown>

export interface Executor {
  query(statement: string, params?: readonly SqlParam[]): Promise<Row[]>
}

/** A failed statement, reduced to the facts the adapter maps to `XataAdapterError`. */
export class QueryError extends Error {
  constructor(
    message: string,
    readonly sqlState: string | undefined,
    readonly constraint: string | undefined,
    readonly original: unknown,
  ) {
    super(message)
    this.name = "QueryError"
  }
}

// The Xata SQL endpoint only forwards Postgres' message, so the SQLSTATE is recovered from its text.
const MESSAGE_STATES: [RegExp, string][] = [
  [/duplicate key value violates unique constraint/i, "23505"],
  [/violates foreign key constraint/i, "23503"],
  [/violates check constraint/i, "23514"],
  [/invalid byte sequence|invalid input syntax|value too long/i, "22000"],
  [/relation "[^"]+" does not exist/i, "42P01"],
  [/function authlib_\w+\([^)]*\) does not exist/i, "42883"],
]

/** Normalises a driver error: pg and PGlite carry `code` (SQLSTATE) and `constraint`; Xata only a message. */
export function toQueryError(err: unknown): QueryError {
  const e = (err ?? {}) as { message?: unknown; code?: unknown; constraint?: unknown }
  const message = typeof e.message === "string" ? e.message : String(err)
  const code = typeof e.code === "string" && /^[0-9A-Z]{5}$/.test(e.code) ? e.code : undefined
  const state = code ?? MESSAGE_STATES.find(([pattern]) => pattern.test(message))?.[1]
  const constraint = typeof e.constraint === "string" ? e.constraint : /constraint "([^"]+)"/.exec(message)?.[1]
  return new QueryError(message, state, constraint, err)
}

