import { describe, expect, it } from "vitest"
import { defaultRedirect, isSameOrigin } from "../../../src/kernel/security/redirect.js"

const baseUrl = "https://good.com"
const redirect = (url: string, base = baseUrl) => defaultRedirect({ url, baseUrl: base })

describe("defaultRedirect keeps same-origin destinations, absolute and normalised", () => {
  const kept: Array<[input: string, expected: string]> = [
    ["/dashboard", "https://good.com/dashboard"],
    ["dashboard?tab=1", "https://good.com/dashboard?tab=1"],
    ["?x=1", "https://good.com/?x=1"],
    ["#top", "https://good.com/#top"],
    ["/", "https://good.com/"],
    ["https://good.com/a?b=c#d", "https://good.com/a?b=c#d"],
    ["https://good.com", "https://good.com/"],
    ["HTTPS://GOOD.COM/x", "https://good.com/x"],
    ["https://good.com:443/x", "https://good.com/x"],
    ["//good.com/x", "https://good.com/x"],
    ["/a//b", "https://good.com/a//b"],
    ["/search?next=%2F%2Fevil.com", "https://good.com/search?next=%2F%2Fevil.com"],
    ["/d\u00e9j\u00e0", "https://good.com/d%C3%A9j%C3%A0"],
    ["/a b", "https://good.com/a%20b"],
    ["https://good.com#@evil.com", "https://good.com/#@evil.com"],
    ["https://good.com?@evil.com", "https://good.com/?@evil.com"],
    // A same-scheme "https:path" is relative per WHATWG: it stays on good.com.
    ["https:evil.com", "https://good.com/evil.com"],
    // Full-width letters map to ASCII under IDNA: this is good.com, and we return it in ASCII.
    ["https://\uff47\uff4f\uff4f\uff44.com/x", "https://good.com/x"],
  ]
  it.each(kept)("%j -> %j", (input, expected) => {
    expect(redirect(input)).toBe(expected)
  })

  it("resolves relative URLs against the origin of a base URL that has a path", () => {
    expect(redirect("/x", "https://good.com/auth")).toBe("https://good.com/x")
    expect(redirect("next", "https://good.com/auth/signin")).toBe("https://good.com/next")
  })

  it("keeps the port of a base URL on a non-default port", () => {
    expect(redirect("/x", "http://localhost:3000")).toBe("http://localhost:3000/x")
    expect(redirect("http://localhost:3000/y", "http://localhost:3000")).toBe("http://localhost:3000/y")
  })
})

