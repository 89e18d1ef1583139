/**
 * NextAuth.js v4's session tokens, with the real thing: `next-auth@4.24`'s own `next-auth/jwt`
 * `encode` seals them (and its cookie store chunks them), `decodeNextAuthV4` reads them, on both
 * entries. Anything v4 would not have written for this secret is refused with a stable code.
 */
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import * as v4 from "next-auth/jwt"
import { describe, expect, it } from "vitest"
import * as nodeEntry from "../src/index.node.js"
import * as webEntry from "../src/index.js"
import { OLD_SECRET, SECRET } from "./helpers.js"

const entries = [["web entry (WebCrypto)", webEntry], ["node entry (node:crypto)", nodeEntry]] as const
const PAYLOAD = { name: "Zoë Ünïcode", email: "zoe@example.com", picture: "https://example.com/z.png", sub: "42" }

/** v4's cookie store (`SessionStore`, internal to next-auth: loaded from its package folder), which chunks its session cookie. */
type V4Cookie = { name: string; value: string }
const require = createRequire(import.meta.url)
const { SessionStore } = require(join(dirname(require.resolve("next-auth/jwt")), "../core/lib/cookie.js")) as {
  SessionStore: new (option: { name: string; options: Record<string, unknown> }, req: { cookies: Record<string, string>; headers: Record<string, string> }, logger: Record<string, () => void>) => {
    chunk(value: string, options: Record<string, unknown>): V4Cookie[]
  }
}
const quiet = { debug() {}, warn() {}, error() {} }

describe.each(entries)("%s: decodeNextAuthV4", (_, jwt) => {
  it("reads a session token next-auth v4 issued, to the payload v4 itself decodes", async () => {
    const token = await v4.encode({ token: PAYLOAD, secret: SECRET })
    expect(jwt.isNextAuthV4Token(token)).toBe(true)
    const ours = await jwt.decodeNextAuthV4({ token, secret: SECRET })
    expect(ours).toEqual(await v4.decode({ token, secret: SECRET }))
    expect(ours).toMatchObject({ ...PAYLOAD, iat: expect.any(Number), exp: expect.any(Number), jti: expect.any(String) })
  })

  it("tries each secret in turn: a token of the previous NEXTAUTH_SECRET still reads", async () => {
    const token = await v4.encode({ token: { sub: "old" }, secret: OLD_SECRET })
    expect(await jwt.decodeNextAuthV4({ token, secret: [SECRET, OLD_SECRET] })).toMatchObject({ sub: "old" })
  })

  it("joins a chunked v4 cookie (`.0`, `.1`) as v4's cookie store wrote it", async () => {
    const token = await v4.encode({ token: { ...PAYLOAD, extra: "x".repeat(4000) }, secret: SECRET })
    const name = "__Secure-next-auth.session-token"
    const chunks = new SessionStore({ name, options: { secure: true } }, { cookies: {}, headers: {} }, quiet).chunk(token, {})
    expect(chunks.map((c) => c.name)).toEqual([`${name}.0`, `${name}.1`])
    const cookies = Object.fromEntries(chunks.map((c) => [c.name, c.value]))
    const joined = jwt.joinCookieChunks(name, cookies)
    expect(await jwt.decodeNextAuthV4({ token: joined, secret: SECRET })).toMatchObject({ sub: "42", extra: "x".repeat(4000) })
  })

  it("refuses a token sealed with another secret, or with v4's salted key (not a session token)", async () => {
    const other = await v4.encode({ token: PAYLOAD, secret: OLD_SECRET })
    await expect(jwt.decodeNextAuthV4({ token: other, secret: SECRET })).rejects.toMatchObject({ type: "JWTSessionError", code: "DECRYPTION_FAILED" })
    const salted = await v4.encode({ token: PAYLOAD, secret: SECRET, salt: "next-auth.session-token" })
    expect(jwt.isNextAuthV4Token(salted)).toBe(true)
    await expect(jwt.decodeNextAuthV4({ token: salted, secret: SECRET })).rejects.toMatchObject({ code: "DECRYPTION_FAILED" })
  })

  it("refuses a tampered token, an expired one, and a v5 token", async () => {
    const token = await v4.encode({ token: PAYLOAD, secret: SECRET })
    const parts = token.split(".")
    const flipped = parts[3]!.startsWith("A") ? `B${parts[3]!.slice(1)}` : `A${parts[3]!.slice(1)}`
    await expect(jwt.decodeNextAuthV4({ token: [parts[0], parts[1], parts[2], flipped, parts[4]].join("."), secret: SECRET })).rejects.toMatchObject({ code: "DECRYPTION_FAILED" })
    const expired = await v4.encode({ token: PAYLOAD, secret: SECRET, maxAge: -60 })
    await expect(v4.decode({ token: expired, secret: SECRET })).rejects.toThrow()
    await expect(jwt.decodeNextAuthV4({ token: expired, secret: SECRET })).rejects.toMatchObject({ code: "TOKEN_EXPIRED" })
    const v5 = await jwt.encode({ token: PAYLOAD, secret: SECRET, salt: "next-auth.session-token" })
    expect(jwt.isNextAuthV4Token(v5)).toBe(false)
    await expect(jwt.decodeNextAuthV4({ token: v5, secret: SECRET })).rejects.toMatchObject({ code: "ENC_UNSUPPORTED" })
  })

  it("answers null for no token and throws MissingSecret without a secret", async () => {
    expect(await jwt.decodeNextAuthV4({ token: "", secret: SECRET })).toBeNull()
    expect(await jwt.decodeNextAuthV4({ secret: SECRET })).toBeNull()
    await expect(jwt.decodeNextAuthV4({ token: "x", secret: "" })).rejects.toMatchObject({ type: "MissingSecret" })
  })

  it("tells a v4 token by its header alone", () => {
    for (const notV4 of [undefined, "", "eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0", "eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIn0x..a.b.c", "a.b.c.d.e"]) {
      expect(jwt.isNextAuthV4Token(notV4)).toBe(false)
    }
  })
})
