/**
 * Moving from Auth.js signs no one out (JWT strategy): a session cookie Auth.js v5 wrote (encoded
 * here by `@auth/core` itself) is read with the same secret and its own name as salt, re-issued
 * under authlib's name, and the Auth.js cookie cleared; sign-out ends it too; `false` ignores it.
 */
import { encode as authjsEncode } from "@auth/core/jwt"
import { describe, expect, it } from "vitest"
import { alice, Client, config, ORIGIN, SECRET, setCookies } from "../../helpers/harness.js"

const payload = { name: alice.name, email: alice.email, picture: alice.image, sub: alice.id }

async function authjsCookie(name: string, token = payload): Promise<string> {
  return authjsEncode({ token, secret: SECRET, salt: name })
}

describe("Auth.js v5 sessions carry over", () => {
  for (const [name, origin] of [["authjs.session-token", ORIGIN], ["__Secure-authjs.session-token", "https://app.example.com"], ["next-auth.session-token", ORIGIN]] as const) {
    it(`${name}: the session is read, re-issued as ours, and the Auth.js cookie cleared`, async () => {
      const client = new Client(config(origin.startsWith("https") ? { url: origin } : {}), origin)
      client.jar.set(name, await authjsCookie(name))
      const res = await client.request("/auth/session")
      expect(await res.json()).toMatchObject({ user: { name: alice.name, email: alice.email, image: alice.image } })
      const cookies = setCookies(res)
      const ours = origin.startsWith("https") ? "__Secure-authlib.session-token" : "authlib.session-token"
      expect(cookies.find((c) => c.name === ours)?.value).toBeTruthy()
      expect(cookies.find((c) => c.name === name)).toMatchObject({ value: "", maxAge: 0 })
      // The next request runs on our cookie alone.
      expect([...client.jar.keys()]).toEqual([ours])
      expect(await client.session()).toMatchObject({ user: { email: alice.email } })
    })
  }

  it("a chunked Auth.js cookie is joined and every chunk cleared", async () => {
    const big = { ...payload, extra: "x".repeat(5000) }
    const value = await authjsCookie("authjs.session-token", big)
    const client = new Client(config())
    client.jar.set("authjs.session-token.0", value.slice(0, 3000))
    client.jar.set("authjs.session-token.1", value.slice(3000))
    const res = await client.request("/auth/session")
    expect(await res.json()).toMatchObject({ user: { email: alice.email } })
    const cleared = setCookies(res).filter((c) => c.name.startsWith("authjs.") && c.maxAge === 0).map((c) => c.name).sort()
    expect(cleared).toEqual(["authjs.session-token", "authjs.session-token.0", "authjs.session-token.1"])
  })

  it("a tampered Auth.js cookie reads as signed out and is cleared", async () => {
    const client = new Client(config())
    const value = await authjsCookie("authjs.session-token")
    client.jar.set("authjs.session-token", `${value.slice(0, -2)}AA`)
    const res = await client.request("/auth/session")
    expect(await res.json()).toBeNull()
    expect(setCookies(res).find((c) => c.name === "authjs.session-token")).toMatchObject({ maxAge: 0 })
  })

  it("a token sealed for another cookie name (salt) does not decode", async () => {
    const client = new Client(config())
    client.jar.set("authjs.session-token", await authjsCookie("something-else"))
    expect(await (await client.request("/auth/session")).json()).toBeNull()
  })

  it("sign-out clears the Auth.js cookie too", async () => {
    const client = new Client(config())
    client.jar.set("authjs.session-token", await authjsCookie("authjs.session-token"))
    const res = await client.post("/auth/signout")
    expect(setCookies(res).find((c) => c.name === "authjs.session-token")).toMatchObject({ maxAge: 0 })
    expect(await client.session()).toBeNull()
  })

  it("session.acceptAuthJsSessions: false ignores Auth.js cookies", async () => {
    const client = new Client(config({ session: { acceptAuthJsSessions: false } }))
    client.jar.set("authjs.session-token", await authjsCookie("authjs.session-token"))
    const res = await client.request("/auth/session")
    expect(await res.json()).toBeNull()
    expect(setCookies(res)).toEqual([])
  })
})

describe("signing in with an Auth.js cookie still in the browser", () => {
  it("the new session is ours and the Auth.js cookie is cleared", async () => {
    const client = new Client(config())
    client.jar.set("authjs.session-token", await authjsCookie("authjs.session-token", { ...payload, name: "Someone Else" }))
    const res = await client.signIn()
    expect(setCookies(res).find((c) => c.name === "authjs.session-token")).toMatchObject({ maxAge: 0 })
    expect([...client.jar.keys()]).toEqual(["authlib.csrf-token", "authlib.device-mark", "authlib.session-token"])
    expect(await client.session()).toMatchObject({ user: { name: alice.name } })
  })
})

describe("what is not carried over", () => {
  it("on a secure origin a plain authjs.session-token (plantable over http or from a sibling subdomain) is ignored", async () => {
    const origin = "https://app.example.com"
    const client = new Client(config({ url: origin }), origin)
    client.jar.set("authjs.session-token", await authjsCookie("authjs.session-token"))
    const res = await client.request("/auth/session")
    expect(await res.json()).toBeNull()
    expect(setCookies(res)).toEqual([])
  })

  it("a deleted user's Auth.js cookie is no session: not re-issued as a fresh sliding session of ours", async () => {
    const { memoryAdapter } = await import("../../helpers/memory-adapter.js")
    for (const withEpochs of [true, false]) {
      const adapter = memoryAdapter()
      if (!withEpochs) Object.assign(adapter, { getUserSessionEpoch: undefined, incrementUserSessionEpoch: undefined })
      const cfg = config({ adapter, session: { strategy: "jwt" } })
      const client = new Client(cfg)
      client.jar.set("authjs.session-token", await authjsCookie("authjs.session-token"))
      const res = await client.request("/auth/session")
      expect(await res.json()).toBeNull()
      expect(setCookies(res).filter((c) => c.name === "authlib.session-token" && c.value !== "")).toEqual([])
      // The same cookie while the user is stored carries over.
      adapter.users.set(alice.id!, { id: alice.id!, name: alice.name!, email: alice.email!, emailVerified: null })
      const again = new Client(cfg)
      again.jar.set("authjs.session-token", await authjsCookie("authjs.session-token"))
      expect(await again.session()).toMatchObject({ user: { email: alice.email } })
    }
  })
})
