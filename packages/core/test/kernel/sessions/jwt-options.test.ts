/**
 * The config's `jwt` options (spec 2.2 `jwt?: Partial<JWTOptions>`, 2.4, 8) through `Auth()`:
 *
 * - `jwt.encode` is what writes the session cookie (sign-in, and every re-issue on a read);
 * - `jwt.decode` is what reads it on GET /session: it alone decides, both ways, and a throw reads as
 *   signed out (cookie cleared, logged, never a 500);
 * - both get the secrets, the cookie name as salt and `jwt.maxAge`, as Auth.js passes them
 *   (`{ ...jwt, token, salt }`);
 * - `jwt.maxAge` is the token's lifetime (`exp - iat`), independent of `session.maxAge`, which
 *   stays the cookie's lifetime (README "Cookies"; Auth.js sets the cookie from `session.maxAge`).
 */
import { describe, expect, it } from "vitest"
import { decode as defaultDecode, encode as defaultEncode, type JWT, type JWTDecodeParams, type JWTEncodeParams } from "@authlib/jwt"
import { Client, config, recordingLogger, SECRET, setCookies, type ParsedCookie } from "../../helpers/harness.js"

const COOKIE = "authlib.session-token"
const OLD_SECRET = "an-older-secret-0123456789-abcdefghijklmnopqrstuv"
const DAY = 24 * 60 * 60
/** The mark the custom encoder puts in front of the default token: the default decoder refuses it. */
const MARK = "custom1."

/** A custom codec around `@authlib/jwt` that records every call and the token it wrote. */
function markingCodec() {
  const encodeCalls: JWTEncodeParams[] = []
  const decodeCalls: JWTDecodeParams[] = []
  const written: string[] = []
  const encode = async (params: JWTEncodeParams): Promise<string> => {
    encodeCalls.push(params)
    const value = `${MARK}${await defaultEncode(params)}`
    written.push(value)
    return value
  }
  const decode = async (params: JWTDecodeParams): Promise<JWT | null> => {
    decodeCalls.push(params)
    if (!params.token?.startsWith(MARK)) return null
    return defaultDecode({ ...params, token: params.token.slice(MARK.length) })
  }
  return { encode, decode, encodeCalls, decodeCalls, written }
}

function cookieOf(res: Response, name = COOKIE): ParsedCookie | undefined {
  return setCookies(res).find((c) => c.name === name)
}

function isCleared(cookie: ParsedCookie | undefined): boolean {
  return cookie !== undefined && (cookie.maxAge === 0 || (cookie.expires !== undefined && cookie.expires.getTime() <= Date.now()))
}

/** Seconds from now until the cookie expires. */
function secondsLeft(cookie: ParsedCookie): number {
  return (cookie.expires!.getTime() - Date.now()) / 1000
}

/** A token the default decoder accepts, for the given user. */
function plainToken(sub = "user-1", email = "alice@example.com"): Promise<string> {
  return defaultEncode({ token: { sub, email, name: "Alice" }, secret: SECRET, salt: COOKIE })
}

describe("jwt.encode", () => {
  it("writes the session cookie at sign-in, given the secrets, the cookie name as salt and maxAge", async () => {
    const codec = markingCodec()
    const client = new Client(config({ secret: [SECRET, OLD_SECRET], jwt: { encode: codec.encode, decode: codec.decode } }))
    const res = await client.signIn()
    expect(res.status).toBe(302)
    expect(codec.encodeCalls).toHaveLength(1)
    const [params] = codec.encodeCalls
    expect(params!.secret).toEqual([SECRET, OLD_SECRET])
    expect(params!.salt).toBe(COOKIE)
    expect(params!.maxAge).toBe(30 * DAY)
    expect(params!.token).toMatchObject({ sub: "user-1", email: "alice@example.com", name: "Alice" })
    // The cookie holds exactly what the custom encoder returned, which the default decoder refuses.
    expect(cookieOf(res)?.value).toBe(codec.written[0])
    expect(client.jar.get(COOKIE)).toBe(codec.written[0])
    await expect(defaultDecode({ token: client.jar.get(COOKIE)!, secret: SECRET, salt: COOKIE })).rejects.toThrow()
  })

  it("also writes the re-issued cookie on a read (updateAge 0)", async () => {
    const codec = markingCodec()
    const client = new Client(config({ session: { updateAge: 0 }, jwt: { encode: codec.encode, decode: codec.decode } }))
    await client.signIn()
    const res = await client.request("/auth/session")
    expect(codec.encodeCalls).toHaveLength(2)
    expect(cookieOf(res)?.value).toBe(codec.written[1])
    expect(codec.written[1]).not.toBe(codec.written[0])
  })
})

