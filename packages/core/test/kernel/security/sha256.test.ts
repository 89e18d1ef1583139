import { describe, expect, it } from "vitest"
import { sha256 as nobleSha256 } from "@noble/hashes/sha2.js"
import { fastSha256 } from "@authlib/jwt"
import { createHash } from "node:crypto"
import { portableSha256, portableSha256Hex, sha256, sha256Hex } from "../../../src/kernel/security/random.js"

/** The reference: UTF-8 bytes (lone surrogates as U+FFFD, as TextEncoder writes them), SHA-256, base64url without padding. */
const reference = (value: string) => btoa(String.fromCharCode(...nobleSha256(new TextEncoder().encode(value)))).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")

const inputs = [
  "",
  "a",
  "abc",
  // A CSRF cookie's hash input: token + secret.
  `${"Zm9vYmFy".repeat(5)}bench-secret-bench-secret-bench-secret-0123`,
  "é, ß, 漢字, 🙂",
  "lone \ud800 and \udfff surrogates",
  // Past the 512-byte scratch buffer of the portable path, and at its edge.
  "x".repeat(511),
  "x".repeat(512),
  "é".repeat(300),
  "y".repeat(100_000),
]

describe("SHA-256 (base64url) of core's hot paths", () => {
  it("runs on node:crypto under Node (the `node` condition of @authlib/jwt)", () => {
    expect(typeof fastSha256).toBe("function")
    expect(sha256).toBe(fastSha256)
  })

  for (const [i, value] of inputs.entries()) {
    it(`gives the same digest on node:crypto and in JavaScript (input ${i}, ${value.length} characters)`, () => {
      const expected = reference(value)
      expect(fastSha256!(value)).toBe(expected)
      expect(portableSha256(value)).toBe(expected)
    })
  }

  it("gives the same digest on both paths for 2,000 random strings (ASCII, BMP and astral characters)", () => {
    const pick = (n: number) => Math.floor(Math.random() * n)
    for (let k = 0; k < 2000; k++) {
      let value = ""
      const length = pick(700)
      for (let i = 0; i < length; i++) {
        const kind = pick(3)
        value += kind === 0 ? String.fromCharCode(0x20 + pick(95)) : kind === 1 ? String.fromCharCode(pick(0xffff)) : String.fromCodePoint(0x10000 + pick(0xfffff))
      }
      expect(fastSha256!(value)).toBe(portableSha256(value))
    }
  })

  it("gives the same hex digest (the e-mail link's stored form) on both paths as node:crypto's hex, for the inputs above and 2,000 random strings", () => {
    const pick = (n: number) => Math.floor(Math.random() * n)
    const values = [...inputs]
    for (let k = 0; k < 2000; k++) values.push(Array.from({ length: pick(300) }, () => String.fromCodePoint(pick(2) ? 0x20 + pick(95) : pick(0xd7ff))).join(""))
    for (const value of values) {
      const expected = createHash("sha256").update(value, "utf8").digest("hex")
      expect(sha256Hex(value)).toBe(expected)
      expect(portableSha256Hex(value)).toBe(expected)
    }
  })
})
