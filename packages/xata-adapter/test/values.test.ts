import { describe, expect, test } from "vitest"
import { asBoolean, asDate, asNumber, lookupable, storable } from "../src/sql/values.js"
import { toQueryError } from "../src/executors/index.js"
import { toAdapterError } from "../src/sql/values.js"

describe("reading driver values", () => {
  test("asDate reads Dates, ISO strings, Postgres' text form and epoch milliseconds alike", () => {
    const expected = new Date("2026-01-02T03:04:05.678Z").getTime()
    for (const value of [
      new Date(expected),
      "2026-01-02T03:04:05.678Z",
      "2026-01-02 03:04:05.678+00",
      "2026-01-02 05:04:05.678+02:00",
      "2026-01-01 21:34:05.678-0530",
      expected,
    ]) {
      expect(asDate(value)?.getTime(), String(value)).toBe(expected)
    }
    expect(asDate(null)).toBeNull()
    expect(() => asDate("yesterday")).toThrow(/unreadable timestamp/)
  })

  test("asNumber reads pg's bigint strings; asBoolean reads booleans and Postgres' t/true", () => {
    expect(asNumber("9007199254740991")).toBe(9007199254740991)
    expect([asBoolean(true), asBoolean("t"), asBoolean("true"), asBoolean(false), asBoolean("f")]).toStrictEqual([true, true, true, false, false])
  })

  test("storable rejects NUL bytes and lone surrogates but keeps paired surrogates", () => {
    expect(storable("\u{1F510} ok")).toBe(true)
    expect(storable("a\u0000b")).toBe(false)
    expect(storable("\uD83D")).toBe(false)
    expect(storable("x\uDC00")).toBe(false)
    expect(lookupable("a", 1 as unknown as string)).toBe(false)
  })
})

describe("mapping database errors", () => {
  test("a Xata message-only error is classified like pg's SQLSTATE", () => {
    const xata = toAdapterError(toQueryError(new Error('duplicate key value violates unique constraint "authlib_accounts_provider_key"')))
    const pg = toAdapterError(toQueryError(Object.assign(new Error("dup"), { code: "23505", constraint: "authlib_accounts_provider_key" })))
    expect([xata.code, pg.code]).toStrictEqual(["DUPLICATE_ACCOUNT", "DUPLICATE_ACCOUNT"])
    expect(xata.type).toBe("XataAdapterError")
  })

  test("foreign key, check, encoding and missing-relation failures get their codes", () => {
    const code = (message: string) => toAdapterError(toQueryError(new Error(message))).code
    expect(code('insert or update on table "authlib_sessions" violates foreign key constraint "x"')).toBe("UNKNOWN_USER")
    expect(code('new row for relation "authlib_users" violates check constraint "authlib_users_xata_id_check"')).toBe("INVALID_INPUT")
    expect(code('invalid byte sequence for encoding "UTF8": 0x00')).toBe("INVALID_INPUT")
    expect(code('relation "authlib_users" does not exist')).toBe("SCHEMA_MISSING")
    expect(code("connection reset")).toBe("QUERY_FAILED")
  })
})