describe("defaultRedirect falls back to baseUrl on open-redirect tricks", () => {
  const rejected: Array<[label: string, input: string]> = [
    ["protocol-relative", "//evil.com"],
    ["protocol-relative with path", "//evil.com/good.com"],
    ["triple slash", "///evil.com"],
    ["quadruple slash", "////evil.com"],
    ["slash backslash", "/\\evil.com"],
    ["backslash slash", "\\/evil.com"],
    ["double backslash", "\\\\evil.com"],
    ["tab inside //", "/\t/evil.com"],
    ["newline inside //", "/\n/evil.com"],
    ["carriage return inside //", "/\r/evil.com"],
    ["leading tab", "\t//evil.com"],
    ["leading space", " //evil.com"],
    ["leading NBSP", "\u00a0//evil.com"],
    ["trailing line separator", "/x\u2028"],
    ["NUL byte", "/\u0000/evil.com"],
    ["encoded //", "/%2F%2Fevil.com"],
    ["encoded lower-case //", "/%2f/evil.com"],
    ["encoded backslash", "/%5Cevil.com"],
    ["encoded double backslash", "/%5C%5Cevil.com"],
    ["double-encoded //", "/%252F%252Fevil.com"],
    ["triple-encoded //", "/%25252F%25252Fevil.com"],
    ["encoded tab", "/%09/evil.com"],
    ["dot segment to //", "/.//evil.com"],
    ["dot-dot segment to //", "/..//evil.com"],
    ["encoded dot-dot to //", "/%2e%2e//evil.com"],
    ["other host", "https://evil.com"],
    ["other scheme", "http://good.com/x"],
    ["other port", "https://good.com:8443/x"],
    ["http: with other host", "http:evil.com"],
    ["userinfo host confusion", "https://good.com@evil.com"],
    ["userinfo with port", "https://good.com:443@evil.com"],
    ["backslash before @", "https://evil.com\\@good.com"],
    ["encoded slash in userinfo", "https://evil.com%2F@good.com"],
    ["credentials on the right host", "https://user:pass@good.com/"],
    ["username on the right host", "https://user@good.com/"],
    ["suffix look-alike", "https://good.com.evil.com/"],
    ["encoded dot look-alike", "https://good.com%2eevil.com/"],
    ["ideographic full stop look-alike", "https://good.com\u3002evil.com/"],
    ["missing dot", "https://goodcom/"],
    ["prefix look-alike", "https://evilgood.com/"],
    ["trailing dot", "https://good.com./"],
    ["Cyrillic homoglyph (IDN)", "https://g\u043e\u043ed.com/"],
    ["punycode look-alike", "https://xn--gd-hoa.com/"],
    ["full-width solidus in host", "https://good.com\uff0fevil.com"],
    ["query after other host", "https://evil.com?@good.com"],
    ["fragment after other host", "https://evil.com#@good.com"],
    ["IP address", "https://127.0.0.1/"],
    ["javascript:", "javascript:alert(1)"],
    ["javascript: mixed case", "JaVaScRiPt:alert(1)"],
    ["javascript: with tab", "java\tscript:alert(1)"],
    ["javascript: with newline", "java\nscript:alert(1)"],
    ["javascript: with leading NUL", "\u0000javascript:alert(1)"],
    ["javascript: with leading space", " javascript:alert(1)"],
    ["javascript: with fake authority", "javascript://good.com/%0aalert(1)"],
    ["data:", "data:text/html,<script>alert(1)</script>"],
    ["data: upper case base64", "DATA:text/html;base64,PHNjcmlwdD4="],
    ["vbscript:", "vbscript:msgbox(1)"],
    ["blob: of the same origin", "blob:https://good.com/0d2c4b1e"],
    ["file:", "file:///etc/passwd"],
    ["ftp: on the same host", "ftp://good.com/"],
    ["custom scheme that looks like a host", "evil.com:80/x"],
    ["empty", ""],
    ["very long", `/${"a".repeat(5000)}`],
    ["very long absolute", `https://good.com/${"a".repeat(5000)}`],
  ]
  it.each(rejected)("%s: %j", (_label, input) => {
    expect(redirect(input)).toBe(baseUrl)
  })

  it("returns baseUrl unchanged (with its path) when falling back", () => {
    expect(redirect("https://evil.com", "https://good.com/app")).toBe("https://good.com/app")
  })

  it("never throws on values a JavaScript caller might pass", () => {
    const odd = [null, undefined, 42, {}, [], Symbol.for("x")] as unknown as string[]
    for (const value of odd) {
      expect(() => defaultRedirect({ url: value, baseUrl })).not.toThrow()
      expect(defaultRedirect({ url: value, baseUrl })).toBe(baseUrl)
    }
    expect(defaultRedirect(undefined as never)).toBe("/")
    expect(defaultRedirect({ url: "/x", baseUrl: 7 as never })).toBe("/")
  })

  it("refuses every target when the base URL is not http(s)", () => {
    expect(redirect("/x", "not a url")).toBe("not a url")
    expect(redirect("javascript:alert(1)", "javascript:void(0)")).toBe("javascript:void(0)")
    expect(redirect("data:,a", "data:,b")).toBe("data:,b")
  })
})

describe("isSameOrigin", () => {
  const same: Array<[string, string]> = [
    ["https://good.com", "https://good.com/auth"],
    ["https://good.com/", "https://good.com"],
    ["https://good.com:443", "https://good.com"],
    ["https://GOOD.com/x?y#z", "https://good.com"],
    ["http://localhost:3000", "http://localhost:3000/api/auth"],
  ]
  it.each(same)("%j is same-origin with %j", (url, base) => {
    expect(isSameOrigin(url, base)).toBe(true)
  })

  const different: Array<[string, string]> = [
    ["null", "https://good.com"],
    ["/relative", "https://good.com"],
    ["good.com", "https://good.com"],
    ["//good.com", "https://good.com"],
    ["", "https://good.com"],
    ["https://good.com.evil.com", "https://good.com"],
    ["https://good.com:8443", "https://good.com"],
    ["http://good.com", "https://good.com"],
    ["https://user@good.com", "https://good.com"],
    ["https://good.com@evil.com", "https://good.com"],
    ["https://good.com\\@evil.com", "https://good.com"],
    ["https://good.com\\path", "https://good.com"],
    [" https://good.com", "https://good.com"],
    ["https://good.com\n", "https://good.com"],
    ["https://good.com./", "https://good.com"],
    ["blob:https://good.com/uuid", "https://good.com"],
    ["javascript:alert(1)//https://good.com", "https://good.com"],
    ["data:,a", "data:,a"],
    ["null", "null"],
    ["https://good.com", "not a url"],
    ["https://good.com", ""],
    [`https://good.com/${"a".repeat(5000)}`, "https://good.com"],
  ]
  it.each(different)("%j is not same-origin with %j", (url, base) => {
    expect(isSameOrigin(url, base)).toBe(false)
  })

  it("never throws on non-string input", () => {
    expect(isSameOrigin(null as never, "https://good.com")).toBe(false)
    expect(isSameOrigin("https://good.com", undefined as never)).toBe(false)
  })
})
