/**
 * The config's `jwt` options (spec 2.2: `jwt?: Partial<JWTOptions>`) through `Auth()`: a custom
 * `encode` writes the session cookie, a custom `decode` reads it, and `jwt.maxAge` sets the token's
 * lifetime (the cookie's follows `session.maxAge`, as in Auth.js).
 */
import { describe, expect, it } from "vitest"
import { decode as defaultDecode, encode as defaultEncode, type JWTDecodeParams, type JWTEncodeParams } from "@authlib/jwt"
import { Client, config, recordingLogger, SECRET, setCookies } from "../helpers/harness.js"

const COOKIE = "authlib.session-token"

describe("jwt options of the config", () => {
  it("a custom encode writes the cookie and a custom decode reads it, both with secret, salt and maxAge", async () => {
    const encoded: JWTEncodeParams[] = []
    const decoded: JWTDecodeParams[] = []
    const client = new Client(config({
      jwt: {
        encode: async (params) => (encoded.push(params), `custom.${await defaultEncode(params)}`),
        decode: async (params) => {
          decoded.push(params)
          if (!params.token?.startsWith("custom.")) throw new Error("not one of ours")
          return defaultDecode({ ...params, token: params.token.slice("custom.".length) })
        },
      },
    }))
    await client.signIn()
    expect(client.jar.get(COOKIE)).toMatch(/^custom\./)
    expect(encoded[0]).toMatchObject({ salt: COOKIE, maxAge: 30 * 24 * 60 * 60, token: expect.objectContaining({ sub: "user-1" }) })
    expect([encoded[0]!.secret].flat()).toEqual([SECRET])
    expect(await client.session()).toMatchObject({ user: { email: "alice@example.com" } })
    expect(decoded.at(-1)).toMatchObject({ salt: COOKIE, token: client.jar.get(COOKIE) })
  })

  it("the custom decode decides: a token the default decoder would accept is refused when it refuses", async () => {
    const plain = await defaultEncode({ token: { sub: "user-1", email: "alice@example.com" }, secret: SECRET, salt: COOKIE })
    const client = new Client(config({ jwt: { decode: async () => null } }))
    client.jar.set(COOKIE, plain)
    expect(await client.session()).toBeNull()
  })

  it("a custom decode that throws reads as signed out and clears the cookie; logged, never a 500", async () => {
    const { logger, entries } = recordingLogger()
    const client = new Client(config({ logger, debug: true, jwt: { decode: async () => { throw new Error("decoder exploded") } } }))
    client.jar.set(COOKIE, "anything")
    const res = await client.request("/auth/session")
    expect(res.status).toBe(200)
    expect(await res.json()).toBeNull()
    expect(setCookies(res).find((c) => c.name === COOKIE)).toMatchObject({ maxAge: 0 })
    expect(entries.some((e) => JSON.stringify(e.message).includes("decoder exploded") || (e.message[0] as Error)?.message === "decoder exploded")).toBe(true)
  })

  it("jwt.maxAge sets the token's lifetime (exp - iat), independent of session.maxAge", async () => {
    const client = new Client(config({ jwt: { maxAge: 3600 }, session: { maxAge: 7 * 24 * 3600 } }))
    const res = await client.signIn()
    const payload = await defaultDecode({ token: client.jar.get(COOKIE)!, secret: SECRET, salt: COOKIE })
    expect(payload!.exp! - payload!.iat!).toBe(3600)
    const cookie = setCookies(res).find((c) => c.name === COOKIE)!
    const cookieSeconds = (cookie.expires!.getTime() - Date.now()) / 1000
    expect(cookieSeconds).toBeGreaterThan(7 * 24 * 3600 - 60)
    expect(cookieSeconds).toBeLessThanOrEqual(7 * 24 * 3600)
    // Without jwt.maxAge the token lives as long as the session.
    const plain = new Client(config({ session: { maxAge: 7200 } }))
    await plain.signIn()
    const other = await defaultDecode({ token: plain.jar.get(COOKIE)!, secret: SECRET, salt: COOKIE })
    expect(other!.exp! - other!.iat!).toBe(7200)
  })
})