describe("the session cookie's value on the wire", () => {
  it("is the default encoder's token as it is (base64url and dots)", async () => {
    const client = new Client(config())
    const res = await client.signIn()
    const header = res.headers.getSetCookie().find((c) => c.startsWith(`${COOKIE}=`))!
    const value = header.slice(COOKIE.length + 1, header.indexOf(";"))
    expect(value).toMatch(/^[A-Za-z0-9_-]+\.\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/)
    await expect(defaultDecode({ token: value, secret: SECRET, salt: COOKIE })).resolves.toMatchObject({ sub: "user-1" })
  })

  it("is percent-encoded when a custom encoder returns characters outside cookie-octets, and reads back whole", async () => {
    // A token with a space, a semicolon, a comma and a quote: sent raw, it would end the cookie and start an attribute.
    const PREFIX = 'x y;Domain=evil.example,"'
    const encode = async (params: JWTEncodeParams) => `${PREFIX}${await defaultEncode(params)}`
    const decode = async (params: JWTDecodeParams) => (params.token?.startsWith(PREFIX) ? defaultDecode({ ...params, token: params.token.slice(PREFIX.length) }) : null)
    const client = new Client(config({ jwt: { encode, decode } }))
    const res = await client.signIn()
    const header = res.headers.getSetCookie().find((c) => c.startsWith(`${COOKIE}=`))!
    expect(header.startsWith(`${COOKIE}=${encodeURIComponent(PREFIX)}`)).toBe(true)
    expect(header).not.toContain("Domain=evil")
    expect(await client.session()).toMatchObject({ user: { name: "Alice", email: "alice@example.com" } })
  })
})

describe("jwt.decode", () => {
  it("reads the cookie on GET /session, given the cookie value, the secrets, the cookie name as salt and maxAge", async () => {
    const codec = markingCodec()
    const client = new Client(config({ secret: [SECRET, OLD_SECRET], jwt: { maxAge: 2 * DAY, encode: codec.encode, decode: codec.decode } }))
    await client.signIn()
    const cookie = client.jar.get(COOKIE)!
    // A cookie only the custom decoder understands reads as a session: the custom decoder read it.
    expect(await client.session()).toMatchObject({ user: { name: "Alice", email: "alice@example.com" } })
    expect(codec.decodeCalls).toHaveLength(1)
    const [params] = codec.decodeCalls
    expect(params!.token).toBe(cookie)
    expect(params!.secret).toEqual([SECRET, OLD_SECRET])
    expect(params!.salt).toBe(COOKIE)
    expect((params as JWTDecodeParams & { maxAge?: number }).maxAge).toBe(2 * DAY)
  })

  it("decides alone: a cookie the default decoder accepts is refused (and cleared) when the custom decoder refuses it", async () => {
    const token = await plainToken()
    // The same cookie under the default decoder: a session.
    const control = new Client(config())
    control.jar.set(COOKIE, token)
    expect(await control.session()).toMatchObject({ user: { email: "alice@example.com" } })

    const seen: Array<string | undefined> = []
    const client = new Client(config({ jwt: { decode: async ({ token }) => (seen.push(token), null) } }))
    client.jar.set(COOKIE, token)
    const res = await client.request("/auth/session")
    expect(res.status).toBe(200)
    expect(await res.json()).toBeNull()
    expect(seen).toEqual([token])
    expect(isCleared(cookieOf(res))).toBe(true)
    expect(client.jar.has(COOKIE)).toBe(false)
  })

  it("decides alone the other way: a cookie the default decoder refuses is a session when the custom decoder accepts it", async () => {
    const value = "not-a-jwe-at-all"
    const control = new Client(config())
    control.jar.set(COOKIE, value)
    expect(await control.session()).toBeNull()

    const iat = Math.floor(Date.now() / 1000)
    const accepted: JWT = { sub: "user-9", name: "Mallory", email: "m@example.com", iat, exp: iat + 3600 }
    const client = new Client(config({ jwt: { decode: async ({ token }) => (token === value ? accepted : null) } }))
    client.jar.set(COOKIE, value)
    const res = await client.request("/auth/session")
    expect(await res.json()).toEqual({ user: { name: "Mallory", email: "m@example.com" }, expires: new Date((iat + 3600) * 1000).toISOString() })
    // Read as it is (fresh, before updateAge): nothing re-issued, the cookie stays.
    expect(cookieOf(res)).toBeUndefined()
    expect(client.jar.get(COOKIE)).toBe(value)
  })

  it("a custom decode that throws reads as signed out: 200 null, the cookie cleared, the error logged", async () => {
    const { logger, entries } = recordingLogger()
    const failure = new Error("decoder exploded")
    const client = new Client(config({ logger, jwt: { decode: async () => { throw failure } } }))
    client.jar.set(COOKIE, await plainToken())
    const res = await client.request("/auth/session")
    expect(res.status).toBe(200)
    expect(await res.json()).toBeNull()
    expect(isCleared(cookieOf(res))).toBe(true)
    expect(client.jar.has(COOKIE)).toBe(false)
    const logged = entries.filter((e) => e.message.includes(failure))
    expect(logged).toHaveLength(1)
    expect(logged[0]).toMatchObject({ code: "session-token-invalid" })
    // Signed out, not broken: the next request carries no cookie and is a plain null.
    const next = await client.request("/auth/session")
    expect(next.status).toBe(200)
    expect(await next.json()).toBeNull()
    expect(setCookies(next)).toEqual([])
  })
})

