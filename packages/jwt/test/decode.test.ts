import { afterEach, describe, expect, it, vi } from "vitest"
import { JWTSessionError, MissingSalt, MissingSecret } from "../src/index.js"
import {
  OLD_SECRET,
  PAYLOAD,
  SALT,
  SECRET,
  decodeSegment,
  implementations,
  joseEncrypt,
  joseToken,
  kidOf,
  now,
  rawKey,
} from "./helpers.js"

/** Resolves the rejection of `promise` for assertions; fails when it resolves. */
async function rejection(promise: Promise<unknown>): Promise<JWTSessionError> {
  const error = await promise.then(
    () => expect.fail("expected a rejection"),
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(JWTSessionError)
  return error as JWTSessionError
}

afterEach(() => {
  vi.useRealTimers()
})

describe.each(implementations)("%s: encode and decode", (_, jwt) => {
  it("round-trips a payload and adds iat, exp = iat + maxAge, and a random jti", async () => {
    const before = now()
    const token = await jwt.encode({ token: PAYLOAD, secret: SECRET, salt: SALT, maxAge: 3600 })
    const decoded = await jwt.decode({ token, secret: SECRET, salt: SALT })
    expect(decoded).toMatchObject(PAYLOAD)
    expect(decoded!.iat).toBeGreaterThanOrEqual(before)
    expect(decoded!.exp).toBe(decoded!.iat! + 3600)
    expect(decoded!.jti).toMatch(/^[0-9a-f-]{36}$/)
    const again = await jwt.encode({ token: PAYLOAD, secret: SECRET, salt: SALT })
    expect((await jwt.decode({ token: again, secret: SECRET, salt: SALT }))!.jti).not.toBe(decoded!.jti)
  })

  it("writes a dir + A256CBC-HS512 header whose kid is the SHA-512 JWK thumbprint of the HKDF key", async () => {
    const token = await jwt.encode({ token: {}, secret: SECRET, salt: SALT })
    const [header, encryptedKey, iv, , tag] = token.split(".")
    const kid = await kidOf(await rawKey(SECRET, SALT, 64))
    expect(decodeSegment(header!)).toEqual({ alg: "dir", enc: "A256CBC-HS512", kid })
    expect([encryptedKey, iv!.length, tag!.length]).toEqual(["", 22, 43])
  })

  it("defaults maxAge to 30 days and overrides iat, exp and jti given in the payload", async () => {
    const token = await jwt.encode({ token: { iat: 1, exp: 2, jti: "mine" }, secret: SECRET, salt: SALT })
    const decoded = (await jwt.decode({ token, secret: SECRET, salt: SALT }))!
    expect(decoded.exp! - decoded.iat!).toBe(30 * 24 * 60 * 60)
    expect(decoded.jti).not.toBe("mine")
  })

  it("writes the claims as { ...token, iat, exp, jti } would: the payload's order, a __proto__ key kept as a claim, given iat/exp/jti overridden in place", async () => {
    const payload = JSON.parse('{"b":1,"__proto__":{"x":1},"iat":5,"2":"two","a":[1]}') as Record<string, unknown>
    const token = await jwt.encode({ token: payload, secret: SECRET, salt: SALT })
    const decoded = (await jwt.decode({ token, secret: SECRET, salt: SALT }))!
    const reference = { ...payload, iat: decoded.iat, exp: decoded.exp, jti: decoded.jti }
    expect(JSON.stringify(decoded)).toBe(JSON.stringify(reference))
    expect(Object.hasOwn(decoded, "__proto__")).toBe(true)
  })

  it("encrypts a different ciphertext for the same payload each time (fresh IV)", async () => {
    const a = await jwt.encode({ token: PAYLOAD, secret: SECRET, salt: SALT })
    const b = await jwt.encode({ token: PAYLOAD, secret: SECRET, salt: SALT })
    expect(a.split(".")[2]).not.toBe(b.split(".")[2])
  })

  it("resolves null for an undefined, null or empty token", async () => {
    for (const token of [undefined, null, ""]) {
      expect(await jwt.decode({ token: token as string, secret: SECRET, salt: SALT })).toBeNull()
    }
  })

  it("throws MissingSecret / MissingSalt for missing or empty parameters, even without a token", async () => {
    for (const secret of [undefined, "", [], ["ok", ""]]) {
      const params = { secret: secret as string, salt: SALT }
      await expect(jwt.decode(params)).rejects.toBeInstanceOf(MissingSecret)
      await expect(jwt.encode({ ...params, token: {} })).rejects.toMatchObject({
        type: "MissingSecret",
        code: "SECRET_MISSING",
      })
    }
    const error = await jwt.decode({ secret: SECRET, salt: "" }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(MissingSalt)
    expect(error).toMatchObject({ code: "SALT_MISSING", message: '"salt" of decode must be a non-empty string (the cookie name)' })
  })

  it("refuses a payload that is not an object and a maxAge that is not finite", async () => {
    await expect(jwt.encode({ token: [] as never, secret: SECRET, salt: SALT })).rejects.toThrow(TypeError)
    await expect(jwt.encode({ token: {}, secret: SECRET, salt: SALT, maxAge: Infinity })).rejects.toThrow(
      '"maxAge" of encode must be a finite number of seconds',
    )
  })

  it("does not decode with another salt (the salt binds a token to its cookie)", async () => {
    const token = await jwt.encode({ token: PAYLOAD, secret: SECRET, salt: SALT })
    const error = await rejection(jwt.decode({ token, secret: SECRET, salt: "authlib.other" }))
    expect(error.code).toBe("KID_UNKNOWN")
  })
})

describe.each(implementations)("%s: secret rotation", (_, jwt) => {
  it("encodes with the first secret and still decodes tokens of the older one", async () => {
    const oldToken = await jwt.encode({ token: { sub: "old" }, secret: OLD_SECRET, salt: SALT })
    const rotated = [SECRET, OLD_SECRET]
    const newToken = await jwt.encode({ token: { sub: "new" }, secret: rotated, salt: SALT })
    expect(decodeSegment(newToken.split(".")[0]!).kid).toBe(await kidOf(await rawKey(SECRET, SALT, 64)))
    expect((await jwt.decode({ token: oldToken, secret: rotated, salt: SALT }))!.sub).toBe("old")
    expect((await jwt.decode({ token: newToken, secret: rotated, salt: SALT }))!.sub).toBe("new")
    const retired = await rejection(jwt.decode({ token: newToken, secret: OLD_SECRET, salt: SALT }))
    expect(retired).toMatchObject({ code: "KID_UNKNOWN", message: 'JWT "kid" matches none of the secrets' })
  })

  it("tries only the key the kid names: a kid of secret A on a token sealed by B fails", async () => {
    const kidA = await kidOf(await rawKey(SECRET, SALT, 64))
    const token = await joseToken({ sub: "x" }, { secret: OLD_SECRET, kid: kidA })
    const error = await rejection(jwt.decode({ token, secret: [SECRET, OLD_SECRET], salt: SALT }))
    expect(error.code).toBe("DECRYPTION_FAILED")
  })

  it("tries every secret in order for a token without kid", async () => {
    const token = await joseToken({ sub: "no-kid" }, { secret: OLD_SECRET, kid: null })
    expect((await jwt.decode({ token, secret: [SECRET, OLD_SECRET], salt: SALT }))!.sub).toBe("no-kid")
    const error = await rejection(jwt.decode({ token, secret: [SECRET], salt: SALT }))
    expect(error).toMatchObject({ code: "DECRYPTION_FAILED", cause: { secrets: 1 } })
  })
})

describe.each(implementations)("%s: expiry and clock tolerance", (_, jwt) => {
  const start = new Date("2026-01-01T00:00:00Z")

  it("accepts a token up to 15 s after exp and rejects it from then on", async () => {
    vi.useFakeTimers({ toFake: ["Date"], now: start })
    const token = await jwt.encode({ token: PAYLOAD, secret: SECRET, salt: SALT, maxAge: 60 })
    vi.setSystemTime(start.getTime() + 74_999)
    expect(await jwt.decode({ token, secret: SECRET, salt: SALT })).toMatchObject(PAYLOAD)
    vi.setSystemTime(start.getTime() + 75_000)
    const error = await rejection(jwt.decode({ token, secret: SECRET, salt: SALT }))
    expect(error).toMatchObject({ type: "JWTSessionError", code: "TOKEN_EXPIRED", message: "JWT has expired" })
    expect(error.cause).toEqual({ exp: start.getTime() / 1000 + 60, now: start.getTime() / 1000 + 75 })
  })

  it("accepts nbf up to 15 s ahead and rejects it beyond", async () => {
    const t = now()
    const soon = await joseToken({ nbf: t + 14 })
    expect(await jwt.decode({ token: soon, secret: SECRET, salt: SALT })).toEqual({ nbf: t + 14 })
    const later = await joseToken({ nbf: t + 60 })
    expect((await rejection(jwt.decode({ token: later, secret: SECRET, salt: SALT }))).code).toBe(
      "TOKEN_NOT_YET_VALID",
    )
  })

  it("rejects time claims that are not finite numbers", async () => {
    const header = decodeSegment((await joseToken({})).split(".")[0]!)
    for (const claims of ['{"exp":"never"}', '{"iat":"x"}', '{"nbf":null}', '{"exp":1e400}']) {
      const crafted = await joseEncrypt(claims, header, await rawKey(SECRET, SALT, 64))
      const error = await rejection(jwt.decode({ token: crafted, secret: SECRET, salt: SALT }))
      expect(error.code).toBe("CLAIM_INVALID")
    }
  })

  it("accepts a token without exp, as jose and Auth.js do", async () => {
    const token = await joseToken({ sub: "forever" })
    expect(await jwt.decode({ token, secret: SECRET, salt: SALT })).toEqual({ sub: "forever" })
  })
})
