import { afterEach, describe, expect, it, vi } from "vitest"
import { decode } from "@authlib/jwt"
import { Client, config, credentials, ORIGIN, recordingLogger, SECRET, setCookies } from "../../helpers/harness.js"
import { MAX_SESSION_TOKEN_LENGTH, type JWT } from "../../../src/index.js"

afterEach(() => void vi.useRealTimers())

const DAY = 86_400_000

async function tokenOf(client: Client): Promise<JWT> {
  const raw = client.jar.get("authlib.session-token") ?? [0, 1, 2, 3].map((i) => client.jar.get(`authlib.session-token.${i}`) ?? "").join("")
  return (await decode({ token: raw, secret: SECRET, salt: "authlib.session-token" }))!
}

describe("GET /auth/session with a JWT session", () => {
  it("does not re-issue the cookie on a read before updateAge, and mints no CSRF token", async () => {
    const client = new Client(config())
    await client.signIn()
    const res = await client.request("/auth/session")
    expect(res.headers.get("set-cookie")).toBeNull()
    expect(res.headers.get("cache-control")).toBe("private, no-cache, no-store")
  })

  it("re-issues once updateAge has passed, with a later expiry", async () => {
    vi.useFakeTimers({ toFake: ["Date"] })
    const client = new Client(config({ session: { updateAge: 3600 } }))
    await client.signIn()
    const before = await tokenOf(client)
    vi.setSystemTime(Date.now() + 2 * 3600_000)
    const res = await client.request("/auth/session")
    expect(setCookies(res).map((c) => c.name)).toEqual(["authlib.session-token"])
    const after = await tokenOf(client)
    expect(after.exp!).toBeGreaterThan(before.exp!)
    expect(((await res.json()) as { expires: string }).expires).toBe(new Date(after.exp! * 1000).toISOString())
  })

  it("updateAge 0 re-issues on every read", async () => {
    const client = new Client(config({ session: { updateAge: 0 } }))
    await client.signIn()
    expect(setCookies(await client.request("/auth/session"))).toHaveLength(1)
    expect(setCookies(await client.request("/auth/session"))).toHaveLength(1)
  })

  it("re-issues when the jwt callback changes the token (even by mutating it), not otherwise", async () => {
    let bump = false
    const client = new Client(config({ callbacks: { jwt: ({ token }) => { if (bump) token.role = "admin"; return token } } }))
    await client.signIn()
    expect(setCookies(await client.request("/auth/session"))).toHaveLength(0)
    bump = true
    expect(setCookies(await client.request("/auth/session"))).toHaveLength(1)
    expect((await tokenOf(client)).role).toBe("admin")
  })

  it("a jwt callback returning null ends the session and clears the cookie", async () => {
    let end = false
    const client = new Client(config({ callbacks: { jwt: ({ token }) => (end ? null : token) } }))
    await client.signIn()
    end = true
    const res = await client.request("/auth/session")
    expect(await res.json()).toBeNull()
    expect(setCookies(res)[0]).toMatchObject({ name: "authlib.session-token", maxAge: 0 })
  })

  it("an expired token reads as null and is cleared", async () => {
    vi.useFakeTimers({ toFake: ["Date"] })
    const client = new Client(config({ session: { maxAge: 60 } }))
    await client.signIn()
    vi.setSystemTime(Date.now() + 120_000)
    const res = await client.request("/auth/session")
    expect(await res.json()).toBeNull()
    expect(setCookies(res)[0]).toMatchObject({ maxAge: 0 })
  })

  it("a token sealed with another secret reads as null", async () => {
    const client = new Client(config())
    await client.signIn()
    const other = new Client(config({ secret: "another-secret-0123456789-0123456789-abcdef" }))
    for (const [k, v] of client.jar) other.jar.set(k, v)
    expect(await other.session()).toBeNull()
  })

  it("secret rotation: a token sealed with the old secret still reads after a new one is put first", async () => {
    const client = new Client(config())
    await client.signIn()
    const rotated = new Client(config({ secret: ["brand-new-secret-0123456789-0123456789-xyz", SECRET] }))
    for (const [k, v] of client.jar) rotated.jar.set(k, v)
    expect(await rotated.session()).toMatchObject({ user: { name: "Alice" } })
  })

  it("the default session exposes only name, email, image and expires", async () => {
    const client = new Client(config({ providers: [credentials({ authorize: () => ({ id: "1", name: "A", email: "a@x", image: null, role: "admin" } as never) })] }))
    await client.signIn()
    const session = (await client.session()) as Record<string, unknown>
    expect(Object.keys(session).sort()).toEqual(["expires", "user"])
    expect(session.user).toEqual({ name: "A", email: "a@x", image: null })
  })
})

