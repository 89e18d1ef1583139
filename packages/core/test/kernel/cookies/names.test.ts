import { describe, expect, it } from "vitest"
import { Client, config, setCookies } from "../../helpers/harness.js"
import { defaultCookies } from "../../../src/internal.js"

describe("cookie names and attributes", () => {
  it("http: plain names, HttpOnly, SameSite=Lax, Path=/, not Secure", async () => {
    const client = new Client(config())
    const res = await client.signIn()
    const session = setCookies(res).find((c) => c.name === "authlib.session-token")!
    expect(session).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/" })
    expect(session.secure).toBeUndefined()
    expect(session.expires!.getTime()).toBeGreaterThan(Date.now() + 29 * 86400_000)
    expect(client.jar.has("authlib.csrf-token")).toBe(true)
  })

  it("https: __Secure- session cookie, __Host- CSRF cookie, Secure", async () => {
    const client = new Client(config(), "https://app.example")
    const res = await client.signIn()
    const names = setCookies(res).map((c) => c.name)
    expect(names).toContain("__Secure-authlib.session-token")
    expect(client.jar.has("__Host-authlib.csrf-token")).toBe(true)
    for (const c of setCookies(res)) expect(c.secure).toBe(true)
    const csrf = setCookies(await new Client(config(), "https://app.example").request("/auth/csrf"))[0]!
    expect(csrf).toMatchObject({ name: "__Host-authlib.csrf-token", path: "/", secure: true })
    expect(csrf.domain).toBeUndefined()
  })

  it("useSecureCookies overrides the scheme", async () => {
    const res = await new Client(config({ useSecureCookies: true })).request("/auth/csrf")
    expect(setCookies(res)[0]).toMatchObject({ name: "__Host-authlib.csrf-token", secure: true })
  })

  it("X-Forwarded-Proto https behind a proxy makes cookies secure", async () => {
    const res = await new Client(config()).request("/auth/csrf", { headers: { "x-forwarded-proto": "https" } })
    expect(setCookies(res)[0]!.name).toBe("__Host-authlib.csrf-token")
  })

  it("the cookies option overrides a name and merges options, keeping other defaults", async () => {
    const client = new Client(config({ cookies: { sessionToken: { name: "my-session", options: { sameSite: "strict", domain: "localhost" } } } }))
    const res = await client.signIn()
    const c = setCookies(res).find((x) => x.name === "my-session")!
    expect(c).toMatchObject({ sameSite: "Strict", domain: "localhost", httpOnly: true, path: "/" })
    expect(await client.session()).toMatchObject({ user: { name: "Alice" } })
  })

  it("defaults list every cookie of design.md, with 15-minute check cookies", () => {
    const d = defaultCookies(false)
    expect(Object.fromEntries(Object.entries(d).map(([k, v]) => [k, v.name]))).toEqual({
      sessionToken: "authlib.session-token",
      callbackUrl: "authlib.callback-url",
      csrfToken: "authlib.csrf-token",
      pkceCodeVerifier: "authlib.pkce.code_verifier",
      state: "authlib.state",
      nonce: "authlib.nonce",
      webauthnChallenge: "authlib.challenge",
    })
    expect(d.state.options.maxAge).toBe(900)
    expect(defaultCookies(true).pkceCodeVerifier.name).toBe("__Secure-authlib.pkce.code_verifier")
  })
})
