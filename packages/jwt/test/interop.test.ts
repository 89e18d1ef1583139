/**
 * Migration promise: with the same secret and salt, tokens move between Auth.js v5
 * (`@auth/core/jwt`) and `@authlib/jwt` in both directions, so switching does not sign anyone out.
 */
import { describe, expect, it } from "vitest"
import * as authjs from "@auth/core/jwt"
import { OLD_SECRET, SALT, SECRET, implementations, joseEncrypt, kidOf, rawKey } from "./helpers.js"

const PAYLOAD = { name: "Zoë Ünïcode 🚀", email: "zoe@example.com", picture: "https://example.com/z.png", sub: "42", role: ["admin"] }

describe.each(implementations)("%s: interop with @auth/core/jwt", (_, jwt) => {
  it("decodes a token issued by Auth.js", async () => {
    const token = await authjs.encode({ token: PAYLOAD, secret: SECRET, salt: SALT })
    const ours = await jwt.decode({ token, secret: SECRET, salt: SALT })
    expect(ours).toEqual(await authjs.decode({ token, secret: SECRET, salt: SALT }))
    expect(ours).toMatchObject(PAYLOAD)
  })

  it("issues tokens that Auth.js decodes to the same payload", async () => {
    const token = await jwt.encode({ token: PAYLOAD, secret: SECRET, salt: SALT, maxAge: 120 })
    const theirs = await authjs.decode({ token, secret: SECRET, salt: SALT })
    expect(theirs).toEqual(await jwt.decode({ token, secret: SECRET, salt: SALT }))
    expect(theirs!.exp! - theirs!.iat!).toBe(120)
  })

  it("writes the same protected header as Auth.js, byte for byte", async () => {
    const theirs = await authjs.encode({ token: {}, secret: SECRET, salt: SALT })
    const ours = await jwt.encode({ token: {}, secret: SECRET, salt: SALT })
    expect(ours.split(".")[0]).toBe(theirs.split(".")[0])
  })

  it("agrees with Auth.js on rotation: old-secret tokens of either library decode in both", async () => {
    const rotated = [SECRET, OLD_SECRET]
    const theirsOld = await authjs.encode({ token: { sub: "a" }, secret: OLD_SECRET, salt: SALT })
    const oursOld = await jwt.encode({ token: { sub: "b" }, secret: OLD_SECRET, salt: SALT })
    expect((await jwt.decode({ token: theirsOld, secret: rotated, salt: SALT }))!.sub).toBe("a")
    expect((await authjs.decode({ token: oursOld, secret: rotated, salt: SALT }))!.sub).toBe("b")
  })

  it("reads the cookie of an Auth.js app by its name, and Auth.js reads ours", async () => {
    const cookieName = "authjs.session-token"
    const theirs = await authjs.encode({ token: { sub: "cookie" }, secret: SECRET, salt: cookieName })
    const req = new Request("http://localhost/", { headers: { cookie: `${cookieName}=${theirs}` } })
    expect(await jwt.getToken({ req, secret: SECRET, cookieName })).toMatchObject({ sub: "cookie" })
    const ours = await jwt.encode({ token: { sub: "back" }, secret: SECRET, salt: cookieName })
    const back = new Request("http://localhost/", { headers: { cookie: `${cookieName}=${ours}` } })
    expect(await authjs.getToken({ req: back, secret: SECRET, secureCookie: false })).toMatchObject({ sub: "back" })
  })

  it("decodes legacy A256GCM tokens exactly as Auth.js does, with or without kid", async () => {
    const key = await rawKey(SECRET, SALT, 32)
    for (const header of [{ alg: "dir", enc: "A256GCM" }, { alg: "dir", enc: "A256GCM", kid: await kidOf(key) }]) {
      const token = await joseEncrypt(JSON.stringify({ sub: "legacy" }), header, key)
      expect(await authjs.decode({ token, secret: SECRET, salt: SALT })).toEqual({ sub: "legacy" })
      expect(await jwt.decode({ token, secret: SECRET, salt: SALT })).toEqual({ sub: "legacy" })
    }
  })

  it("rejects what Auth.js rejects: a token of another secret", async () => {
    const token = await authjs.encode({ token: PAYLOAD, secret: OLD_SECRET, salt: SALT })
    await expect(authjs.decode({ token, secret: SECRET, salt: SALT })).rejects.toThrow()
    await expect(jwt.decode({ token, secret: SECRET, salt: SALT })).rejects.toMatchObject({ code: "KID_UNKNOWN" })
  })
})
