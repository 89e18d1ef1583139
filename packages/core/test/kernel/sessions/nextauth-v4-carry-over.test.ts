/**
 * Moving from NextAuth.js v4 signs no one out (JWT strategy): a session cookie v4 wrote (sealed by
 * `next-auth@4.24`'s own `encode`, chunked by its own cookie store) is read with `NEXTAUTH_SECRET`
 * kept as `AUTH_SECRET`, re-issued under authlib's name, and the v4 cookies cleared, as v5's are;
 * the same rules against planted cookies on https; a v4 token that does not decode is no session
 * (200, cleared, logged), never an error.
 */
import { decode } from "@authlib/jwt"
import { EncryptJWT } from "jose"
import { describe, expect, it } from "vitest"
import { alice, Client, config, ORIGIN, recordingLogger, SECRET, setCookies } from "../../helpers/harness.js"
import { v4Cookies, v4Token } from "../../helpers/next-auth-v4.js"

const payload = { name: alice.name, email: alice.email, picture: alice.image, sub: alice.id }
const HTTPS = "https://app.example.com"
const OLD_SECRET = "the-nextauth-secret-before-rotation-0123456789"

function clientFor(origin: string, over: Parameters<typeof config>[0] = {}) {
  return new Client(config(origin.startsWith("https") ? { url: origin, ...over } : over), origin)
}

describe("NextAuth.js v4 JWT sessions carry over", () => {
  for (const [name, origin] of [["next-auth.session-token", ORIGIN], ["__Secure-next-auth.session-token", HTTPS]] as const) {
    it(`${name}: the session is read, re-issued as ours, and the v4 cookie cleared`, async () => {
      const client = clientFor(origin)
      client.jar.set(name, await v4Token(payload, SECRET))
      const res = await client.request("/auth/session")
      expect(res.status).toBe(200)
      expect(await res.json()).toMatchObject({ user: { name: alice.name, email: alice.email, image: alice.image } })
      const cookies = setCookies(res)
      const ours = origin.startsWith("https") ? "__Secure-authlib.session-token" : "authlib.session-token"
      const reissued = cookies.find((c) => c.name === ours)?.value
      // Re-issued in authlib's own format (salt: our cookie's name), with v4's claims.
      expect(await decode({ token: reissued, secret: SECRET, salt: ours })).toMatchObject({ sub: alice.id, name: alice.name, email: alice.email, picture: alice.image })
      expect(cookies.find((c) => c.name === name)).toMatchObject({ value: "", maxAge: 0 })
      expect([...client.jar.keys()]).toEqual([ours])
      expect(await client.session()).toMatchObject({ user: { email: alice.email } })
    })
  }

  it("a chunked v4 cookie (.0, .1, as v4's cookie store wrote it) is joined and every chunk cleared", async () => {
    const name = "__Secure-next-auth.session-token"
    const chunks = v4Cookies(name, await v4Token({ ...payload, extra: "x".repeat(4000) }, SECRET))
    expect(chunks.map((c) => c.name)).toEqual([`${name}.0`, `${name}.1`])
    const client = clientFor(HTTPS)
    for (const chunk of chunks) client.jar.set(chunk.name, chunk.value)
    const res = await client.request("/auth/session")
    expect(await res.json()).toMatchObject({ user: { email: alice.email } })
    const cleared = setCookies(res).filter((c) => c.name.startsWith(name) && c.maxAge === 0).map((c) => c.name).sort()
    expect(cleared).toEqual([name, `${name}.0`, `${name}.1`])
    // Ours is as large, so chunked too: the browser keeps authlib's cookies only.
    expect([...client.jar.keys()].every((key) => key.startsWith("__Secure-authlib.session-token"))).toBe(true)
    expect(await client.session()).toMatchObject({ user: { email: alice.email } })
  })

  it("a token of the previous NEXTAUTH_SECRET reads while that secret is still in AUTH_SECRET's rotation", async () => {
    const client = clientFor(ORIGIN, { secret: [SECRET, OLD_SECRET] })
    client.jar.set("next-auth.session-token", await v4Token(payload, OLD_SECRET))
    expect(await client.session()).toMatchObject({ user: { email: alice.email } })
  })

  it("sign-out clears the v4 cookie too", async () => {
    const client = clientFor(ORIGIN)
    client.jar.set("next-auth.session-token", await v4Token(payload, SECRET))
    const res = await client.post("/auth/signout")
    expect(setCookies(res).find((c) => c.name === "next-auth.session-token")).toMatchObject({ maxAge: 0 })
    expect(await client.session()).toBeNull()
  })

  it("an early Auth.js v5 beta token of the same shape (A256GCM, no kid, v5's key) in a next-auth cookie still reads", async () => {
    const name = "next-auth.session-token"
    const ikm = await crypto.subtle.importKey("raw", new TextEncoder().encode(SECRET), "HKDF", false, ["deriveBits"])
    const info = new TextEncoder().encode(`Auth.js Generated Encryption Key (${name})`)
    const key = new Uint8Array(await crypto.subtle.deriveBits({ name: "HKDF", hash: "SHA-256", salt: new TextEncoder().encode(name), info }, ikm, 256))
    const token = await new EncryptJWT(payload).setProtectedHeader({ alg: "dir", enc: "A256GCM" }).setIssuedAt().setExpirationTime("1h").encrypt(key)
    expect(token.split(".")[0]).toBe((await v4Token({}, SECRET)).split(".")[0])
    const client = clientFor(ORIGIN)
    client.jar.set(name, token)
    expect(await client.session()).toMatchObject({ user: { email: alice.email } })
  })
})

