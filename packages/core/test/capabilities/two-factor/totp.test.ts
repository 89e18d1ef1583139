/**
 * TOTP (capabilities/two-factor/totp.ts): the RFC 6238 Appendix B and RFC 4226 Appendix D vectors,
 * the ±1 step window and nothing beyond, replay refusal through the last used step, hostile
 * input, import of an existing base32 secret, and the constant-time comparison.
 */
import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { createTotpKey, hotp, importTotpKey, totp, totpStep, verifyTotp, type TotpAlgorithm, type TotpKey } from "../../../src/capabilities/two-factor/totp.js"
import { base32Encode } from "../../../src/capabilities/two-factor/base32.js"

const ascii = (s: string) => new TextEncoder().encode(s)
/** Appendix B's keys: the ASCII digits repeated to the hash's output length (20, 32 and 64 bytes). */
const RFC_KEYS: Record<TotpAlgorithm, Uint8Array> = {
  "SHA-1": ascii("12345678901234567890"),
  "SHA-256": ascii("12345678901234567890123456789012"),
  "SHA-512": ascii("1234567890123456789012345678901234567890123456789012345678901234"),
}
const key = (algorithm: TotpAlgorithm, digits: 6 | 8 = 8): TotpKey => ({ secret: RFC_KEYS[algorithm], algorithm, digits, period: 30 })

describe("RFC 6238 Appendix B (8 digits, 30 s)", () => {
  const vectors: Array<[number, string, string, string]> = [
    [59, "94287082", "46119246", "90693936"],
    [1111111109, "07081804", "68084774", "25091201"],
    [1111111111, "14050471", "67062674", "99943326"],
    [1234567890, "89005924", "91819424", "93441116"],
    [2000000000, "69279037", "90698825", "38618901"],
    [20000000000, "65353130", "77737706", "47863826"],
  ]
  for (const [seconds, sha1, sha256, sha512] of vectors) {
    it(`T = ${seconds}: SHA-1 ${sha1}, SHA-256 ${sha256}, SHA-512 ${sha512}`, () => {
      expect(totp(key("SHA-1"), seconds * 1000)).toBe(sha1)
      expect(totp(key("SHA-256"), seconds * 1000)).toBe(sha256)
      expect(totp(key("SHA-512"), seconds * 1000)).toBe(sha512)
    })
  }
  it("steps of T = 59 and 20000000000 are 1 and 666666666 (the 8-byte counter's high word is used past 2^32 s)", () => {
    expect(totpStep(59_000)).toBe(1)
    expect(totpStep(20_000_000_000_000)).toBe(666666666)
  })
})

describe("RFC 4226 Appendix D (HOTP, 6 digits)", () => {
  it("counts 0 to 9 give the appendix's values", () => {
    const codes = Array.from({ length: 10 }, (_, counter) => hotp(key("SHA-1", 6), counter))
    expect(codes).toStrictEqual(["755224", "287082", "359152", "969429", "338314", "254676", "287922", "162583", "399871", "520489"])
  })
})

