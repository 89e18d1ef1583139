/**
 * A user's own sessions (database strategy): listed with opaque ids and the current one marked,
 * one ended, the others ended, all of a user's ended by the app; another user's session id is
 * refused like an unknown one; JWT sessions say they cannot be managed this way.
 */
import { describe, expect, it } from "vitest"
import { Client, config } from "../../helpers/harness.js"
import { memoryAdapter } from "../../helpers/memory-adapter.js"
import { sha256 } from "../../../src/kernel/security/random.js"
import { listSessions, revokeOtherSessions, revokeSession, revokeUserSessions, SessionManagementError, SessionRequired } from "../../../src/index.js"

function setup() {
  const adapter = memoryAdapter()
  const cfg = config({ adapter, session: { strategy: "database" } })
  return { adapter, cfg }
}

/** A browser signed in as alice (credentials; the user is stored under database sessions). */
async function browser(cfg: ReturnType<typeof config>, username = "alice", password = "wonderland") {
  const client = new Client(cfg)
  expect((await client.signIn(username, password)).status).toBe(302)
  return client
}

/** The memory adapter behind a config made by `setup`. */
const setupAdapter = (cfg: ReturnType<typeof config>) => cfg.adapter as ReturnType<typeof memoryAdapter>

const requestOf = (client: Client) => new Request("http://localhost:3000/account", { headers: { cookie: [...client.jar].map(([k, v]) => `${k}=${v}`).join("; ") } })

describe("managing one's sessions", () => {
  it("lists the user's live sessions with opaque ids, the request's own marked current", async () => {
    const { cfg, adapter } = setup()
    const [a, b, c] = [await browser(cfg), await browser(cfg), await browser(cfg)]
    const listed = await listSessions(requestOf(b), cfg)
    expect(listed).toHaveLength(3)
    expect(listed.filter((s) => s.current)).toHaveLength(1)
    const stored = [...adapter.sessions.keys()]
    const cookies = [a, b, c].map((x) => x.jar.get("authlib.session-token")!)
    for (const s of listed) {
      expect(s.id).toMatch(/^[\w-]{24}$/)
      for (const secret of [...stored, ...cookies]) expect(secret.includes(s.id)).toBe(false)
      expect(s.expires).toBeInstanceOf(Date)
    }
    expect((await listSessions(requestOf(b), cfg)).map((s) => s.id)).toEqual(listed.map((s) => s.id))
  })

  it("ends one session: that browser is signed out, the others are not", async () => {
    const { cfg } = setup()
    const [a, b] = [await browser(cfg), await browser(cfg)]
    const other = (await listSessions(requestOf(b), cfg)).find((s) => !s.current)!
    await revokeSession(requestOf(b), cfg, { id: other.id })
    expect(await a.session()).toBeNull()
    expect(await b.session()).toMatchObject({ user: { email: "alice@example.com" } })
  })

  it("another user's session id is refused exactly like an unknown id, and ends nothing", async () => {
    const { cfg, adapter } = setup()
    const alice = await browser(cfg)
    // Bob, signed in elsewhere: his stored session, and his browser holding its token.
    const bobToken = "bob-raw-session-token-0123456789abcdef"
    adapter.users.set("bob", { id: "bob", name: "Bob", email: "bob@example.com", emailVerified: null })
    adapter.sessions.set(sha256(bobToken), { sessionToken: sha256(bobToken), userId: "bob", expires: new Date(Date.now() + 86400e3) })
    const bob = new Client(cfg)
    bob.jar.set("authlib.session-token", bobToken)
    const [bobsSession] = await listSessions(requestOf(bob), cfg)
    const foreign = await revokeSession(requestOf(alice), cfg, { id: bobsSession!.id }).catch((e: unknown) => e)
    const unknown = await revokeSession(requestOf(alice), cfg, { id: "x".repeat(24) }).catch((e: unknown) => e)
    expect(foreign).toBeInstanceOf(SessionManagementError)
    expect(foreign).toMatchObject({ code: "SESSION_UNKNOWN", status: 404, message: (unknown as Error).message })
    expect(unknown).toMatchObject({ code: "SESSION_UNKNOWN" })
    expect(await bob.session()).toMatchObject({ user: { email: "bob@example.com" } })
    expect(await revokeSession(requestOf(alice), cfg, { id: "" }).catch((e: unknown) => e)).toMatchObject({ code: "SESSION_ID_MISSING" })
  })

  it("ends every other session, keeping the request's own; the app can end all of a user's", async () => {
    const { cfg } = setup()
    const [a, b, c] = [await browser(cfg), await browser(cfg), await browser(cfg)]
    expect(await revokeOtherSessions(requestOf(b), cfg)).toEqual({ revoked: 2, setCookie: [] })
    expect(await a.session()).toBeNull()
    expect(await c.session()).toBeNull()
    expect(await b.session()).toMatchObject({ user: { email: "alice@example.com" } })
    const userId = [...setupAdapter(cfg).sessions.values()][0]!.userId
    expect(await revokeUserSessions(cfg, userId)).toBe(1)
    expect(await b.session()).toBeNull()
  })

  it("without a session: SessionRequired; JWT sessions cannot be listed, nor ended without an adapter that keeps epochs", async () => {
    const { cfg } = setup()
    expect(await listSessions(new Request("http://localhost:3000/"), cfg).catch((e: unknown) => e)).toBeInstanceOf(SessionRequired)
    const jwt = config({ session: { strategy: "jwt" } })
    const signedIn = await browser(jwt)
    expect(await listSessions(requestOf(signedIn), jwt).catch((e: unknown) => e)).toMatchObject({ type: "SessionManagementError", code: "DATABASE_SESSIONS_ONLY", status: 409 })
    expect(await revokeUserSessions(jwt, "user-1").catch((e: unknown) => e)).toMatchObject({ code: "REVOCATION_UNAVAILABLE", status: 409 })
    expect(await revokeOtherSessions(requestOf(signedIn), jwt).catch((e: unknown) => e)).toMatchObject({ code: "REVOCATION_UNAVAILABLE" })
  })
})

