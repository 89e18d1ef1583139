import { describe, expect, it } from "vitest"
import { Client, config, credentials, ORIGIN, recordingLogger, setCookies } from "../../helpers/harness.js"
import { memoryAdapter } from "../../helpers/memory-adapter.js"
import { Auth, CredentialsSignin, raw } from "../../../src/index.js"

describe("POST /auth/callback/credentials", () => {
  it("passes the submitted fields (without csrfToken and callbackUrl) and the incoming Request to authorize", async () => {
    let seen: { creds?: unknown; request?: Request } = {}
    const client = new Client(config({
      providers: [credentials({ authorize: (creds, request) => ((seen = { creds, request }), { id: "7" }) })],
    }))
    await client.signIn("bob", "pw", { callbackUrl: "/x" })
    expect(seen.creds).toEqual({ username: "bob", password: "pw" })
    expect(seen.request).toBeInstanceOf(Request)
    expect(seen.request!.url).toBe(`${ORIGIN}/auth/callback/credentials`)
    expect(seen.request!.headers.get("origin")).toBe(ORIGIN)
  })

  it("a __proto__ field in a JSON or form body stays a plain field (no inherited credentials)", async () => {
    const seen: Array<Record<string, unknown>> = []
    const client = new Client(config({ providers: [credentials({ authorize: (c) => (seen.push(c as never), null) })] }))
    const csrfToken = await client.csrfToken()
    // An object value never reaches authorize at all (credentials are strings, as a form sends them).
    const object = await client.request("/auth/callback/credentials", { headers: { "content-type": "application/json" }, method: "POST", body: `{"csrfToken":"${csrfToken}","__proto__":{"username":"alice","isAdmin":true}}` })
    expect(object.headers.get("location")).toBe(`${ORIGIN}/auth/signin?error=CredentialsSignin&code=credentials`)
    await client.request("/auth/callback/credentials", { headers: { "content-type": "application/json" }, method: "POST", body: `{"csrfToken":"${csrfToken}","__proto__":"x","username":"alice"}` })
    await client.request("/auth/callback/credentials", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: `csrfToken=${csrfToken}&__proto__=x&username=bob` })
    expect(seen).toHaveLength(2)
    for (const creds of seen) {
      expect(Object.getPrototypeOf(creds)).toBe(Object.prototype)
      expect((creds as { isAdmin?: unknown }).isAdmin).toBeUndefined()
      expect(Object.keys(creds)).toEqual(["__proto__", "username"])
    }
  })

  it("null from authorize -> sign-in page with error=CredentialsSignin&code=credentials, no session", async () => {
    const client = new Client(config())
    const res = await client.signIn("alice", "nope")
    expect(res.status).toBe(302)
    expect(res.headers.get("location")).toBe(`${ORIGIN}/auth/signin?error=CredentialsSignin&code=credentials`)
    expect(setCookies(res).some((c) => c.name === "authlib.session-token")).toBe(false)
  })

  it("a CredentialsSignin subclass puts its own code in the URL", async () => {
    const res = await new Client(config()).signIn("alice", "wrong")
    expect(res.headers.get("location")).toBe(`${ORIGIN}/auth/signin?error=CredentialsSignin&code=invalid_password`)
  })

  it("CredentialsSignin thrown with a code option keeps it", async () => {
    const client = new Client(config({ providers: [credentials({ authorize: () => { throw new CredentialsSignin("x", { code: "locked" }) } })] }))
    expect((await client.signIn()).headers.get("location")).toContain("code=locked")
  })

  it("any other throw is logged in full and shown as a generic Configuration error", async () => {
    const { logger, entries } = recordingLogger()
    const res = await new Client(config({ logger })).signIn("alice", "boom")
    expect(res.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=Configuration`)
    const logged = entries.find((e) => e.level === "error")!
    expect(logged.code).toBe("CallbackRouteError")
    const err = logged.message[0] as Error & { cause: { err: Error } }
    expect(err.cause.err.message).toBe("database is down")
  })

  it("with pages.signIn the failure goes to the custom sign-in page", async () => {
    const res = await new Client(config({ pages: { signIn: "/login" } })).signIn("alice", "nope")
    expect(res.headers.get("location")).toBe(`${ORIGIN}/login?error=CredentialsSignin&code=credentials`)
  })

  it("X-Auth-Return-Redirect: 1 turns the redirect into 200 { url }", async () => {
    const client = new Client(config())
    const csrfToken = await client.csrfToken()
    const res = await client.request("/auth/callback/credentials", { headers: { "x-auth-return-redirect": "1" }, form: { csrfToken, username: "alice", password: "nope" } })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ url: `${ORIGIN}/auth/signin?error=CredentialsSignin&code=credentials` })
  })

  it("an authorize result without id gets a random one", async () => {
    const client = new Client(config({ providers: [credentials({ authorize: () => ({ name: "Anon" }) })], callbacks: { session: ({ session, token }) => ({ ...session, sub: token!.sub }) } }))
    await client.signIn()
    const session = (await client.session()) as { sub: string }
    expect(session.sub).toMatch(/^[0-9a-f-]{36}$/)
  })

  it("POST /auth/signin/credentials (no start step) redirects to the sign-in page", async () => {
    const res = await new Client(config()).post("/auth/signin/credentials", { callbackUrl: "/after" })
    expect(res.headers.get("location")).toBe(`${ORIGIN}/auth/signin?callbackUrl=${encodeURIComponent(`${ORIGIN}/after`)}`)
  })
})

describe("raw marker: a server-side binding gets the result or the error", () => {
  const form = async (password: string) => {
    const client = new Client(config())
    const csrfToken = await client.csrfToken()
    const cookie = [...client.jar].map(([k, v]) => `${k}=${v}`).join("; ")
    return new Request(`${ORIGIN}/auth/callback/credentials`, {
      method: "POST",
      headers: { origin: ORIGIN, cookie, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ csrfToken, username: "alice", password }),
    })
  }

  it("resolves the internal result (redirect + cookies) on success", async () => {
    const result = await Auth(await form("wonderland"), { ...config(), raw })
    expect(result.redirect).toBe(`${ORIGIN}/`)
    expect(result.cookies!.map((c) => c.name)).toContain("authlib.session-token")
  })

  it("throws CredentialsSignin (with its code) to the caller instead of redirecting", async () => {
    await expect(Auth(await form("wrong"), { ...config(), raw })).rejects.toMatchObject({ type: "CredentialsSignin", code: "invalid_password" })
    await expect(Auth(await form("nope"), { ...config(), raw })).rejects.toBeInstanceOf(CredentialsSignin)
  })
})

describe("credentials with database sessions", () => {
  it("creates the user and a credentials account on first sign-in, reuses them after", async () => {
    const adapter = memoryAdapter()
    const events: string[] = []
    const client = new Client(config({
      adapter,
      events: { createUser: () => void events.push("createUser"), linkAccount: () => void events.push("linkAccount"), signIn: (m) => void events.push(`signIn:${m.isNewUser}`) },
    }))
    await client.signIn()
    expect(adapter.users.size).toBe(1)
    expect(adapter.accounts).toEqual([expect.objectContaining({ provider: "credentials", providerAccountId: "user-1", type: "credentials" })])
    const stored = [...adapter.users.values()][0]!
    expect(stored).toMatchObject({ name: "Alice", email: "alice@example.com", emailVerified: null })
    expect(stored.id).not.toBe("user-1")
    expect(await client.session()).toMatchObject({ user: { name: "Alice", email: "alice@example.com" } })
    const again = new Client(client.config)
    await again.signIn()
    expect(adapter.users.size).toBe(1)
    expect(adapter.accounts).toHaveLength(1)
    expect(events).toEqual(["createUser", "linkAccount", "signIn:true", "signIn:false"])
  })

  it("stores only the SHA-256 hash of the session token", async () => {
    const adapter = memoryAdapter()
    const client = new Client(config({ adapter }))
    await client.signIn()
    const cookie = client.jar.get("authlib.session-token")!
    expect(cookie.length).toBeGreaterThanOrEqual(43)
    const [stored] = [...adapter.sessions.keys()]
    expect(stored).not.toBe(cookie)
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(cookie)))
    expect(stored).toBe(btoa(String.fromCharCode(...digest)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, ""))
  })

  it("credentials with JWT sessions and an adapter write nothing: one read of the user's session epoch at sign-in, none per session read", async () => {
    const adapter = memoryAdapter()
    const client = new Client(config({ adapter, session: { strategy: "jwt" } }))
    await client.signIn()
    expect(adapter.calls.map((c) => c.method)).toEqual(["getUserSessionEpoch"])
    expect(await client.session()).toMatchObject({ user: { name: "Alice" } })
    expect(adapter.calls).toHaveLength(1)
  })
})
