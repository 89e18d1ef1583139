/** The key URI (capabilities/two-factor/otpauth-uri.ts): layout, percent-encoding, parameters, refusals. */
import { describe, expect, it } from "vitest"
import { otpauthUri } from "../../../src/capabilities/two-factor/otpauth-uri.js"
import { importTotpKey } from "../../../src/capabilities/two-factor/totp.js"

const SECRET = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP"

describe("otpauthUri", () => {
  it("writes otpauth://totp/<issuer>:<account> with the secret, issuer and every parameter", () => {
    expect(otpauthUri(importTotpKey(SECRET), { issuer: "Example", account: "ada@example.com" })).toBe(
      `otpauth://totp/Example:ada%40example.com?secret=${SECRET}&issuer=Example&algorithm=SHA1&digits=6&period=30`,
    )
    const key = importTotpKey(SECRET, { algorithm: "SHA-512", digits: 8, period: 60 })
    expect(otpauthUri(key, { issuer: "E", account: "a" })).toMatch(/&algorithm=SHA512&digits=8&period=60$/)
  })

  it("percent-encodes issuer and account (space as %20, never +; &, ?, #, /, : and non-ASCII), so the URL parses back to them", () => {
    const label = { issuer: "Ada & Co? #1/Ünïcode", account: "a+b c:d@example.com" }
    const uri = otpauthUri(importTotpKey(SECRET), label)
    expect(uri).toContain("/Ada%20%26%20Co%3F%20%231%2F%C3%9Cn%C3%AFcode:a%2Bb%20c%3Ad%40example.com?")
    expect(uri).not.toContain("+")
    const url = new URL(uri)
    expect(url.searchParams.get("issuer")).toBe(label.issuer)
    expect([url.protocol, url.host]).toStrictEqual(["otpauth:", "totp"])
    const [issuer, account] = url.pathname.slice(1).split(":")
    expect([decodeURIComponent(issuer!), decodeURIComponent(account!)]).toStrictEqual([label.issuer, label.account])
  })

  it("refuses an empty issuer or account and an issuer with ':' (it would end the label's issuer)", () => {
    const key = importTotpKey(SECRET)
    for (const label of [{ issuer: "", account: "a" }, { issuer: "A:B", account: "a" }, { issuer: "A", account: " " }]) {
      expect(() => otpauthUri(key, label), JSON.stringify(label)).toThrow(expect.objectContaining({ type: "Configuration", code: "CONFIG_INVALID" }))
    }
  })
})
