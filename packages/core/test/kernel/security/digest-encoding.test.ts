import { describe, expect, it } from "vitest"
import { base64url, sha256 } from "../../../src/kernel/security/random.js"

/** The reference: base64 by `btoa`, then the URL-safe alphabet without padding. */
function reference(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")
}

async function webSha256(input: string): Promise<string> {
  return reference(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(input))))
}

describe("base64url and sha256", () => {
  it("base64url matches btoa for every length from 0 to 100 and for all byte values", () => {
    for (let length = 0; length <= 100; length++) {
      const bytes = crypto.getRandomValues(new Uint8Array(length))
      expect(base64url(bytes)).toBe(reference(bytes))
    }
    const all = Uint8Array.from({ length: 256 }, (_, i) => i)
    expect(base64url(all)).toBe(reference(all))
    expect(base64url(new Uint8Array([0xfb, 0xff]))).toBe("-_8")
  })

  it("sha256 matches Web Crypto for inputs around the size of its reused buffer", async () => {
    const inputs = [510, 511, 512, 513, 1500].flatMap((n) => ["a".repeat(n), `${"a".repeat(n - 1)}é`, `${"b".repeat(n - 2)}😀`])
    for (const input of inputs) expect(sha256(input)).toBe(await webSha256(input))
  })

  it("sha256 of a long input does not change the digest of the next short one", async () => {
    sha256("x".repeat(400))
    expect(sha256("token|secret")).toBe(await webSha256("token|secret"))
    expect(sha256("")).toBe("47DEQpj8HBSa-_TImW-5JCeuQeRkm5NMpJWZG3hSuFU")
  })
})