describe("jwt.maxAge", () => {
  it("is the token's lifetime (exp - iat) and is what encode gets; the cookie keeps session.maxAge", async () => {
    const codec = markingCodec()
    const client = new Client(config({ jwt: { maxAge: 3600, encode: codec.encode, decode: codec.decode }, session: { maxAge: 7 * DAY } }))
    const res = await client.signIn()
    expect(codec.encodeCalls[0]!.maxAge).toBe(3600)
    const payload = await defaultDecode({ token: client.jar.get(COOKIE)!.slice(MARK.length), secret: SECRET, salt: COOKIE })
    expect(payload!.exp! - payload!.iat!).toBe(3600)
    const left = secondsLeft(cookieOf(res)!)
    expect(left).toBeGreaterThan(7 * DAY - 60)
    expect(left).toBeLessThanOrEqual(7 * DAY)
    // The session reports the token's end.
    const session = (await client.session()) as { expires: string }
    expect(session.expires).toBe(new Date(payload!.exp! * 1000).toISOString())
  })

  it("is independent of session.maxAge both ways, with the default encoder", async () => {
    const longToken = new Client(config({ jwt: { maxAge: 10 * DAY }, session: { maxAge: 3600 } }))
    const res = await longToken.signIn()
    const payload = await defaultDecode({ token: longToken.jar.get(COOKIE)!, secret: SECRET, salt: COOKIE })
    expect(payload!.exp! - payload!.iat!).toBe(10 * DAY)
    const left = secondsLeft(cookieOf(res)!)
    expect(left).toBeGreaterThan(3600 - 60)
    expect(left).toBeLessThanOrEqual(3600)

    // Without jwt.maxAge the token lives as long as the session (spec 2.4 default, as Auth.js).
    const unset = new Client(config({ session: { maxAge: 7200 } }))
    await unset.signIn()
    const plain = await defaultDecode({ token: unset.jar.get(COOKIE)!, secret: SECRET, salt: COOKIE })
    expect(plain!.exp! - plain!.iat!).toBe(7200)
  })

  it("also sets the lifetime of a token re-issued on a read", async () => {
    const client = new Client(config({ jwt: { maxAge: 900 }, session: { maxAge: DAY, updateAge: 0 } }))
    await client.signIn()
    const res = await client.request("/auth/session")
    expect(cookieOf(res)).toBeDefined()
    const payload = await defaultDecode({ token: client.jar.get(COOKIE)!, secret: SECRET, salt: COOKIE })
    expect(payload!.exp! - payload!.iat!).toBe(900)
  })
})
