import { describe, expect, it } from "vitest"
import { Client, config, credentials, ORIGIN, recordingLogger, setCookies } from "../../helpers/harness.js"
import { memoryAdapter } from "../../helpers/memory-adapter.js"
import { AuthError, OAuthAccountNotLinked } from "../../../src/index.js"

const hasSession = (res: Response) => setCookies(res).some((c) => c.name === "authlib.session-token" && c.value !== "")

describe("signIn callback outcomes", () => {
  it("true continues to the callback URL", async () => {
    const res = await new Client(config({ callbacks: { signIn: () => true } })).signIn()
    expect(res.headers.get("location")).toBe(`${ORIGIN}/`)
    expect(hasSession(res)).toBe(true)
  })

  it("false -> error page with AccessDenied (403 page), no session", async () => {
    const client = new Client(config({ callbacks: { signIn: () => false } }))
    const res = await client.signIn()
    expect(res.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=AccessDenied`)
    expect(hasSession(res)).toBe(false)
    const page = await client.request(res.headers.get("location")!)
    expect(page.status).toBe(403)
    expect(page.headers.get("content-type")).toContain("text/html")
  })

  it("a string redirects there, no session", async () => {
    const res = await new Client(config({ callbacks: { signIn: () => "/not-yet" } })).signIn()
    expect(res.headers.get("location")).toBe(`${ORIGIN}/not-yet`)
    expect(hasSession(res)).toBe(false)
  })

  it("a throw -> AccessDenied carrying the original message (to the logger), no session", async () => {
    const { logger, entries } = recordingLogger()
    const res = await new Client(config({ logger, callbacks: { signIn: () => { throw new Error("banned user") } } })).signIn()
    expect(res.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=AccessDenied`)
    expect(hasSession(res)).toBe(false)
    const logged = entries.find((e) => e.code === "AccessDenied")!.message[0] as AuthError
    expect(logged.message).toBe("banned user")
    expect(logged.code).toBe("SIGNIN_CALLBACK_THREW")
  })

  it("false with pages.error goes to the custom error page", async () => {
    const res = await new Client(config({ pages: { error: "/oops" }, callbacks: { signIn: () => false } })).signIn()
    expect(res.headers.get("location")).toBe(`${ORIGIN}/oops?error=AccessDenied`)
  })

  it("receives user, account and the credentials", async () => {
    let params: Record<string, unknown> = {}
    await new Client(config({ callbacks: { signIn: (p) => ((params = p as never), true) } })).signIn()
    expect(params.user).toMatchObject({ id: "user-1", name: "Alice" })
    expect(params.account).toEqual({ provider: "credentials", providerAccountId: "user-1", type: "credentials" })
    expect(params.credentials).toEqual({ username: "alice", password: "wonderland" })
  })
})

