import { describe, expect, it } from "vitest"
import { base64url, randomToken, sha256, timingSafeEqual } from "../../../src/kernel/security/random.js"

describe("random tokens and digests", () => {
  it("sha256 matches Web Crypto (base64url)", async () => {
    for (const input of ["", "abc", "token|secret", "ü€😀".repeat(50)]) {
      const expected = base64url(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(input))))
      expect(sha256(input)).toBe(expected)
    }
    expect(sha256("abc")).toBe("ungWv48Bz-pBQUDeXa4iI7ADYaOWF3qctBD_YfIAFa0")
  })

  it("randomToken gives 256 bits by default, base64url, never repeating", () => {
    const a = randomToken()
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(new Set(Array.from({ length: 100 }, () => randomToken())).size).toBe(100)
  })

  it("timingSafeEqual is true only for identical strings", () => {
    expect(timingSafeEqual("abc", "abc")).toBe(true)
    expect(timingSafeEqual("", "")).toBe(true)
    for (const [a, b] of [["abc", "abd"], ["abc", "ab"], ["ab", "abc"], ["", "a"], ["a", ""], ["abcabc", "abc"]]) expect(timingSafeEqual(a!, b!)).toBe(false)
  })
})
