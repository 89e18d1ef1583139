/** Base32 (capabilities/two-factor/base32.ts): the RFC 4648 §10 vectors, tolerant decoding, clear refusals. */
import { describe, expect, it } from "vitest"
import { base32Decode, base32Encode } from "../../../src/capabilities/two-factor/base32.js"

const bytes = (s: string) => new TextEncoder().encode(s)
const VECTORS: Array<[string, string]> = [
  ["", ""],
  ["f", "MY======"],
  ["fo", "MZXQ===="],
  ["foo", "MZXW6==="],
  ["foob", "MZXW6YQ="],
  ["fooba", "MZXW6YTB"],
  ["foobar", "MZXW6YTBOI======"],
]

describe("RFC 4648 §10 vectors", () => {
  for (const [plain, encoded] of VECTORS) {
    it(`BASE32("${plain}") = "${encoded}", both ways, padded or not`, () => {
      expect(base32Encode(bytes(plain), { padding: true })).toBe(encoded)
      expect(base32Encode(bytes(plain))).toBe(encoded.replace(/=+$/, ""))
      expect(base32Decode(encoded)).toStrictEqual(bytes(plain))
      expect(base32Decode(encoded.replace(/=+$/, ""))).toStrictEqual(bytes(plain))
    })
  }
})

describe("base32Decode", () => {
  it("takes lower case, spaces, tabs, newlines and dashes", () => {
    expect(base32Decode("mzxw 6ytb\toi")).toStrictEqual(bytes("foobar"))
    expect(base32Decode("MZXW-6YTB-OI\n")).toStrictEqual(bytes("foobar"))
  })

  it("round-trips random bytes of every length up to 64", () => {
    for (let n = 0; n <= 64; n++) {
      const data = crypto.getRandomValues(new Uint8Array(n))
      expect(base32Decode(base32Encode(data))).toStrictEqual(data)
    }
  })

  it("refuses a character outside the alphabet with its position (1, 8, 9, 0, punctuation, non-ASCII), not the input", () => {
    for (const [input, position] of [["MZXW1YTB", 5], ["MZXW6YT8", 8], ["0ZXW6YTB", 1], ["MZ.W6YTB", 3], ["MZXW6YTÉ", 8]] as const) {
      let err: unknown
      try {
        base32Decode(input)
      } catch (e) {
        err = e
      }
      expect(err, input).toMatchObject({ type: "TwoFactorError", code: "SECRET_INVALID", cause: { position } })
      expect((err as Error).message).toBe(`invalid base32 character at position ${position} (allowed: A-Z, 2-7)`)
      expect((err as Error).message).not.toContain(input)
    }
  })

  it("refuses padding inside the string, impossible lengths and over-long input", () => {
    expect(() => base32Decode("MZ==XW6Y")).toThrow(expect.objectContaining({ code: "SECRET_INVALID", message: 'base32 padding "=" may only end the secret' }))
    for (const input of ["M", "MZX", "MZXW6Y", "MZXW6YTBO"]) expect(() => base32Decode(input), input).toThrow(/encode no whole number of bytes/)
    expect(() => base32Decode("A".repeat(1025))).toThrow(expect.objectContaining({ code: "SECRET_INVALID" }))
  })
})
