/** The derived-key cache, observed through the public API by counting HKDF derivations. */
import { afterEach, describe, expect, it, vi } from "vitest"
import { implementations } from "./helpers.js"

const SECRET = "cache-test-secret-cache-test-secret"

function countDerivations() {
  const original = crypto.subtle.deriveBits.bind(crypto.subtle)
  return vi.spyOn(crypto.subtle, "deriveBits").mockImplementation((algorithm, key, length) => original(algorithm, key, length))
}

afterEach(() => {
  vi.restoreAllMocks()
})

describe.each(implementations)("%s: derived keys", (_, jwt) => {
  it("derives a key once per (secret, salt), however many tokens it encodes and decodes", async () => {
    const salt = `once-${Math.random()}`
    const derive = countDerivations()
    const tokens = await Promise.all(Array.from({ length: 20 }, () => jwt.encode({ token: {}, secret: SECRET, salt })))
    await Promise.all(tokens.map((token) => jwt.decode({ token, secret: SECRET, salt })))
    expect(derive).toHaveBeenCalledTimes(1)
    await jwt.encode({ token: {}, secret: `${SECRET}-2`, salt })
    expect(derive).toHaveBeenCalledTimes(2)
  })

  it("keeps at most 64 keys, evicting the least recently used", async () => {
    const run = Math.random()
    const salt = (i: number) => `lru-${run}-${i}`
    await jwt.encode({ token: {}, secret: SECRET, salt: salt(0) })
    for (let i = 1; i < 64; i++) await jwt.encode({ token: {}, secret: SECRET, salt: salt(i) })
    await jwt.encode({ token: {}, secret: SECRET, salt: salt(0) }) // 0 is now the most recent
    const derive = countDerivations()
    await jwt.encode({ token: {}, secret: SECRET, salt: salt(64) }) // evicts 1, the least recent
    await jwt.encode({ token: {}, secret: SECRET, salt: salt(0) })
    expect(derive).toHaveBeenCalledTimes(1)
    await jwt.encode({ token: {}, secret: SECRET, salt: salt(1) })
    expect(derive).toHaveBeenCalledTimes(2)
  })

  it("does not cache a failed derivation", async () => {
    const salt = `fail-${Math.random()}`
    vi.spyOn(crypto.subtle, "deriveBits").mockRejectedValueOnce(new Error("transient"))
    await expect(jwt.encode({ token: {}, secret: SECRET, salt })).rejects.toThrow("transient")
    const token = await jwt.encode({ token: { sub: "ok" }, secret: SECRET, salt })
    expect(await jwt.decode({ token, secret: SECRET, salt })).toMatchObject({ sub: "ok" })
  })
})
