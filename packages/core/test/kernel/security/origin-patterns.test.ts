import { describe, expect, it } from "vitest"
import { compileOriginPattern, parseOriginList, type OriginPattern } from "../../../src/kernel/security/origin-patterns.js"

function pattern(source: string): OriginPattern {
  const compiled = compileOriginPattern(source)
  if (typeof compiled === "string") throw new Error(compiled)
  return compiled
}

describe("redirect proxy allow-list patterns", () => {
  it.each([
    ["https://app.example", "https://app.example", true],
    ["https://app.example/", "https://app.example", true],
    ["https://app.example:443", "https://app.example", true],
    ["https://App.Example", "https://app.example", true],
    ["https://app.example", "http://app.example", false],
    ["https://app.example", "https://app.example:8443", false],
    ["https://app.example", "https://app.example.evil.test", false],
    ["https://*.example.app", "https://pr-1.example.app", true],
    ["https://*.example.app", "https://a.b.example.app", false],
    ["https://*.example.app", "https://example.app", false],
    ["https://*.example.app", "https://evil.test", false],
    ["https://*.example.app", "https://x.example.app.evil.test", false],
    ["https://*.example.app", "http://pr-1.example.app", false],
    ["https://myapp-*-team.vercel.app", "https://myapp-git-fix-team.vercel.app", true],
    ["https://myapp-*-team.vercel.app", "https://other-git-fix-team.vercel.app", false],
    ["http://*.preview.test:3000", "http://a.preview.test:3000", true],
    ["http://*.preview.test:3000", "http://a.preview.test", false],
  ])("%s matches %s: %s", (source, origin, expected) => {
    expect(pattern(source).test(origin)).toBe(expected)
  })

  it.each([
    "app.example",
    "javascript://app.example",
    "https://app.example/path",
    "https://*",
    "https://*.app",
    "https://example.*",
    "https://**.example.app:x",
    "https://app.example:99999999",
    "https://a..example",
  ])("refuses %s with a reason", (source) => {
    expect(typeof compileOriginPattern(source)).toBe("string")
  })

  it("the env value splits on commas and whitespace", () => {
    expect(parseOriginList(" https://a.example, https://*.b.example\nhttps://c.example ")).toEqual(["https://a.example", "https://*.b.example", "https://c.example"])
  })
})