describe("GET and POST /auth/sessions", () => {
  it("lists as JSON, ends one and the others with the CSRF token; refuses a POST without it, a bad action, and JWT sessions", async () => {
    const { cfg } = setup()
    const [a, b] = [await browser(cfg), await browser(cfg)]
    const listed = (await (await b.request("/auth/sessions")).json()) as { sessions: Array<{ id: string; current: boolean }> }
    expect(listed.sessions).toHaveLength(2)
    const other = listed.sessions.find((s) => !s.current)!
    expect((await b.request("/auth/sessions", { method: "POST", form: { action: "revoke", id: other.id } })).status).toBe(403)
    expect(await a.session()).toMatchObject({ user: { email: "alice@example.com" } })
    const revoked = await b.post("/auth/sessions", { action: "revoke", id: other.id })
    expect(await revoked.json()).toEqual({ revoked: 1 })
    expect(await a.session()).toBeNull()
    const bad = await b.post("/auth/sessions", { action: "explode" })
    expect(bad.status).toBe(400)
    expect(await bad.json()).toEqual({ error: "SessionManagementError", code: "SESSION_ACTION_INVALID" })
    const unknown = await b.post("/auth/sessions", { action: "revoke", id: other.id })
    expect(unknown.status).toBe(404)
    for (const id of [{ $ne: "" }, ["x"], 42, null]) {
      const malformed = await b.request("/auth/sessions", { method: "POST", json: { action: "revoke", id, csrfToken: await b.csrfToken() } })
      expect(malformed.status, JSON.stringify(id)).toBe(400)
      expect(await malformed.json()).toEqual({ error: "SessionManagementError", code: "SESSION_ID_MISSING" })
    }
    expect(await b.session()).toMatchObject({ user: { email: "alice@example.com" } })
    expect(await (await b.post("/auth/sessions", { action: "revoke-others" })).json()).toEqual({ revoked: 0 })
    const jwt = await browser(config({ session: { strategy: "jwt" } }))
    const refused = await jwt.request("/auth/sessions")
    expect(refused.status).toBe(409)
    expect(await refused.json()).toEqual({ error: "SessionManagementError", code: "DATABASE_SESSIONS_ONLY" })
  })
})
