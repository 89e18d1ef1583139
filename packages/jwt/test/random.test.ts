/** `randomBytes` (random.ts): the pool hands out every byte once, in fresh arrays, at any length. */
import { describe, expect, it } from "vitest"
import { randomBytes } from "../src/index.js"
import { randomBytes as nodeEntryRandomBytes } from "../src/index.node.js"

describe("randomBytes", () => {
  it("answers the length asked, short (pooled) and long (straight from the platform)", () => {
    for (const length of [0, 1, 15, 16, 32, 255, 256, 257, 4096, 5000]) {
      const bytes = randomBytes(length)
      expect(bytes).toBeInstanceOf(Uint8Array)
      expect(bytes.length).toBe(length)
    }
  })

  it("answers a fresh array each time: its own buffer, of its own length", () => {
    const a = randomBytes(16)
    const b = randomBytes(16)
    expect(a.buffer).not.toBe(b.buffer)
    expect(a.buffer.byteLength).toBe(16)
    a.fill(0)
    expect(b.some((byte) => byte !== 0)).toBe(true)
  })

  it("never hands out the same bytes twice, across many refills of the pool", () => {
    // 20,000 draws of 16 bytes is 78 refills of the 4 KiB pool: a refill that repeated a batch, or
    // an offset that overlapped, would show as a repeated value.
    const seen = new Set<string>()
    for (let i = 0; i < 20_000; i++) seen.add(Buffer.from(randomBytes(16)).toString("hex"))
    expect(seen.size).toBe(20_000)
  })

  it("draws random bytes (every byte value turns up in 64 KiB)", () => {
    const counts = new Uint32Array(256)
    for (let i = 0; i < 2048; i++) for (const byte of randomBytes(32)) counts[byte]!++
    expect(counts.every((count) => count > 0)).toBe(true)
    // 256 expected per value: a pool left partly unfilled (zeros) would stand far out.
    expect(Math.max(...counts)).toBeLessThan(400)
  })

  it("refuses a length that is not a non-negative integer", () => {
    for (const length of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) expect(() => randomBytes(length)).toThrow(RangeError)
  })

  it("is one pool for both entries", () => {
    expect(nodeEntryRandomBytes).toBe(randomBytes)
  })
})
