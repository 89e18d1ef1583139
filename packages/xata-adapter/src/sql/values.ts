/**
 * Conversions between adapter values and SQL parameters/rows, and the mapping of database failures
 * to `XataAdapterError`. Rows are normalised here because drivers differ: pg returns bigints as
 * strings, the Xata endpoint returns dates as strings, PGlite returns `Date`s and numbers.
 */
import { isoText } from "@authlib/core/internal"
import { XataAdapterError, type XataAdapterErrorCode } from "../errors.js"
import { QueryError, type Row, type SqlParam } from "../executors/index.js"

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

/** Whether Postgres can store `value` exactly: no NUL byte, no lone UTF-16 surrogate. */
export function storable(value: string): boolean {
  return !value.includes("\u0000") && !LONE_SURROGATE.test(value)
}

/** A text parameter; throws `INVALID_INPUT` for what Postgres would reject or silently alter. */
export function text(value: string | null | undefined, field: string): string | null {
  if (value === null || value === undefined) return null
  if (typeof value !== "string" || !storable(value)) {
    throw new XataAdapterError(`"${field}" must be a string without NUL bytes or lone surrogates`, {
      code: "INVALID_INPUT",
      cause: { field },
    })
  }
  return value
}

/** A text parameter the contract requires; a missing one is `INVALID_INPUT`, never a stored `NULL`. */
export function requiredText(value: string | null | undefined, field: string): string {
  const checked = text(value, field)
  if (checked === null) throw new XataAdapterError(`"${field}" is required`, { code: "INVALID_INPUT", cause: { field } })
  return checked
}

/** An integer parameter the contract requires (a passkey's `counter`). */
export function requiredInteger(value: number | null | undefined, field: string): number {
  const checked = integer(value, field)
  if (checked === null) throw new XataAdapterError(`"${field}" is required`, { code: "INVALID_INPUT", cause: { field } })
  return checked as number
}

/** A timestamp parameter the contract requires (a session's or token's `expires`). */
export function requiredTimestamp(value: Date | string | null | undefined, field: string): string {
  const checked = timestamp(value, field)
  if (checked === null) throw new XataAdapterError(`"${field}" is required`, { code: "INVALID_INPUT", cause: { field } })
  return checked
}

/** The record an `INSERT ... RETURNING` gave back; none at all is a database failure, not a missing record. */
export function written<T>(record: T | null, what: string): T {
  if (record === null) throw new XataAdapterError(`the database returned no ${what} for the write`, { code: "QUERY_FAILED" })
  return record
}

/** A timestamp parameter (ISO string), or null. */
export function timestamp(value: Date | string | null | undefined, field: string): string | null {
  if (value === null || value === undefined) return null
  // A `Date` is read as it is (every session write passes several): no copy made only to be formatted.
  const date = value instanceof Date ? value : new Date(value)
  if (Number.isNaN(date.getTime())) {
    throw new XataAdapterError(`"${field}" must be a valid date`, { code: "INVALID_INPUT", cause: { field } })
  }
  return isoText(date.getTime())
}

/** An integer parameter, or null. */
export function integer(value: number | null | undefined, field: string): SqlParam {
  if (value === null || value === undefined) return null
  if (!Number.isSafeInteger(value)) {
    throw new XataAdapterError(`"${field}" must be a safe integer`, { code: "INVALID_INPUT", cause: { field } })
  }
  return value
}

/** Whether every lookup key could exist in the store; when not, a read returns `null` without a query. */
export function lookupable(...keys: unknown[]): boolean {
  return keys.every((key) => typeof key === "string" && storable(key))
}

// Postgres' text form of timestamptz ("2026-01-02 03:04:05.678+00"), as a JSON API may forward it.
const PG_TIMESTAMP = /^(\d{4,}-\d\d-\d\d) (\d\d:\d\d:\d\d(?:\.\d+)?)([+-]\d\d)(?::?(\d\d))?$/

/** A `Date` from a driver value: a `Date`, an ISO string, Postgres' text form, or epoch milliseconds. */
export function asDate(value: unknown): Date | null {
  if (value === null || value === undefined) return null
  if (value instanceof Date) return new Date(value.getTime())
  const match = typeof value === "string" ? PG_TIMESTAMP.exec(value) : null
  const date = match ? new Date(`${match[1]}T${match[2]}${match[3]}:${match[4] ?? "00"}`) : new Date(value as string | number)
  if (Number.isNaN(date.getTime())) throw new Error(`unreadable timestamp from the database: ${String(value)}`)
  return date
}
export const asNumber = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value))
export const asString = (value: unknown): string | null => (value === null || value === undefined ? null : String(value))
export const asBoolean = (value: unknown): boolean | null =>
  value === null || value === undefined ? null : value === true || value === "true" || value === "t"

export const first = (rows: Row[]): Row | null => rows[0] ?? null

/**
 * The named columns of `row` as strings, or `null` when any of them is NULL or missing. Every column
 * of the Xata layout is nullable, so a row written by other tools may lack a field its adapter type
 * requires; it then reads as no record, never as one holding the text "null" or "undefined".
 */
export function requiredStrings<K extends string>(row: Row, columns: readonly K[]): Record<K, string> | null {
  const values = {} as Record<K, string>
  for (const column of columns) {
    const value = asString(row[column])
    if (value === null) return null
    values[column] = value
  }
  return values
}

/** Which duplicate a unique index stands for. */
const DUPLICATES: Record<string, XataAdapterErrorCode> = {
  authlib_users_email_key: "DUPLICATE_EMAIL",
  authlib_accounts_provider_key: "DUPLICATE_ACCOUNT",
  authlib_users_pkey: "DUPLICATE_KEY",
  authlib_sessions_token_key: "DUPLICATE_KEY",
  authlib_authenticators_credential_key: "DUPLICATE_KEY",
  authlib_verificationTokens_key: "DUPLICATE_KEY",
  authlib_organizations_pkey: "DUPLICATE_KEY",
  authlib_organization_invitations_pkey: "DUPLICATE_KEY",
  authlib_organization_invitations_token_key: "DUPLICATE_KEY",
  authlib_sso_connections_pkey: "DUPLICATE_KEY",
  authlib_sso_domains_pkey: "DUPLICATE_KEY",
}

const STATE_CODES: Record<string, XataAdapterErrorCode> = {
  "23503": "UNKNOWN_USER",
  "23514": "INVALID_INPUT",
  "42P01": "SCHEMA_MISSING",
  // An undefined column: a database migrated by an older release (run migrate again).
  "42703": "SCHEMA_MISSING",
  // An undefined function: a database migrated before the organizations' functions (migration 9).
  "42883": "SCHEMA_MISSING",
}

/** Maps any failure to a `XataAdapterError` (an adapter error passes through unchanged). */
export function toAdapterError(err: unknown): XataAdapterError {
  if (err instanceof XataAdapterError) return err
  if (!(err instanceof QueryError)) {
    return new XataAdapterError("database call failed", { code: "QUERY_FAILED", cause: { err: err as Error } })
  }
  const code =
    err.sqlState === "23505"
      ? (DUPLICATES[err.constraint ?? ""] ?? "DUPLICATE_KEY")
      : err.sqlState?.startsWith("22")
        ? "INVALID_INPUT"
        : (STATE_CODES[err.sqlState ?? ""] ?? "QUERY_FAILED")
  const hint = code === "SCHEMA_MISSING" ? " (run migrate() or `authlib-xata migrate`)" : ""
  return new XataAdapterError(`${err.message}${hint}`, {
    code,
    cause: { sqlState: err.sqlState, constraint: err.constraint, err },
  })
}