describe("POST /auth/session (update) with a JWT session", () => {
  it("runs the jwt callback with trigger update and the data, re-issues, and passes newSession to session", async () => {
    const seen: unknown[] = []
    const client = new Client(config({
      callbacks: {
        jwt: ({ token, trigger, session }) => (trigger === "update" ? { ...token, name: (session as { name: string }).name } : token),
        session: (p) => (seen.push({ trigger: p.trigger, newSession: p.newSession }), p.session),
      },
    }))
    await client.signIn()
    const csrfToken = await client.csrfToken()
    const res = await client.request("/auth/session", { json: { csrfToken, data: { name: "Alice B." } } })
    expect(await res.json()).toMatchObject({ user: { name: "Alice B." } })
    expect(setCookies(res)).toHaveLength(1)
    expect(seen.at(-1)).toEqual({ trigger: "update", newSession: { name: "Alice B." } })
    expect(await client.session()).toMatchObject({ user: { name: "Alice B." } })
  })
})

describe("large JWT sessions are chunked", () => {
  const bigUser = () => ({ id: "1", name: "N".repeat(6000), email: "big@example.com" })

  it("splits the token into session-token.0..N cookies that each fit 4096 bytes, and reads them back", async () => {
    const client = new Client(config({ providers: [credentials({ authorize: bigUser })] }))
    const res = await client.signIn()
    const names = setCookies(res).filter((c) => c.name.startsWith("authlib.session-token")).map((c) => c.name)
    expect(names.length).toBeGreaterThan(1)
    expect(names[0]).toBe("authlib.session-token.0")
    for (const header of res.headers.getSetCookie()) expect(header.length).toBeLessThanOrEqual(4096)
    expect(await client.session()).toMatchObject({ user: { email: "big@example.com" } })
  })

  it("signing out clears every chunk", async () => {
    const client = new Client(config({ providers: [credentials({ authorize: bigUser })] }))
    await client.signIn()
    const chunks = [...client.jar.keys()].filter((k) => k.startsWith("authlib.session-token"))
    const res = await client.post("/auth/signout")
    const cleared = setCookies(res).filter((c) => c.maxAge === 0).map((c) => c.name)
    for (const name of chunks) expect(cleared).toContain(name)
    expect(await client.session()).toBeNull()
  })

  it("a smaller token written over chunks clears the stale chunks", async () => {
    let big = true
    const client = new Client(config({ providers: [credentials({ authorize: () => (big ? bigUser() : { id: "1", name: "s" }) })] }))
    await client.signIn()
    big = false
    const res = await client.signIn()
    const cookies = setCookies(res)
    expect(cookies.find((c) => c.name === "authlib.session-token")?.value).toBeTruthy()
    expect(cookies.filter((c) => c.name.startsWith("authlib.session-token.") && c.maxAge === 0).length).toBeGreaterThan(1)
    expect(await client.session()).toMatchObject({ user: { name: "s" } })
  })
})

describe("a session token too large to come back is never written", () => {
  // Random, so compression-free and the token grows with it (about 4/3 of the bytes after JWE).
  const noise = (chars: number) => Array.from({ length: chars }, (_, i) => String.fromCharCode(33 + ((i * 7919) % 94))).join("")

  it("sign-in with a token over the limit ends on the error page, logged, with no session cookie", async () => {
    const { logger, entries } = recordingLogger()
    const client = new Client(config({ logger, callbacks: { jwt: ({ token }) => ({ ...token, blob: noise(10_000) }) } }))
    const res = await client.signIn()
    expect(res.status).toBe(302)
    expect(res.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=Configuration`)
    expect(setCookies(res).some((c) => c.name.startsWith("authlib.session-token") && c.value !== "")).toBe(false)
    const logged = entries.find((e) => e.level === "error")!.message[0] as { type: string; code: string }
    expect(logged).toMatchObject({ type: "SessionTokenError", code: "SESSION_TOKEN_TOO_LARGE" })
    expect(await client.session()).toBeNull()
  })

  it("an update that would grow the token over the limit keeps the session as it was", async () => {
    const client = new Client(config({
      callbacks: { jwt: ({ token, trigger, session }) => (trigger === "update" ? { ...token, blob: (session as { blob: string }).blob } : token) },
    }))
    await client.signIn()
    const csrfToken = await client.csrfToken()
    const res = await client.request("/auth/session", { json: { csrfToken, data: { blob: noise(10_000) } } })
    expect(res.status).toBeGreaterThanOrEqual(400)
    expect(setCookies(res).some((c) => c.name.startsWith("authlib.session-token"))).toBe(false)
    expect(await client.session()).toMatchObject({ user: { email: "alice@example.com" } })
  })

  it("a token just under the limit is written in chunks and read back, headers within the request limit", async () => {
    const client = new Client(config({ callbacks: { jwt: ({ token }) => ({ ...token, blob: noise(8_000) }) } }))
    await client.signIn()
    const chunks = [...client.jar.entries()].filter(([k]) => k.startsWith("authlib.session-token."))
    expect(chunks.length).toBeGreaterThan(2)
    expect(chunks.reduce((n, [, v]) => n + v.length, 0)).toBeLessThanOrEqual(MAX_SESSION_TOKEN_LENGTH)
    expect(chunks.reduce((n, [k, v]) => n + k.length + v.length + 3, 0)).toBeLessThan(16 * 1024 - 1024)
    expect(await client.session()).toMatchObject({ user: { email: "alice@example.com" } })
  })
})
