import { describe, expect, it } from "vitest"
import { Client, config, ORIGIN, setCookies } from "../../helpers/harness.js"
import { memoryAdapter } from "../../helpers/memory-adapter.js"
import { skipCSRFCheck } from "../../../src/index.js"

const signinError = `${ORIGIN}/auth/signin?error=MissingCSRF`

describe("GET /auth/csrf", () => {
  it("mints a token and a cookie holding token|hash, HttpOnly, SameSite=Lax, Path=/", async () => {
    const client = new Client(config())
    const res = await client.request("/auth/csrf")
    const { csrfToken } = (await res.json()) as { csrfToken: string }
    expect(csrfToken).toMatch(/^[A-Za-z0-9_-]{43}$/)
    const [cookie] = setCookies(res)
    expect(cookie).toMatchObject({ name: "authlib.csrf-token", httpOnly: true, sameSite: "Lax", path: "/" })
    expect(cookie!.value.split("|")[0]).toBe(csrfToken)
  })

  it("returns the same token without a new cookie while the cookie verifies", async () => {
    const client = new Client(config())
    const first = await client.csrfToken()
    const res = await client.request("/auth/csrf")
    expect(((await res.json()) as { csrfToken: string }).csrfToken).toBe(first)
    expect(res.headers.get("set-cookie")).toBeNull()
  })

  it("replaces a forged cookie (hash not made with the secret)", async () => {
    const client = new Client(config())
    const res = await client.request("/auth/csrf", { headers: { cookie: "authlib.csrf-token=attacker|deadbeef" } })
    const { csrfToken } = (await res.json()) as { csrfToken: string }
    expect(csrfToken).not.toBe("attacker")
    expect(setCookies(res)[0]!.name).toBe("authlib.csrf-token")
  })

  it("accepts a cookie minted under a rotated-out secret that is still listed", async () => {
    const old = new Client(config({ secret: "old-secret-0123456789-0123456789-0123456789" }))
    const token = await old.csrfToken()
    const rotated = new Client(config({ secret: ["new-secret-0123456789-0123456789-0123456789", "old-secret-0123456789-0123456789-0123456789"] }))
    for (const [k, v] of old.jar) rotated.jar.set(k, v)
    expect(await rotated.csrfToken()).toBe(token)
  })
})

