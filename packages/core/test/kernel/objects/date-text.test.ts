/** `isoText` and `utcText` (kernel/objects/date-text.ts): the same text as `Date`'s own, for every time. */
import { describe, expect, it } from "vitest"
import { isoText, utcText } from "../../../src/kernel/objects/date-text.js"

const DAY = 86_400_000
const YEAR_10000 = Date.UTC(10000, 0, 1)

/** Times worth a look: calendar edges (leap days, centuries, the ends of the fast range) and their neighbours. */
function edges(): number[] {
  const out: number[] = []
  const dates = [
    [1970, 0, 1], [1970, 11, 31], [1972, 1, 29], [1999, 11, 31], [2000, 1, 28], [2000, 1, 29], [2000, 2, 1],
    [2024, 1, 29], [2026, 10, 29], [2038, 0, 19], [2100, 1, 28], [2100, 2, 1], [2400, 1, 29], [9999, 11, 31],
  ] as const
  for (const [y, m, d] of dates) {
    const start = Date.UTC(y, m, d)
    for (const ms of [start, start + 1, start + 999, start + 1000, start + DAY - 1, start - 1]) out.push(ms)
  }
  return out
}

describe("isoText and utcText", () => {
  it("write what Date writes at the calendar's edges", () => {
    for (const ms of edges()) {
      expect(isoText(ms)).toBe(new Date(ms).toISOString())
      expect(utcText(ms)).toBe(new Date(ms).toUTCString())
    }
  })

  it("write what Date writes for 200,000 random times from 1970 to 9999", () => {
    for (let i = 0; i < 200_000; i++) {
      const ms = Math.floor(Math.random() * YEAR_10000)
      const date = new Date(ms)
      if (isoText(ms) !== date.toISOString() || utcText(ms) !== date.toUTCString()) {
        expect([ms, isoText(ms), utcText(ms)]).toEqual([ms, date.toISOString(), date.toUTCString()])
      }
    }
  })

  it("leave every other time to Date: before 1970, from the year 10000, fractions", () => {
    for (const ms of [-1, -DAY, Date.UTC(1969, 11, 31, 23, 59, 59, 999), Date.UTC(-1, 0, 1), YEAR_10000, YEAR_10000 + 1, 8.64e15, -8.64e15, 1.5, 1_767_000_000_000.25]) {
      expect(isoText(ms)).toBe(new Date(ms).toISOString())
      expect(utcText(ms)).toBe(new Date(ms).toUTCString())
    }
  })

  it("throw for an invalid time as toISOString does, and write Invalid Date as toUTCString does", () => {
    for (const ms of [Number.NaN, Number.POSITIVE_INFINITY, 8.64e15 + 1]) {
      expect(() => isoText(ms)).toThrow(RangeError)
      expect(utcText(ms)).toBe("Invalid Date")
    }
  })
})
