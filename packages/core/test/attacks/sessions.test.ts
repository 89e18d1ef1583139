/**
 * Session cookies an attacker plants or mangles: a token of the other strategy, injected chunks,
 * and sign-out when the adapter fails. Nothing an attacker sends becomes a session, and a user
 * who asks to sign out is signed out.
 */
import { describe, expect, it } from "vitest"
import { Client, config, credentials, recordingLogger, setCookies } from "../helpers/harness.js"
import { memoryAdapter } from "../helpers/memory-adapter.js"

const bigUser = () => ({ id: "1", name: "N".repeat(6000), email: "big@example.com" })

/** A signed-in JWT client and its session cookie value. */
async function jwtSession(): Promise<{ client: Client; token: string }> {
  const client = new Client(config())
  await client.signIn()
  return { client, token: client.jar.get("authlib.session-token")! }
}

describe("a session cookie of the other strategy", () => {
  it("a valid JWT presented to database sessions reads as null, is cleared, and is only looked up by its hash", async () => {
    const { token } = await jwtSession()
    const adapter = memoryAdapter()
    const db = new Client(config({ adapter }))
    const res = await db.request("/auth/session", { headers: { cookie: `authlib.session-token=${token}` } })
    expect(await res.json()).toBeNull()
    expect(setCookies(res)).toEqual([expect.objectContaining({ name: "authlib.session-token", maxAge: 0 })])
    expect(adapter.writes()).toEqual([])
    const lookups = adapter.calls.filter((c) => c.method === "getSessionAndUser").map((c) => c.args[0])
    expect(lookups).toHaveLength(1)
    expect(lookups[0]).not.toBe(token)
  })

  it("a database session token presented to JWT sessions reads as null and is cleared", async () => {
    const adapter = memoryAdapter()
    const db = new Client(config({ adapter }))
    await db.signIn()
    const token = db.jar.get("authlib.session-token")!
    expect(adapter.sessions.size).toBe(1)
    const res = await new Client(config()).request("/auth/session", { headers: { cookie: `authlib.session-token=${token}` } })
    expect(await res.json()).toBeNull()
    expect(setCookies(res)).toEqual([expect.objectContaining({ name: "authlib.session-token", maxAge: 0 })])
  })
})

describe("injected session chunks", () => {
  it("chunks tossed next to a whole session cookie are ignored: the whole cookie is read", async () => {
    const { client, token } = await jwtSession()
    const cookie = `authlib.session-token=${token}; authlib.session-token.0=${token.slice(0, 40)}; authlib.session-token.1=junk`
    const res = await client.request("/auth/session", { headers: { cookie } })
    expect(await res.json()).toMatchObject({ user: { name: "Alice" } })
  })

  it("a chunk sequence with a gap, an extra chunk, or a non-canonical index never decodes into a session", async () => {
    const client = new Client(config({ providers: [credentials({ authorize: bigUser })] }))
    await client.signIn()
    const chunks = [...client.jar].filter(([k]) => k.startsWith("authlib.session-token."))
    expect(chunks.length).toBeGreaterThan(1)
    const header = (pairs: Array<[string, string]>) => pairs.map(([k, v]) => `${k}=${v}`).join("; ")
    const withGap = chunks.filter((_, i) => i !== 1)
    const extra: Array<[string, string]> = [...chunks, [`authlib.session-token.${chunks.length}`, "AAAA"]]
    const renamed: Array<[string, string]> = chunks.map(([k, v], i) => [i === 0 ? "authlib.session-token.00" : k, v])
    const huge: Array<[string, string]> = [...chunks, ["authlib.session-token.999", "x"]]
    for (const pairs of [withGap, extra, renamed, huge]) {
      const res = await client.request("/auth/session", { headers: { cookie: header(pairs) } })
      expect(await res.json()).toBeNull()
    }
    // The untouched chunks still read (the control).
    expect(await (await client.request("/auth/session", { headers: { cookie: header(chunks) } })).json()).toMatchObject({ user: { email: "big@example.com" } })
  })

  it("a chunk index beyond three digits is not a chunk: no sparse array of a million slots", async () => {
    const { client, token } = await jwtSession()
    const cookie = `authlib.session-token.0=${token}; authlib.session-token.1000000=x`
    expect(await (await client.request("/auth/session", { headers: { cookie } })).json()).toMatchObject({ user: { name: "Alice" } })
  })
})

describe("sign-out with a failing adapter", () => {
  it("deleteSession throwing (a record already gone, a database down) is logged; the cookie is still cleared", async () => {
    const adapter = memoryAdapter()
    // The config wraps the adapter on its first request: the failure must be in place before.
    adapter.deleteSession = () => {
      throw new Error("Record to delete does not exist")
    }
    const { logger, entries } = recordingLogger()
    const events: unknown[] = []
    const client = new Client(config({ adapter, logger, events: { signOut: (m) => void events.push(m) } }))
    await client.signIn()
    const res = await client.post("/auth/signout", { callbackUrl: "/bye" })
    expect(res.status).toBe(302)
    expect(res.headers.get("location")).toBe("http://localhost:3000/bye")
    expect(setCookies(res)).toContainEqual(expect.objectContaining({ name: "authlib.session-token", value: "", maxAge: 0 }))
    const logged = entries.find((e) => e.level === "error")!
    expect(logged.message[0]).toMatchObject({ type: "AdapterError", cause: { method: "deleteSession" } })
    expect(events).toEqual([{ session: null }])
  })
})
