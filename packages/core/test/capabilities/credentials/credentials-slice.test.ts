import { describe, expect, it } from "vitest"
import { Client, config, setCookies, ORIGIN } from "../../helpers/harness.js"

describe("credentials sign-in with JWT sessions, end to end", () => {
  it("GET /auth/providers lists the credentials provider with its URLs", async () => {
    const client = new Client(config())
    const res = await client.request("/auth/providers")
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({
      credentials: {
        id: "credentials",
        name: "Password",
        type: "credentials",
        signinUrl: `${ORIGIN}/auth/signin/credentials`,
        callbackUrl: `${ORIGIN}/auth/callback/credentials`,
      },
    })
  })

  it("signs in, reads the session, signs out", async () => {
    const client = new Client(config())
    expect(await client.session()).toBeNull()
    const res = await client.signIn("alice", "wonderland", { callbackUrl: "/dashboard" })
    expect(res.status).toBe(302)
    expect(res.headers.get("location")).toBe(`${ORIGIN}/dashboard`)
    expect(setCookies(res).map((c) => c.name)).toContain("authlib.session-token")
    const session = (await client.session()) as { user: unknown; expires: string }
    expect(session.user).toEqual({ name: "Alice", email: "alice@example.com", image: "https://img.example/a.png" })
    expect(new Date(session.expires).getTime()).toBeGreaterThan(Date.now() + 29 * 86400_000)
    const out = await client.post("/auth/signout", { callbackUrl: "/bye" })
    expect(out.status).toBe(302)
    expect(out.headers.get("location")).toBe(`${ORIGIN}/bye`)
    expect(await client.session()).toBeNull()
  })
})