describe("state-changing POSTs require the CSRF token and the same origin", () => {
  const cases: Array<[string, (c: Client, token: string) => Promise<Response>]> = [
    ["missing body token", (c) => c.request("/auth/callback/credentials", { form: { username: "alice", password: "wonderland" } })],
    ["wrong body token", (c) => c.request("/auth/callback/credentials", { form: { csrfToken: "nope", username: "alice", password: "wonderland" } })],
    ["no CSRF cookie", (c, t) => c.request("/auth/callback/credentials", { noJar: true, form: { csrfToken: t, username: "alice", password: "wonderland" } })],
    ["cross-origin Origin", (c, t) => c.request("/auth/callback/credentials", { headers: { origin: "https://evil.example" }, form: { csrfToken: t, username: "alice", password: "wonderland" } })],
    ["Origin: null", (c, t) => c.request("/auth/callback/credentials", { headers: { origin: "null" }, form: { csrfToken: t, username: "alice", password: "wonderland" } })],
    ["Origin: null from another site", (c, t) => c.request("/auth/callback/credentials", { headers: { origin: "null", "sec-fetch-site": "cross-site" }, form: { csrfToken: t, username: "alice", password: "wonderland" } })],
    ["look-alike Origin", (c, t) => c.request("/auth/callback/credentials", { headers: { origin: "http://localhost:3000.evil.example" }, form: { csrfToken: t, username: "alice", password: "wonderland" } })],
    ["Sec-Fetch-Site: cross-site without Origin", (c, t) => c.request("/auth/callback/credentials", { headers: { "x-no-origin": "1", "sec-fetch-site": "cross-site" }, form: { csrfToken: t, username: "alice", password: "wonderland" } })],
    ["Sec-Fetch-Site: same-site without Origin", (c, t) => c.request("/auth/callback/credentials", { headers: { "x-no-origin": "1", "sec-fetch-site": "same-site" }, form: { csrfToken: t, username: "alice", password: "wonderland" } })],
  ]
  for (const [name, send] of cases) {
    it(`POST /auth/callback/credentials with ${name}: back to sign-in with MissingCSRF, no session`, async () => {
      const adapter = memoryAdapter()
      const client = new Client(config({ adapter }))
      const token = await client.csrfToken()
      const res = await send(client, token)
      expect(res.status).toBe(302)
      expect(res.headers.get("location")).toBe(signinError)
      expect(setCookies(res).some((c) => c.name.includes("session-token"))).toBe(false)
      expect(adapter.writes()).toEqual([])
    })
  }

  it("Origin: null with Sec-Fetch-Site: same-origin (a form under a no-referrer policy) signs in", async () => {
    const client = new Client(config())
    const token = await client.csrfToken()
    const res = await client.request("/auth/callback/credentials", { headers: { origin: "null", "sec-fetch-site": "same-origin" }, form: { csrfToken: token, username: "alice", password: "wonderland" } })
    expect(res.status).toBe(302)
    expect(res.headers.get("location")).not.toBe(signinError)
    expect(setCookies(res).some((c) => c.name.includes("session-token"))).toBe(true)
  })

  it("a token from another browser's cookie does not pass (double-submit binds the pair)", async () => {
    const victim = new Client(config())
    const attacker = new Client(config())
    const attackerToken = await attacker.csrfToken()
    await victim.csrfToken()
    const res = await victim.request("/auth/signout", { form: { csrfToken: attackerToken } })
    expect(res.headers.get("location")).toBe(signinError)
  })

  it("POST /auth/signout without a token keeps the session", async () => {
    const client = new Client(config())
    await client.signIn()
    const res = await client.request("/auth/signout", { form: {} })
    expect(res.headers.get("location")).toBe(signinError)
    expect(await client.session()).not.toBeNull()
  })

  it("POST /auth/session without a token answers 403 JSON and does not update", async () => {
    const client = new Client(config())
    await client.signIn()
    const res = await client.request("/auth/session", { json: { data: { name: "Mallory" } } })
    expect(res.status).toBe(403)
    expect(await res.json()).toEqual({ error: "MissingCSRF" })
  })

  it("a non-browser client without Origin or Sec-Fetch-Site passes with the token alone", async () => {
    const client = new Client(config())
    const csrfToken = await client.csrfToken()
    const res = await client.request("/auth/callback/credentials", { headers: { "x-no-origin": "1" }, form: { csrfToken, username: "alice", password: "wonderland" } })
    expect(res.headers.get("location")).toBe(`${ORIGIN}/`)
  })

  it("Sec-Fetch-Site: same-origin passes", async () => {
    const client = new Client(config())
    const csrfToken = await client.csrfToken()
    const res = await client.request("/auth/callback/credentials", { headers: { "x-no-origin": "1", "sec-fetch-site": "same-origin" }, form: { csrfToken, username: "alice", password: "wonderland" } })
    expect(setCookies(res).some((c) => c.name === "authlib.session-token")).toBe(true)
  })

  it("skipCSRFCheck (for bindings with their own protection) turns both checks off, and warns", async () => {
    const logs: string[] = []
    const client = new Client(config({ skipCSRFCheck, logger: { warn: (code) => void logs.push(code), error: () => {}, debug: () => {} } }))
    const res = await client.request("/auth/callback/credentials", { headers: { origin: "https://evil.example" }, form: { username: "alice", password: "wonderland" } })
    expect(setCookies(res).some((c) => c.name === "authlib.session-token")).toBe(true)
    expect(logs).toContain("csrf-disabled")
  })
})
