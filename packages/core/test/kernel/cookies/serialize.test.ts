import { serialize } from "cookie"
import { describe, expect, it } from "vitest"
import { serializeCookie } from "../../../src/internal.js"
import type { Cookie } from "../../../src/index.js"
import { fixedCookie, octetsCookie, parseCookieHeader, withExpires } from "../../../src/kernel/cookies/serialize.js"

type Options = Cookie["options"] & { priority?: string }

const expires = new Date(Date.UTC(2026, 11, 22, 7, 30, 0))
const optionSets: Options[] = [
  {},
  { httpOnly: true, sameSite: "lax", path: "/", secure: false },
  { httpOnly: true, sameSite: "lax", path: "/", secure: true, expires },
  { sameSite: "strict", path: "/app", domain: "example.com", maxAge: 900 },
  { sameSite: "none", secure: true, partitioned: true, maxAge: 0 },
  { sameSite: true, domain: ".sub.example.co.uk", path: "/a b", expires, httpOnly: true },
  { sameSite: false, maxAge: -1 },
  { priority: "High", sameSite: "lax" },
  { priority: "low", path: "/" },
]

/** The `cookie` package, with our value encoding, is the reference the hand-written serialiser matches. */
function reference(name: string, value: string, options: Options): string {
  const encode = (v: string) => (/^[\u0021\u0023-\u0024\u0026-\u002B\u002D-\u003A\u003C-\u005B\u005D-\u007E]*$/.test(v) ? v : encodeURIComponent(v))
  return serialize(name, value, { ...(options as object), encode })
}

describe("serializeCookie", () => {
  const values = ["", "abc", "eyJhbGciOiJkaXIifQ..aXY.Y2lwaGVy.dGFn", "tok|hash_-", "https://app.example/x?a=1&b=2", "a b;c,d\"e\\f", "é✓"]
  for (const [i, options] of optionSets.entries()) {
    it(`writes what the cookie package writes (option set ${i})`, () => {
      for (const value of values) expect(serializeCookie({ name: "authlib.session-token", value, options })).toBe(reference("authlib.session-token", value, options))
    })
  }

  it("percent-encodes a value outside cookie-octets and the header parser reads it back", () => {
    const value = "https://app.example/x?a=1;b=\"2\"\\ é"
    const header = serializeCookie({ name: "c", value, options: {} })
    expect(header).toBe(`c=${encodeURIComponent(value)}`)
    expect(parseCookieHeader(header)).toEqual({ c: value })
  })

  const refused: Array<[string, Cookie]> = [
    ["a name with a space", { name: "a b", value: "x", options: {} }],
    ["a name with =", { name: "a=b", value: "x", options: {} }],
    ["an empty name", { name: "", value: "x", options: {} }],
    ["a name with a semicolon", { name: "a;b", value: "x", options: {} }],
    ["a fractional maxAge", { name: "a", value: "x", options: { maxAge: 1.5 } }],
    ["a domain with a semicolon", { name: "a", value: "x", options: { domain: "evil.com; Secure" } }],
    ["a path with a semicolon", { name: "a", value: "x", options: { path: "/; Domain=evil.com" } }],
    ["a path with a control character", { name: "a", value: "x", options: { path: "/\n" } }],
    ["an invalid date", { name: "a", value: "x", options: { expires: new Date(Number.NaN) } }],
    ["a string as expires", { name: "a", value: "x", options: { expires: "tomorrow" as never } }],
    ["an unknown sameSite", { name: "a", value: "x", options: { sameSite: "sometimes" as never } }],
    ["an unknown priority", { name: "a", value: "x", options: { priority: "urgent" } as never }],
  ]
  for (const [what, cookie] of refused) {
    it(`throws a TypeError for ${what}, as the cookie package does`, () => {
      expect(() => serializeCookie(cookie)).toThrow(TypeError)
      expect(() => reference(cookie.name, cookie.value, cookie.options)).toThrow(TypeError)
    })
  }

  it("accepts a Date from another realm", async () => {
    const { runInNewContext } = await import("node:vm")
    const foreign = runInNewContext("new Date(Date.UTC(2026, 0, 1))") as Date
    expect(foreign instanceof Date).toBe(false)
    expect(serializeCookie({ name: "a", value: "x", options: { expires: foreign } })).toBe("a=x; Expires=Thu, 01 Jan 2026 00:00:00 GMT")
  })
})

describe("the Expires text", () => {
  it("follows each date, whatever came before", () => {
    const dates = [expires, new Date(expires.getTime() + 1000), expires, new Date(expires.getTime() + 1000), new Date(0), expires]
    for (const date of dates) expect(serializeCookie({ name: "n", value: "v", options: { expires: date } })).toBe(reference("n", "v", { expires: date }))
  })

  it("follows a Date changed after it was written", () => {
    const date = new Date(expires)
    const cookie = { name: "n", value: "v", options: { expires: date } }
    expect(serializeCookie(cookie)).toBe(reference("n", "v", { expires }))
    date.setUTCFullYear(2031)
    expect(serializeCookie(cookie)).toBe(reference("n", "v", { expires: date }))
  })
})