describe("v4 cookies that are not carried over", () => {
  async function refused(token: string, name = "next-auth.session-token", origin: string = ORIGIN) {
    const { logger, entries } = recordingLogger()
    const client = clientFor(origin, { logger })
    client.jar.set(name, token)
    const res = await client.request("/auth/session")
    return { res, body: await res.json(), entries, cookies: setCookies(res) }
  }

  it("an expired, a tampered and a wrong-secret v4 token read as signed out: 200, cleared, logged", async () => {
    const expired = await v4Token(payload, SECRET, -60)
    const good = (await v4Token(payload, SECRET)).split(".")
    const tampered = [...good.slice(0, 3), `${good[3]!.startsWith("A") ? "B" : "A"}${good[3]!.slice(1)}`, good[4]].join(".")
    const otherSecret = await v4Token(payload, OLD_SECRET)
    for (const [token, code] of [[expired, "TOKEN_EXPIRED"], [tampered, "DECRYPTION_FAILED"], [otherSecret, "DECRYPTION_FAILED"]] as const) {
      const { res, body, entries, cookies } = await refused(token)
      expect(res.status).toBe(200)
      expect(body).toBeNull()
      expect(cookies.find((c) => c.name === "next-auth.session-token")).toMatchObject({ maxAge: 0 })
      expect(cookies.filter((c) => c.name === "authlib.session-token" && c.value !== "")).toEqual([])
      expect(entries.find((e) => e.code === "session-token-invalid")?.message[0]).toMatchObject({ type: "JWTSessionError", code })
    }
  })

  it("on a secure origin a plain next-auth.session-token (plantable over http or from a sibling subdomain) is ignored", async () => {
    const { body, cookies } = await refused(await v4Token(payload, SECRET), "next-auth.session-token", HTTPS)
    expect(body).toBeNull()
    expect(cookies).toEqual([])
  })

  it("a v4 token under an authjs.* name is no session: only the next-auth names are v4's", async () => {
    const { body } = await refused(await v4Token(payload, SECRET), "authjs.session-token")
    expect(body).toBeNull()
  })

  it("session.acceptAuthJsSessions: false ignores v4 cookies", async () => {
    const client = clientFor(ORIGIN, { session: { acceptAuthJsSessions: false } })
    client.jar.set("next-auth.session-token", await v4Token(payload, SECRET))
    const res = await client.request("/auth/session")
    expect(await res.json()).toBeNull()
    expect(setCookies(res)).toEqual([])
  })

  it("a deleted user's v4 cookie is no session", async () => {
    const { memoryAdapter } = await import("../../helpers/memory-adapter.js")
    const adapter = memoryAdapter()
    const client = clientFor(ORIGIN, { adapter, session: { strategy: "jwt" } })
    client.jar.set("next-auth.session-token", await v4Token(payload, SECRET))
    expect(await client.session()).toBeNull()
  })
})
