/**
 * The TOTP key at rest (capabilities/two-factor/secret-box.ts): sealed with the first secret,
 * opened with any of the list (and marked stale when not the first), bound to its user, refused
 * as a server error when altered or when no secret opens it; the secret never appears in clear.
 */
import { describe, expect, it } from "vitest"
import { base32Encode } from "../../../src/capabilities/two-factor/base32.js"
import { openTotpKey, sealTotpKey } from "../../../src/capabilities/two-factor/secret-box.js"
import { createTotpKey, totp } from "../../../src/capabilities/two-factor/totp.js"

const OLD = "old-secret-0123456789abcdefghijklmnop"
const NEW = "new-secret-0123456789abcdefghijklmnop"
const unreadable = (reason: string) => expect.objectContaining({ type: "Configuration", code: "TWO_FACTOR_SECRET_UNREADABLE", cause: expect.objectContaining({ userId: "u1", reason }) })

describe("sealTotpKey / openTotpKey", () => {
  it("round-trips the key and its parameters; the sealed form holds neither the secret's bytes nor its base32", async () => {
    const key = createTotpKey({ algorithm: "SHA-256", digits: 8, period: 60 })
    const sealed = await sealTotpKey(key, "u1", [NEW])
    expect(sealed).not.toContain(base32Encode(key.secret))
    expect(atob(sealed.split(".")[0]!.replace(/-/g, "+").replace(/_/g, "/"))).toMatch(/"enc":"A256CBC-HS512"/)
    const opened = await openTotpKey(sealed, "u1", [NEW])
    expect(opened.stale).toBe(false)
    expect(opened.key).toStrictEqual(key)
    expect(totp(opened.key, 1_700_000_000_000)).toBe(totp(key, 1_700_000_000_000))
  })

  it("rotation: sealed with an older secret still opens with the list, marked stale; sealing again uses the first", async () => {
    const key = createTotpKey()
    const before = await sealTotpKey(key, "u1", [OLD])
    const opened = await openTotpKey(before, "u1", [NEW, OLD])
    expect(opened).toStrictEqual({ key, stale: true })
    const again = await sealTotpKey(opened.key, "u1", [NEW, OLD])
    expect(await openTotpKey(again, "u1", [NEW])).toStrictEqual({ key, stale: false })
  })

  it("a key sealed for one user is refused for another (a row copied onto another user's)", async () => {
    const sealed = await sealTotpKey(createTotpKey(), "mallory", [NEW])
    await expect(openTotpKey(sealed, "u1", [NEW])).rejects.toThrow(unreadable("sealed for another user"))
  })

  it("refuses, as a Configuration error naming the cause, a key no secret opens, an altered one and garbage", async () => {
    const sealed = await sealTotpKey(createTotpKey(), "u1", [OLD])
    await expect(openTotpKey(sealed, "u1", [NEW])).rejects.toThrow(unreadable("KID_UNKNOWN"))
    const parts = sealed.split(".")
    parts[3] = parts[3]!.slice(0, -2) + (parts[3]!.endsWith("AA") ? "BA" : "AA")
    await expect(openTotpKey(parts.join("."), "u1", [OLD])).rejects.toThrow(unreadable("DECRYPTION_FAILED"))
    await expect(openTotpKey("not a sealed key", "u1", [NEW, OLD])).rejects.toThrow(unreadable("TOKEN_MALFORMED"))
    await expect(openTotpKey(sealed, "u1", [NEW])).rejects.toThrow(/was the auth secret replaced without keeping the old one/)
  })
})