describe("verifyTotp", () => {
  const k = createTotpKey()
  const now = 1_700_000_015_000
  const step = totpStep(now)
  const at = (s: number) => hotp(k, s)

  it("accepts the current step and one either side, answering the step that matched", () => {
    expect(verifyTotp(k, at(step), { timeMs: now })).toBe(step)
    expect(verifyTotp(k, at(step - 1), { timeMs: now })).toBe(step - 1)
    expect(verifyTotp(k, at(step + 1), { timeMs: now })).toBe(step + 1)
  })

  it("refuses two steps away and beyond (unless a wider window is asked for), and window 0 only the current step", () => {
    for (const s of [step - 3, step - 2, step + 2, step + 3]) {
      // A code of a far step may equal a near one by chance (1 in 10^6): only compare when they differ.
      if ([step - 1, step, step + 1].some((n) => at(n) === at(s))) continue
      expect(verifyTotp(k, at(s), { timeMs: now }), `step ${s - step}`).toBeNull()
    }
    expect(verifyTotp(k, at(step - 2), { timeMs: now, window: 2 })).toBe(step - 2)
    expect(verifyTotp(k, at(step + 1), { timeMs: now, window: 0 })).toBeNull()
    expect(() => verifyTotp(k, at(step), { timeMs: now, window: 5 as 1 })).toThrow(RangeError)
  })

  it("never accepts the last used step or an earlier one (a code is accepted at most once)", () => {
    expect(verifyTotp(k, at(step), { timeMs: now, lastUsedStep: step })).toBeNull()
    expect(verifyTotp(k, at(step - 1), { timeMs: now, lastUsedStep: step - 1 })).toBeNull()
    expect(verifyTotp(k, at(step - 1), { timeMs: now, lastUsedStep: step })).toBeNull()
    expect(verifyTotp(k, at(step + 1), { timeMs: now, lastUsedStep: step })).toBe(step + 1)
    expect(verifyTotp(k, at(step), { timeMs: now, lastUsedStep: null })).toBe(step)
  })

  it("ignores spaces inside the code and refuses anything that is not exactly the key's digits", () => {
    const code = at(step)
    expect(verifyTotp(k, `${code.slice(0, 3)} ${code.slice(3)}`, { timeMs: now })).toBe(step)
    for (const bad of ["", code.slice(1), `${code}0`, `${code.slice(0, 5)}a`, `+${code.slice(1)}`, "１２３４５６", " ".repeat(40) + code, 123456 as unknown as string]) {
      expect(verifyTotp(k, bad, { timeMs: now }), JSON.stringify(bad)).toBeNull()
    }
  })

  it("compares every candidate in constant time, with no early exit (timingSafeEqual, never ===)", () => {
    const source = readFileSync(new URL("../../../src/capabilities/two-factor/totp.ts", import.meta.url), "utf8")
    const body = source.slice(source.indexOf("export function verifyTotp"))
    expect(body).toContain("timingSafeEqual(hotp(key, step), digits)")
    expect(body).not.toMatch(/hotp\([^)]*\)\s*[!=]==|[!=]==\s*hotp\(|return step/)
  })
})

describe("keys", () => {
  it("a new key has 20 random bytes and the defaults SHA-1, 6 digits, 30 s", () => {
    const a = createTotpKey()
    expect(a).toMatchObject({ algorithm: "SHA-1", digits: 6, period: 30 })
    expect(a.secret).toHaveLength(20)
    expect(base32Encode(createTotpKey().secret)).not.toBe(base32Encode(a.secret))
  })

  it("an existing base32 secret is imported as it is, in any case and spacing, and makes the same codes", () => {
    const original = createTotpKey({ algorithm: "SHA-256", digits: 8, period: 60 })
    const written = base32Encode(original.secret).toLowerCase().replace(/(.{4})/g, "$1 ")
    const imported = importTotpKey(written, { algorithm: "SHA-256", digits: 8, period: 60 })
    expect(imported.secret).toStrictEqual(original.secret)
    expect(totp(imported, 1_700_000_000_000)).toBe(totp(original, 1_700_000_000_000))
  })

  it("import refuses a secret shorter than 16 bytes and a non-base32 one with SECRET_INVALID", () => {
    expect(() => importTotpKey("JBSWY3DPEHPK3PXP")).toThrow(expect.objectContaining({ type: "TwoFactorError", code: "SECRET_INVALID", cause: { bytes: 10 } }))
    expect(() => importTotpKey("")).toThrow(expect.objectContaining({ code: "SECRET_INVALID" }))
    expect(() => importTotpKey("JBSWY3DPEHPK3PXP!JBSWY3DPEHPK3PXP")).toThrow(expect.objectContaining({ code: "SECRET_INVALID", cause: { position: 17 } }))
  })

  it("refuses parameters no authenticator would use", () => {
    expect(() => createTotpKey({ digits: 9 as 8 })).toThrow(/"digits" must be 6, 7 or 8/)
    expect(() => createTotpKey({ period: 0 })).toThrow(/"period"/)
    expect(() => createTotpKey({ algorithm: "MD5" as "SHA-1" })).toThrow(/"algorithm"/)
    expect(() => hotp(key("SHA-1"), -1)).toThrow(RangeError)
  })
})
