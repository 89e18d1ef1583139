import { parse } from "cookie"
import { describe, expect, it } from "vitest"
import { parseCookiePairs } from "../../../src/internal.js"

const asIs = (value: string) => value
/** The `cookie` package's parse (1.1.0, CommonJS): the reference our ESM copy of it matches. */
const reference = (header: string) => ({ ...parse(header, { decode: asIs }) })

/** A small deterministic generator (mulberry32), so a failure names a header that fails again. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

describe("parseCookiePairs", () => {
  it("reads headers as browsers send them, trimming spaces and tabs, first of a name winning", () => {
    expect({ ...parseCookiePairs("a=1; b=2;c = 3 ;\td=\t4", asIs) }).toEqual({ a: "1", b: "2", c: "3", d: "4" })
    expect({ ...parseCookiePairs("a=1; a=2", asIs) }).toEqual({ a: "1" })
    expect({ ...parseCookiePairs("flag; a=1; =x; b=", asIs) }).toEqual({ a: "1", "": "x", b: "" })
    expect({ ...parseCookiePairs("", asIs) }).toEqual({})
    expect({ ...parseCookiePairs("x", asIs) }).toEqual({})
  })

  it("has no prototype: __proto__ and constructor are only names", () => {
    const parsed = parseCookiePairs("__proto__=p; constructor=c; toString=t", asIs)
    expect(Object.getPrototypeOf(parsed)).toBeNull()
    expect(Object.entries(parsed)).toEqual([["__proto__", "p"], ["constructor", "c"], ["toString", "t"]])
  })

  it("decodes each value with the given function, once", () => {
    const seen: string[] = []
    expect({ ...parseCookiePairs("a=%41; b=x", (v) => (seen.push(v), v.toLowerCase())) }).toEqual({ a: "%41", b: "x" })
    expect(seen).toEqual(["%41", "x"])
  })

  it("agrees with the cookie package on 5,000 generated headers", () => {
    const next = random(37)
    const alphabet = ["a", "b", "Z", "0", "=", ";", " ", "\t", "%", "\"", ",", "é", "__proto__"]
    for (let i = 0; i < 5_000; i++) {
      let header = ""
      const length = Math.floor(next() * 24)
      for (let j = 0; j < length; j++) header += alphabet[Math.floor(next() * alphabet.length)]
      expect({ ...parseCookiePairs(header, asIs) }, JSON.stringify(header)).toEqual(reference(header))
    }
  })
})
