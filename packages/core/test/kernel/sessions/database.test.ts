import { afterEach, describe, expect, it, vi } from "vitest"
import { Client, config, recordingLogger, setCookies } from "../../helpers/harness.js"
import { memoryAdapter } from "../../helpers/memory-adapter.js"
import type { Adapter } from "../../../src/index.js"

afterEach(() => void vi.useRealTimers())
const DAY = 86_400_000

describe("database sessions (strategy defaults to database with an adapter)", () => {
  it("GET /auth/session reads through the adapter without writing before updateAge", async () => {
    const adapter = memoryAdapter()
    const client = new Client(config({ adapter }))
    await client.signIn()
    adapter.calls.length = 0
    const res = await client.request("/auth/session")
    expect(await res.json()).toMatchObject({ user: { name: "Alice", email: "alice@example.com" } })
    expect(adapter.writes()).toEqual([])
    expect(res.headers.get("set-cookie")).toBeNull()
  })

  it("slides the expiry at most once per updateAge", async () => {
    vi.useFakeTimers({ toFake: ["Date"] })
    const adapter = memoryAdapter()
    const client = new Client(config({ adapter }))
    await client.signIn()
    const [hash] = [...adapter.sessions.keys()]
    const first = adapter.sessions.get(hash!)!.expires.getTime()
    vi.setSystemTime(Date.now() + DAY / 2)
    await client.session()
    expect(adapter.sessions.get(hash!)!.expires.getTime()).toBe(first)
    vi.setSystemTime(Date.now() + DAY)
    adapter.calls.length = 0
    const res = await client.request("/auth/session")
    expect(adapter.writes()).toEqual(["updateSession"])
    expect(adapter.sessions.get(hash!)!.expires.getTime()).toBeGreaterThan(first)
    expect(setCookies(res)[0]).toMatchObject({ name: "authlib.session-token" })
    adapter.calls.length = 0
    await client.session()
    expect(adapter.writes()).toEqual([])
  })

  it("an expired session is deleted and reads as null", async () => {
    vi.useFakeTimers({ toFake: ["Date"] })
    const adapter = memoryAdapter()
    const client = new Client(config({ adapter, session: { maxAge: 60 } }))
    await client.signIn()
    vi.setSystemTime(Date.now() + 61_000)
    const res = await client.request("/auth/session")
    expect(await res.json()).toBeNull()
    expect(adapter.sessions.size).toBe(0)
    expect(setCookies(res)[0]).toMatchObject({ name: "authlib.session-token", maxAge: 0 })
  })

  it("an unknown session token reads as null, cookie cleared, nothing written", async () => {
    const adapter = memoryAdapter()
    const client = new Client(config({ adapter }))
    const res = await client.request("/auth/session", { headers: { cookie: "authlib.session-token=unknown-token-value-0123456789" } })
    expect(await res.json()).toBeNull()
    expect(adapter.writes()).toEqual([])
  })

  it("the cookie value itself is not a valid lookup key (only its hash is stored)", async () => {
    const adapter = memoryAdapter()
    const client = new Client(config({ adapter }))
    await client.signIn()
    const [hash] = [...adapter.sessions.keys()]
    const thief = new Client(client.config)
    expect(await (await thief.request("/auth/session", { headers: { cookie: `authlib.session-token=${hash}` } })).json()).toBeNull()
  })

  it("POST /auth/session runs the session callback with newSession and trigger update", async () => {
    const adapter = memoryAdapter()
    const seen: unknown[] = []
    const client = new Client(config({ adapter, callbacks: { session: ({ session, user, newSession, trigger }) => (seen.push({ trigger, newSession, userId: user?.id }), session) } }))
    await client.signIn()
    const csrfToken = await client.csrfToken()
    await client.request("/auth/session", { json: { csrfToken, data: { theme: "dark" } } })
    expect(seen.at(-1)).toMatchObject({ trigger: "update", newSession: { theme: "dark" } })
    expect((seen.at(-1) as { userId: string }).userId).toBe([...adapter.users.keys()][0])
  })

  it("POST /auth/signout deletes the session record and fires signOut with it", async () => {
    const adapter = memoryAdapter()
    const messages: unknown[] = []
    const client = new Client(config({ adapter, events: { signOut: (m) => void messages.push(m) } }))
    await client.signIn()
    await client.post("/auth/signout")
    expect(adapter.sessions.size).toBe(0)
    expect(messages).toEqual([{ session: expect.objectContaining({ userId: [...adapter.users.keys()][0] }) }])
    expect(await client.session()).toBeNull()
  })

  it("signing in again ends the session the browser held: the old token no longer reads, one record is left", async () => {
    const adapter = memoryAdapter()
    const client = new Client(config({ adapter }))
    await client.signIn()
    const first = client.jar.get("authlib.session-token")!
    await client.signIn()
    const second = client.jar.get("authlib.session-token")!
    expect(second).not.toBe(first)
    expect(adapter.sessions.size).toBe(1)
    const stranger = new Client(client.config)
    const old = await stranger.request("/auth/session", { headers: { cookie: `authlib.session-token=${first}` } })
    expect(await old.json()).toBeNull()
    expect(await client.session()).toMatchObject({ user: { name: "Alice" } })
  })

  it("signing in again with a session cookie the adapter cannot delete still signs in; the failure is logged", async () => {
    const adapter = memoryAdapter()
    const { logger, entries } = recordingLogger()
    const client = new Client(config({ adapter: { ...adapter, deleteSession: () => { throw new Error("down") } }, logger }))
    await client.signIn()
    const res = await client.signIn()
    expect(res.headers.get("location")).toBe("http://localhost:3000/")
    expect(entries.find((e) => e.level === "error")?.code).toBe("AdapterError")
    expect(await client.session()).toMatchObject({ user: { name: "Alice" } })
  })

  it("generateSessionToken is used, and a weak one is refused", async () => {
    const adapter = memoryAdapter()
    const strong = new Client(config({ adapter, session: { generateSessionToken: () => "s".repeat(40) } }))
    await strong.signIn()
    expect(strong.jar.get("authlib.session-token")).toBe("s".repeat(40))
    const { logger, entries } = recordingLogger()
    const weak = new Client(config({ adapter: memoryAdapter(), logger, session: { generateSessionToken: () => "short" } }))
    const res = await weak.signIn()
    expect(res.headers.get("location")).toContain("error=Configuration")
    expect(entries.find((e) => e.level === "error")?.code).toBe("SessionTokenError")
  })

  it("an adapter that throws becomes a logged AdapterError, shown as Configuration", async () => {
    const adapter = memoryAdapter()
    adapter.createSession = () => { throw new Error("connection refused") }
    const { logger, entries } = recordingLogger()
    const client = new Client(config({ adapter, logger }))
    const res = await client.signIn()
    expect(res.headers.get("location")).toContain("/auth/error?error=Configuration")
    const logged = entries.find((e) => e.level === "error")!
    expect(logged.code).toBe("AdapterError")
    expect(logged.message[0]).toMatchObject({ type: "AdapterError", code: "ADAPTER_METHOD_FAILED", cause: { method: "createSession" } })
  })

  it("GET /auth/session with a failing adapter answers 500 { error: Configuration }", async () => {
    const adapter: Adapter = { ...memoryAdapter(), getSessionAndUser: () => { throw new Error("down") } }
    const client = new Client(config({ adapter }))
    const res = await client.request("/auth/session", { headers: { cookie: "authlib.session-token=abcdefghijklmnopqrstuvwxyz" } })
    expect(res.status).toBe(500)
    expect(await res.json()).toEqual({ error: "Configuration" })
  })
})