describe("octetsCookie", () => {
  it("writes what the cookie package writes for a value of cookie-octets, for every option set", () => {
    for (const options of optionSets) {
      const value = "eyJhbGciOiJkaXIifQ..aXY.Y2lwaGVy.dGFn"
      expect(serializeCookie(octetsCookie("authlib.session-token", value, options))).toBe(reference("authlib.session-token", value, options))
    }
  })

  it("a copy of one is scanned again: a changed value is percent-encoded", () => {
    const copy = { ...octetsCookie("n", "abc", {}), value: "a b;Domain=evil" }
    expect(serializeCookie(copy)).toBe(`n=${encodeURIComponent("a b;Domain=evil")}`)
  })

  it("cannot have its value changed (strict mode throws), so what it skips checking is what it was made with", () => {
    const cookie = octetsCookie("n", "abc", {})
    expect(() => {
      ;(cookie as { value: string }).value = "a b;Domain=evil"
    }).toThrow(TypeError)
    expect(serializeCookie(cookie)).toBe("n=abc")
  })

  it("still refuses a bad name or option", () => {
    expect(() => serializeCookie(octetsCookie("bad name", "v", {}))).toThrow(TypeError)
    expect(() => serializeCookie(octetsCookie("ok", "v", { path: "/a;b" }))).toThrow(TypeError)
  })
})

describe("fixedCookie", () => {
  it("is a frozen copy whose text is what the cookie package writes, for every option set", () => {
    for (const options of optionSets) {
      const source = { name: "authlib.device-mark", value: "1790000000.abc.mac_-", options: { ...options } }
      const fixed = fixedCookie(source)
      expect(Object.isFrozen(fixed) && Object.isFrozen(fixed.options)).toBe(true)
      expect(fixed).not.toBe(source)
      expect(serializeCookie(fixed)).toBe(reference(source.name, source.value, options))
      // The copy's text stays what it was made with when the cookie it came from changes.
      source.value = "changed"
      ;(source.options as { path?: string }).path = "/elsewhere"
      expect(serializeCookie(fixed)).toBe(reference("authlib.device-mark", "1790000000.abc.mac_-", options))
    }
  })

  it("refuses at once what serializeCookie refuses", () => {
    expect(() => fixedCookie({ name: "bad name", value: "v", options: {} })).toThrow(TypeError)
    expect(() => fixedCookie({ name: "ok", value: "v", options: { path: "/a;b" } })).toThrow(TypeError)
  })

  it("does not remember a text with an Expires date: the Date can still change", () => {
    const date = new Date(expires)
    const fixed = fixedCookie({ name: "n", value: "v", options: { expires: date } })
    date.setUTCFullYear(2030)
    expect(serializeCookie(fixed)).toBe(reference("n", "v", { expires: date }))
  })
})

describe("parseCookieHeader", () => {
  it("leaves out a badly escaped value and keeps the rest", () => {
    expect(parseCookieHeader("a=1; promo=50%off; c=%ZZ; d=%E0%A4%A; e=x%2Fy")).toEqual({ a: "1", e: "x/y" })
  })

  it("gives a plain object of the first value of each name", () => {
    const ok = parseCookieHeader("a=1; b=x%20y; a=2; toString=t")!
    expect(Object.getPrototypeOf(ok)).toBe(Object.prototype)
    expect(ok).toEqual({ a: "1", b: "x y", toString: "t" })
  })

  it("a cookie named __proto__ never becomes a prototype", () => {
    const cookies = parseCookieHeader("__proto__=evil; a=1")!
    expect(Object.getPrototypeOf(cookies)).toBe(Object.prototype)
    expect(Object.keys(cookies)).toEqual(["a"])
  })
})

describe("withExpires", () => {
  const shape = (o: object) => Reflect.ownKeys(o).map((k) => [k, (o as Record<PropertyKey, unknown>)[k]])
  const tag = Symbol("tag")
  const cases: Record<string, () => Record<PropertyKey, unknown>> = {
    "the usual options": () => ({ httpOnly: true, sameSite: "lax", path: "/", secure: false }),
    "options with an expiry already": () => ({ path: "/", expires: new Date(0), httpOnly: true }),
    "an own __proto__ key and a symbol": () => Object.assign(JSON.parse('{"path":"/","__proto__":{"secure":true}}') as object, { [tag]: 1 }),
  }
  for (const [name, make] of Object.entries(cases)) {
    it(`copies ${name} as { ...options, expires } does`, () => {
      const options = make()
      const expires = new Date(1_800_000_000_000)
      const out = withExpires(options as never, expires)
      expect(shape(out)).toEqual(shape({ ...options, expires }))
      expect(Object.getPrototypeOf(out)).toBe(Object.prototype)
    })
  }
})
