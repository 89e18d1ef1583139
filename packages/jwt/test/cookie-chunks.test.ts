import { describe, expect, it } from "vitest"
import { COOKIE_MAX_SIZE, joinCookieChunks, splitCookieValue, staleCookieNames } from "../src/index.js"

const NAME = "__Secure-authlib.session-token"
const ATTRIBUTES = "; Path=/; Expires=Wed, 21 Oct 2026 07:28:00 GMT; HttpOnly; Secure; SameSite=Lax"
const value = (length: number) => Array.from({ length }, (_, i) => "abcdefghijklmnopqrstuvwxyz"[i % 26]).join("")

describe("splitCookieValue", () => {
  it("keeps a value that fits as one cookie under the name itself", () => {
    expect(splitCookieValue(NAME, "abc")).toEqual([{ name: NAME, value: "abc" }])
    const fits = value(COOKIE_MAX_SIZE - 160 - NAME.length - 1)
    expect(splitCookieValue(NAME, fits)).toEqual([{ name: NAME, value: fits }])
  })

  it("splits a larger value into <name>.0..N whose Set-Cookie lines all fit 4096 bytes", () => {
    const long = value(19_000)
    const chunks = splitCookieValue(NAME, long, { attributesSize: ATTRIBUTES.length })
    expect(chunks.map((c) => c.name)).toEqual([0, 1, 2, 3, 4].map((i) => `${NAME}.${i}`))
    for (const chunk of chunks) {
      expect(`${chunk.name}=${chunk.value}${ATTRIBUTES}`.length).toBeLessThanOrEqual(COOKIE_MAX_SIZE)
    }
    expect(`${chunks[0]!.name}=${chunks[0]!.value}${ATTRIBUTES}`.length).toBe(COOKIE_MAX_SIZE)
    expect(chunks.map((c) => c.value).join("")).toBe(long)
  })

  it("accounts for longer attributes and a smaller budget", () => {
    const chunks = splitCookieValue("s", value(1000), { maxSize: 300, attributesSize: 100 })
    for (const chunk of chunks) expect(chunk.name.length + 1 + chunk.value.length + 100).toBeLessThanOrEqual(300)
    expect(chunks.map((c) => c.value).join("")).toBe(value(1000))
  })

  it("refuses a name that leaves no room for a value", () => {
    expect(() => splitCookieValue("n".repeat(4000), value(5000))).toThrow(RangeError)
  })
})

describe("joinCookieChunks", () => {
  const record = (entries: [string, string][]) => Object.fromEntries(entries)

  it("joins chunks in numeric order (10 after 9), whatever the order of the record", () => {
    const entries = Array.from({ length: 12 }, (_, i) => [`${NAME}.${i}`, `<${i}>`] as [string, string]).reverse()
    expect(joinCookieChunks(NAME, record(entries))).toBe(Array.from({ length: 12 }, (_, i) => `<${i}>`).join(""))
  })

  it("ignores cookies that merely share the prefix", () => {
    const cookies = record([
      [`${NAME}.1`, "B"],
      [`${NAME}-old`, "x"],
      [`${NAME}.01`, "x"],
      [`${NAME}.x`, "x"],
      [`${NAME}.`, "x"],
      [`${NAME}.-1`, "x"],
      [`${NAME}s.0`, "x"],
      [`${NAME}.0`, "A"],
    ])
    expect(joinCookieChunks(NAME, cookies)).toBe("AB")
  })

  it("prefers the whole cookie over chunks, and returns undefined when none exists", () => {
    expect(joinCookieChunks(NAME, record([[NAME, "whole"], [`${NAME}.0`, "chunk"]]))).toBe("whole")
    expect(joinCookieChunks(NAME, record([["other", "x"]]))).toBeUndefined()
  })

  it("returns undefined for an incomplete set (a gap, or no chunk 0)", () => {
    expect(joinCookieChunks(NAME, record([[`${NAME}.0`, "A"], [`${NAME}.2`, "C"]]))).toBeUndefined()
    expect(joinCookieChunks(NAME, record([[`${NAME}.1`, "B"]]))).toBeUndefined()
    expect(joinCookieChunks(NAME, record([[`${NAME}.0`, "A"], [`${NAME}.999`, "Z"]]))).toBeUndefined()
  })

  it("reads a Map as well as a record, and never a name from Object.prototype", () => {
    const map = new Map([[`${NAME}.1`, "B"], [`${NAME}.0`, "A"]])
    expect(joinCookieChunks(NAME, map)).toBe("AB")
    expect(joinCookieChunks("constructor", {})).toBeUndefined()
    expect(joinCookieChunks("__proto__", record([["x", "y"]]))).toBeUndefined()
    expect(staleCookieNames(NAME, map, [])).toEqual([`${NAME}.1`, `${NAME}.0`])
  })

  it("round-trips what splitCookieValue wrote", () => {
    const long = value(12_345)
    const cookies = Object.fromEntries(splitCookieValue(NAME, long).map((c) => [c.name, c.value]))
    expect(joinCookieChunks(NAME, cookies)).toBe(long)
  })
})

describe("staleCookieNames", () => {
  it("lists the chunks beyond the new count when a token shrinks", () => {
    const existing = { [`${NAME}.0`]: "a", [`${NAME}.1`]: "b", [`${NAME}.2`]: "c", [`${NAME}.3`]: "d", other: "x" }
    const written = [{ name: `${NAME}.0`, value: "" }, { name: `${NAME}.1`, value: "" }]
    expect(staleCookieNames(NAME, existing, written)).toEqual([`${NAME}.2`, `${NAME}.3`])
  })

  it("clears every chunk when the value fits one cookie again, and the whole cookie when it is chunked", () => {
    const chunked = [`${NAME}.0`, `${NAME}.1`, `${NAME}-other`]
    expect(staleCookieNames(NAME, chunked, [{ name: NAME, value: "v" }])).toEqual([`${NAME}.0`, `${NAME}.1`])
    expect(staleCookieNames(NAME, [NAME, "x"], splitCookieValue(NAME, value(9000)))).toEqual([NAME])
  })

  it("clears the whole family on sign-out (nothing written)", () => {
    expect(staleCookieNames(NAME, [NAME, `${NAME}.0`, `${NAME}.07`], [])).toEqual([NAME, `${NAME}.0`])
  })
})