describe("jwt callback at sign-in", () => {
  it("gets trigger signIn with user and account, and its result is the token", async () => {
    const calls: Array<Record<string, unknown>> = []
    const client = new Client(config({
      callbacks: {
        jwt: (p) => (calls.push(p as never), { ...p.token, role: "admin" }),
        session: ({ session, token }) => ({ ...session, role: token!.role }) as never,
      },
    }))
    await client.signIn()
    expect(calls[0]).toMatchObject({
      trigger: "signIn",
      isNewUser: false,
      user: { id: "user-1" },
      account: { provider: "credentials" },
      token: { name: "Alice", email: "alice@example.com", picture: "https://img.example/a.png", sub: "user-1" },
    })
    expect(await client.session()).toMatchObject({ role: "admin" })
  })

  it("null refuses the sign-in (AccessDenied)", async () => {
    const res = await new Client(config({ callbacks: { jwt: () => null } })).signIn()
    expect(res.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=AccessDenied`)
  })
})

describe("events", () => {
  it("signIn (credentials: the raw authorize user) and signOut ({ token }) under JWT", async () => {
    const events: Array<[string, unknown]> = []
    const client = new Client(config({
      events: {
        signIn: (m) => void events.push(["signIn", m]),
        signOut: (m) => void events.push(["signOut", m]),
        session: (m) => void events.push(["session", m]),
      },
    }))
    await client.signIn()
    await client.session()
    await client.post("/auth/signout")
    expect(events[0]).toEqual(["signIn", { user: { id: "user-1", name: "Alice", email: "alice@example.com", image: "https://img.example/a.png" }, account: { provider: "credentials", providerAccountId: "user-1", type: "credentials" }, isNewUser: false }])
    expect(events[1]).toEqual(["session", { session: expect.objectContaining({ user: expect.any(Object) }), token: expect.objectContaining({ sub: "user-1" }) }])
    expect(events[2]).toEqual(["signOut", { token: expect.objectContaining({ sub: "user-1", name: "Alice" }) }])
  })

  it("signOut without a session gets { token: null }", async () => {
    const events: unknown[] = []
    await new Client(config({ events: { signOut: (m) => void events.push(m) } })).post("/auth/signout")
    expect(events).toEqual([{ token: null }])
  })

  it("createUser, linkAccount and session under database", async () => {
    const adapter = memoryAdapter()
    const events: Array<[string, unknown]> = []
    const push = (name: string) => (m: unknown) => void events.push([name, m])
    const client = new Client(config({ adapter, events: { createUser: push("createUser"), linkAccount: push("linkAccount"), session: push("session") } }))
    await client.signIn()
    await client.session()
    const user = [...adapter.users.values()][0]
    expect(events[0]).toEqual(["createUser", { user }])
    expect(events[1]).toEqual(["linkAccount", { user, account: expect.objectContaining({ userId: user!.id, type: "credentials" }), profile: expect.objectContaining({ id: "user-1" }) }])
    expect(events[2]).toEqual(["session", { session: expect.objectContaining({ expires: expect.any(String) }), token: expect.objectContaining({ userId: user!.id }) }])
  })

  it("a throwing event handler is logged as EventError and never breaks sign-in", async () => {
    const { logger, entries } = recordingLogger()
    const client = new Client(config({ logger, events: { signIn: () => { throw new Error("audit log down") } } }))
    const res = await client.signIn()
    expect(hasSession(res)).toBe(true)
    expect(entries.find((e) => e.level === "error")).toMatchObject({ code: "EventError", message: [expect.objectContaining({ code: "EVENT_HANDLER_THREW", cause: expect.objectContaining({ event: "signIn" }) })] })
  })
})

describe("pages.newUser", () => {
  it("sends a first-time (database) user to pages.newUser with the callbackUrl, later sign-ins to the callbackUrl", async () => {
    const adapter = memoryAdapter()
    const cfg = config({ adapter, pages: { newUser: "/welcome" } })
    const first = await new Client(cfg).signIn("alice", "wonderland", { callbackUrl: "/app" })
    expect(first.headers.get("location")).toBe(`${ORIGIN}/welcome?callbackUrl=${encodeURIComponent(`${ORIGIN}/app`)}`)
    const second = await new Client(cfg).signIn("alice", "wonderland", { callbackUrl: "/app" })
    expect(second.headers.get("location")).toBe(`${ORIGIN}/app`)
  })

  it("credentials with JWT and an adapter store nothing, so the jwt trigger is signIn, never signUp", async () => {
    const triggers: unknown[] = []
    const adapter = memoryAdapter()
    await new Client(config({ adapter, session: { strategy: "jwt" }, callbacks: { jwt: (p) => (triggers.push(p.trigger), p.token) } })).signIn()
    expect(triggers).toEqual(["signIn"])
  })
})

describe("user linking rules (adapter)", () => {
  it("a credentials account links to an existing user with the same e-mail (the app's authorize vouches)", async () => {
    const adapter = memoryAdapter()
    adapter.users.set("u-0", { id: "u-0", email: "alice@example.com", emailVerified: null, name: "Existing" })
    await new Client(config({ adapter })).signIn()
    expect(adapter.users.size).toBe(1)
    expect(adapter.accounts[0]).toMatchObject({ userId: "u-0", provider: "credentials" })
  })

  it("OAuthAccountNotLinked is client-safe with a stable type", () => {
    const err = new OAuthAccountNotLinked("x", { code: "EMAIL_ALREADY_LINKED" })
    expect(err.type).toBe("OAuthAccountNotLinked")
    expect((err.constructor as typeof AuthError).clientSafe).toBe(true)
  })
})

describe("credentials provider options override", () => {
  it("options replace preset fields", async () => {
    const client = new Client(config({ providers: [credentials({ options: { name: "Company login" } })] }))
    expect(await (await client.request("/auth/providers")).json()).toMatchObject({ credentials: { name: "Company login" } })
  })
})
