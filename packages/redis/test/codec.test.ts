/** The cache's value format: records come back with the exact types the adapter answered. */
import { describe, expect, test } from "vitest"
import { decode, encode } from "../src/cache/codec.js"

describe("codec", () => {
  test("Dates (top level, nested, in arrays, invalid) come back as Dates; other values as they were", () => {
    const record = {
      id: "u1",
      emailVerified: new Date("2026-01-02T03:04:05.678Z"),
      expires: new Date(1_800_000_000_000),
      nested: { at: new Date(0), list: [new Date(5), "x", 1] },
      invalid: new Date(Number.NaN),
      none: null,
      count: 3,
      flag: false,
    }
    const back = decode<typeof record>(encode(record))
    expect(back).toStrictEqual(record)
    expect(back.emailVerified).toBeInstanceOf(Date)
  })

  test("a string that looks like a tag stays a string (only objects are tags)", () => {
    const record = { name: '{"$date":"2026-01-01T00:00:00.000Z"}', image: "$date" }
    expect(decode(encode(record))).toStrictEqual(record)
  })
})
