import { afterEach, beforeAll, describe, expect, it, vi } from "vitest"
import { MissingSecret, splitCookieValue } from "../src/index.js"
import type { JWTDecodeParams } from "../src/index.js"
import { PAYLOAD, SECRET, implementations } from "./helpers.js"

const NAME = "authlib.session-token"
const SECURE_NAME = "__Secure-authlib.session-token"

const request = (headers: Record<string, string>, url = "http://localhost:3000/api") => new Request(url, { headers })

afterEach(() => {
  vi.unstubAllEnvs()
})

describe.each(implementations)("%s: getToken", (_, jwt) => {
  let plain: string // salt = the plain cookie name
  let secure: string // salt = the __Secure- name
  beforeAll(async () => {
    plain = await jwt.encode({ token: PAYLOAD, secret: SECRET, salt: NAME })
    secure = await jwt.encode({ token: PAYLOAD, secret: SECRET, salt: SECURE_NAME })
  })

  describe("GET with a session cookie", () => {
    it("decodes the cookie authlib.session-token over http", async () => {
      const req = request({ cookie: `other=1; ${NAME}=${plain}` })
      expect(await jwt.getToken({ req, secret: SECRET })).toMatchObject(PAYLOAD)
    })

    it("reads __Secure-authlib.session-token with secureCookie: true, salted with that name", async () => {
      const req = request({ cookie: `${SECURE_NAME}=${secure}; ${NAME}=${plain}` })
      expect(await jwt.getToken({ req, secret: SECRET, secureCookie: true })).toMatchObject(PAYLOAD)
      const wrongSalt = request({ cookie: `${SECURE_NAME}=${plain}` })
      expect(await jwt.getToken({ req: wrongSalt, secret: SECRET, secureCookie: true })).toBeNull()
    })

    it("reassembles a chunked cookie in numeric order, ignoring cookies that only share the prefix", async () => {
      const big = await jwt.encode({ token: { ...PAYLOAD, blob: "x".repeat(9000) }, secret: SECRET, salt: NAME })
      const chunks = splitCookieValue(NAME, big)
      expect(chunks.length).toBeGreaterThanOrEqual(3)
      const noise = [`${NAME}-legacy=zzz`, `${NAME}.x=yyy`, `${NAME}.01=www`, `${NAME}s=vvv`]
      const cookie = [...noise, ...chunks.reverse().map((c) => `${c.name}=${c.value}`)].join("; ")
      const token = await jwt.getToken({ req: request({ cookie }), secret: SECRET })
      expect(token).toMatchObject({ ...PAYLOAD, blob: "x".repeat(9000) })
    })

    it("returns null when a chunk is missing", async () => {
      const big = await jwt.encode({ token: { blob: "y".repeat(9000) }, secret: SECRET, salt: NAME })
      const chunks = splitCookieValue(NAME, big).filter((c) => c.name !== `${NAME}.1`)
      const cookie = chunks.map((c) => `${c.name}=${c.value}`).join("; ")
      expect(await jwt.getToken({ req: request({ cookie }), secret: SECRET })).toBeNull()
    })

    it("returns the raw token with raw: true, without needing a secret", async () => {
      const req = request({ cookie: `${NAME}=${plain}` })
      expect(await jwt.getToken({ req, raw: true })).toBe(plain)
    })

    it("accepts a plain header record (Node style), case-insensitively and with repeated cookie headers", async () => {
      const headers = { Cookie: ["a=1", `${NAME}=${plain}`] }
      expect(await jwt.getToken({ req: { headers }, secret: SECRET })).toMatchObject(PAYLOAD)
      expect(await jwt.getToken({ req: { headers: { cookie: `${NAME}=${plain}` } }, secret: SECRET })).toMatchObject(
        PAYLOAD,
      )
    })

    it("returns null, never throws, for garbage cookies and bad percent-encoding", async () => {
      for (const cookie of [`${NAME}=%E0%A4%A`, `${NAME}=%`, `${NAME}="unterminated`, ";;==;", `${NAME}=a.b.c.d.e`]) {
        expect(await jwt.getToken({ req: { headers: { cookie } }, secret: SECRET })).toBeNull()
      }
    })

    it("takes the first of repeated cookie names, and treats prototype-like names as plain names", async () => {
      const cookie = `${NAME}=${plain}; ${NAME}=garbage; __proto__=x; constructor=y`
      expect(await jwt.getToken({ req: request({ cookie }), secret: SECRET })).toMatchObject(PAYLOAD)
      const proto = await jwt.encode({ token: { sub: "proto" }, secret: SECRET, salt: "__proto__" })
      const headers = { cookie: `constructor=1; __proto__=${proto}` }
      expect(await jwt.getToken({ req: { headers }, secret: SECRET, cookieName: "__proto__" })).toMatchObject({ sub: "proto" })
      expect(await jwt.getToken({ req: { headers }, secret: SECRET, cookieName: "toString" })).toBeNull()
    })

    it("ignores header values of the wrong type in a loosely typed record", async () => {
      const headers = { cookie: 42, authorization: { bearer: plain } } as never
      expect(await jwt.getToken({ req: { headers }, secret: SECRET })).toBeNull()
      const mixed = { cookie: [7, `${NAME}=${plain}`] } as never
      expect(await jwt.getToken({ req: { headers: mixed }, secret: SECRET })).toMatchObject(PAYLOAD)
    })

    it("resolves null without a cookie or Authorization header", async () => {
      expect(await jwt.getToken({ req: request({}), secret: SECRET })).toBeNull()
    })
  })

  describe("GET with Authorization: Bearer", () => {
    it("decodes a Bearer token, scheme case-insensitive and percent-decoded", async () => {
      for (const authorization of [`Bearer ${plain}`, `bearer ${plain}`, `Bearer ${encodeURIComponent(plain)}`]) {
        expect(await jwt.getToken({ req: request({ authorization }), secret: SECRET })).toMatchObject(PAYLOAD)
      }
    })

    it("returns null for malformed percent-encoding and ignores other schemes", async () => {
      expect(await jwt.getToken({ req: request({ authorization: "Bearer %E0%A4%A" }), secret: SECRET })).toBeNull()
      expect(await jwt.getToken({ req: request({ authorization: `Basic ${plain}` }), secret: SECRET })).toBeNull()
      expect(await jwt.getToken({ req: request({ authorization: `Bearer ${plain} extra` }), secret: SECRET })).toBeNull()
    })

    it("prefers the session cookie over the Bearer header", async () => {
      const other = await jwt.encode({ token: { sub: "bearer" }, secret: SECRET, salt: NAME })
      const req = request({ cookie: `${NAME}=${plain}`, authorization: `Bearer ${other}` })
      expect(await jwt.getToken({ req, secret: SECRET })).toMatchObject({ sub: PAYLOAD.sub })
    })

    it("returns a Bearer token raw", async () => {
      expect(await jwt.getToken({ req: request({ authorization: `Bearer ${plain}` }), raw: true })).toBe(plain)
    })
  })

  describe("secureCookie default", () => {
    const both = () => ({ cookie: `${NAME}=${plain}; ${SECURE_NAME}=${secure.replace(/.$/, "A")}` })

    it("is false when WEBAUTH_URL is unset and the request is http", async () => {
      vi.stubEnv("WEBAUTH_URL", undefined)
      expect(await jwt.getToken({ req: request(both()), secret: SECRET })).toMatchObject(PAYLOAD)
    })

    it("is false when WEBAUTH_URL starts with http://", async () => {
      vi.stubEnv("WEBAUTH_URL", "http://localhost:3000")
      expect(await jwt.getToken({ req: { headers: both() }, secret: SECRET })).toMatchObject(PAYLOAD)
    })

    it("is true when WEBAUTH_URL is https, even for a request object without URL", async () => {
      vi.stubEnv("WEBAUTH_URL", "https://app.example.com")
      const headers = { cookie: `${NAME}=${plain}; ${SECURE_NAME}=${secure}` }
      expect(await jwt.getToken({ req: { headers }, secret: SECRET })).toMatchObject(PAYLOAD)
      expect(await jwt.getToken({ req: { headers: { cookie: `${NAME}=${plain}` } }, secret: SECRET })).toBeNull()
    })

    it("is inferred true from an https request URL when WEBAUTH_URL is unset (the Auth.js pitfall)", async () => {
      vi.stubEnv("WEBAUTH_URL", undefined)
      const req = request({ cookie: `${SECURE_NAME}=${secure}` }, "https://app.example.com/api")
      expect(await jwt.getToken({ req, secret: SECRET })).toMatchObject(PAYLOAD)
    })

    it("yields to an explicit secureCookie: false", async () => {
      const req = request({ cookie: `${NAME}=${plain}` }, "https://app.example.com/api")
      expect(await jwt.getToken({ req, secret: SECRET, secureCookie: false })).toMatchObject(PAYLOAD)
    })
  })

  describe("options", () => {
    it("uses cookieName as given (no prefix added) and as the default salt", async () => {
      const token = await jwt.encode({ token: { sub: "custom" }, secret: SECRET, salt: "my.cookie" })
      const req = request({ cookie: `my.cookie=${token}` })
      expect(await jwt.getToken({ req, secret: SECRET, cookieName: "my.cookie", secureCookie: true })).toMatchObject({
        sub: "custom",
      })
    })

    it("passes token, secret and salt to a custom decode and returns its result", async () => {
      const calls: JWTDecodeParams[] = []
      const decode = (params: JWTDecodeParams) => {
        calls.push(params)
        return { sub: "custom-decode" }
      }
      const req = request({ cookie: `${NAME}=opaque` })
      const secrets = [SECRET, "older-secret"]
      expect(await jwt.getToken({ req, secret: secrets, decode, salt: "s" })).toEqual({ sub: "custom-decode" })
      expect(calls).toEqual([{ token: "opaque", secret: secrets, salt: "s" }])
    })

    it("sends a failed decode to logger.warn and an expired token to logger.debug, returning null", async () => {
      const logger = { warn: vi.fn(), debug: vi.fn(), error: vi.fn() }
      const req = request({ cookie: `${NAME}=${plain.slice(0, -2)}AA` })
      expect(await jwt.getToken({ req, secret: SECRET, logger })).toBeNull()
      expect(logger.warn).toHaveBeenCalledWith("JWTSessionError", expect.objectContaining({ code: "DECRYPTION_FAILED" }))
      const expired = await jwt.encode({ token: {}, secret: SECRET, salt: NAME, maxAge: -60 })
      expect(await jwt.getToken({ req: request({ cookie: `${NAME}=${expired}` }), secret: SECRET, logger })).toBeNull()
      expect(logger.debug).toHaveBeenCalledWith("JWTSessionError", expect.objectContaining({ code: "TOKEN_EXPIRED" }))
      expect(logger.error).not.toHaveBeenCalled()
    })

    it("survives a logger that throws", async () => {
      const logger = { warn: () => { throw new Error("broken logger") } }
      const req = request({ cookie: `${NAME}=garbage` })
      expect(await jwt.getToken({ req, secret: SECRET, logger })).toBeNull()
    })

    it("without secret, uses AUTH_SECRET from the environment (then AUTH_SECRET_1.._3, older secrets)", async () => {
      const req = request({ cookie: `${NAME}=${plain}` })
      vi.stubEnv("AUTH_SECRET", SECRET)
      expect(await jwt.getToken({ req })).toMatchObject(PAYLOAD)
      vi.stubEnv("AUTH_SECRET", "a-newer-secret-that-did-not-encrypt-it-0123456789")
      expect(await jwt.getToken({ req })).toBeNull()
      vi.stubEnv("AUTH_SECRET_1", SECRET)
      expect(await jwt.getToken({ req })).toMatchObject(PAYLOAD)
      // An explicit secret wins over the environment.
      expect(await jwt.getToken({ req, secret: "another-secret-another-secret-0123456789" })).toBeNull()
      vi.unstubAllEnvs()
    })

    it("throws MissingSecret when a token is present but no secret is given (none in the environment either)", async () => {
      vi.stubEnv("AUTH_SECRET", "")
      const req = request({ cookie: `${NAME}=${plain}` })
      await expect(jwt.getToken({ req })).rejects.toBeInstanceOf(MissingSecret)
      await expect(jwt.getToken({ req })).rejects.toThrow('"secret" of getToken must be a non-empty string')
      expect(await jwt.getToken({ req: request({}) })).toBeNull()
      vi.unstubAllEnvs()
    })

    it("throws a TypeError without req", async () => {
      await expect(jwt.getToken({} as never)).rejects.toThrow('"req" of getToken must have headers')
    })
  })
})
