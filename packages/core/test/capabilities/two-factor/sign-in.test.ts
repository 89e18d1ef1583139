/**
 * Two-factor sign-in through the public API: a user who enabled it gets no session cookie after a
 * first factor (credentials, e-mail link), only a pending sign-in, until a TOTP or backup code is
 * verified; a code is accepted once; 20 parallel redemptions of one backup code give one session;
 * guesses are limited; nothing secret is stored in plain text. Both session strategies.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import type { AuthConfig } from "../../../src/index.js"
import { MemoryRateLimitStore } from "../../../src/index.js"
import { Client, config as baseConfig } from "../../helpers/harness.js"
import { twoFactorAdapter, type TwoFactorAdapter } from "../../helpers/two-factor-adapter.js"
import { emailProvider, followLink, requestLink, type Outbox } from "../email/helpers.js"
import { codeAt, sessionCookie } from "../../helpers/two-factor.js"

const T0 = Date.UTC(2026, 10, 26, 12, 0, 0)

function setup(strategy: "jwt" | "database", over: Partial<AuthConfig> = {}) {
  const adapter = twoFactorAdapter()
  const outbox: Outbox = { sent: [] }
  // JWT sessions store no credentials user: the app's `authorize` answers its own stored user's id.
  if (strategy === "jwt") adapter.users.set("user-1", { id: "user-1", name: "Alice", email: "alice@example.com", emailVerified: new Date(T0) })
  const config = baseConfig({ adapter, session: { strategy }, twoFactor: { issuer: "Example" }, providers: [baseConfig().providers[0]!, emailProvider(outbox)], ...over })
  return { adapter, config, outbox }
}


/** Signs in with the password and enrols + confirms TOTP; answers the base32 secret and the backup codes. */
async function enrol(client: Client, signIn = () => client.signIn()): Promise<{ secret: string; backupCodes: string[] }> {
  expect((await signIn()).status).toBe(302)
  const enrolled = await client.post("/auth/two-factor", { action: "totp-enroll" }, { headers: { "x-auth-return-redirect": "1" } })
  expect(enrolled.status).toBe(200)
  const { secret, uri } = (await enrolled.json()) as { secret: string; uri: string }
  expect(uri).toMatch(/^otpauth:\/\/totp\/Example:alice%40example\.com\?secret=/)
  const confirmed = await client.post("/auth/two-factor", { action: "totp-confirm", code: codeAt(secret, 0) })
  expect(confirmed.status).toBe(200)
  const { enabled, backupCodes } = (await confirmed.json()) as { enabled: boolean; backupCodes: string[] }
  expect(enabled).toBe(true)
  expect(backupCodes).toHaveLength(10)
  await client.post("/auth/signout")
  return { secret, backupCodes }
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] })
  vi.setSystemTime(T0)
})
afterEach(() => vi.useRealTimers())

for (const strategy of ["database", "jwt"] as const) {
  describe(`two-factor sign-in, ${strategy} sessions`, () => {
    it("holds a password sign-in back until a code is verified: no session cookie, then the session", async () => {
      const { config } = setup(strategy)
      const { secret } = await enrol(new Client(config))
      const client = new Client(config)
      const first = await client.signIn()
      expect(first.status).toBe(302)
      expect(first.headers.get("location")).toBe("http://localhost:3000/auth/two-factor")
      expect(sessionCookie(client)).toBeUndefined()
      expect(await client.session()).toBeNull()
      const page = await client.request("/auth/two-factor")
      expect(page.status).toBe(200)
      expect(await page.text()).toContain('name="code"')
      vi.setSystemTime(T0 + 30_000)
      const done = await client.post("/auth/two-factor", { action: "verify", code: codeAt(secret, 0) })
      expect(done.status).toBe(302)
      expect(done.headers.get("location")).toBe("http://localhost:3000/")
      expect(sessionCookie(client)).toBeDefined()
      expect(await client.session()).toMatchObject({ user: { email: "alice@example.com" } })
      expect(client.jar.get("authlib.two-factor")).toBeUndefined()
    })

    it("refuses a wrong code (CODE_INVALID) and a code used before (CODE_USED: wait for the next one), and keeps the sign-in pending", async () => {
      const { config } = setup(strategy)
      const { secret } = await enrol(new Client(config))
      const client = new Client(config)
      await client.signIn()
      const wrong = await client.post("/auth/two-factor", { action: "verify", code: "000000" })
      expect(wrong.status).toBe(302)
      expect(wrong.headers.get("location")).toContain("error=TwoFactorError&code=CODE_INVALID")
      // The confirming code's step was used at enrolment: the same code is refused now, and the
      // person is told it was used (not that it is wrong); the page says to wait for the next one.
      const replay = await client.request("/auth/two-factor", { json: { csrfToken: await client.csrfToken(), action: "verify", code: codeAt(secret, 0) } })
      expect(replay.status).toBe(401)
      expect(await replay.json()).toEqual({ error: "TwoFactorError", code: "CODE_USED" })
      const page = await (await client.request("/auth/two-factor?error=TwoFactorError&code=CODE_USED")).text()
      expect(page).toContain("That code was already used. Wait for the next code in your app, or use a backup code.")
      expect(sessionCookie(client)).toBeUndefined()
      vi.setSystemTime(T0 + 30_000)
      const ok = await client.post("/auth/two-factor", { action: "verify", code: codeAt(secret, 0) })
      expect(ok.status).toBe(302)
      // A second sign-in with the same code (same step) is refused: accepted at most once.
      const other = new Client(config)
      await other.signIn()
      const again = await other.request("/auth/two-factor", { json: { csrfToken: await other.csrfToken(), action: "verify", code: codeAt(secret, 0) } })
      expect(again.status).toBe(401)
      expect(await again.json()).toEqual({ error: "TwoFactorError", code: "CODE_USED" })
      expect(sessionCookie(other)).toBeUndefined()
    })

    it("the page's way out ends the pending sign-in: its cookie cleared, back to the sign-in page, nothing to verify any more", async () => {
      const { config } = setup(strategy)
      const { secret } = await enrol(new Client(config))
      const client = new Client(config)
      await client.signIn()
      const page = await (await client.request("/auth/two-factor")).text()
      expect(page).toContain('<input type="hidden" name="action" value="cancel">')
      expect(page).toContain("Cancel and sign in another way")
      const cancelled = await client.post("/auth/two-factor", { action: "cancel" })
      expect(cancelled.status).toBe(302)
      expect(cancelled.headers.get("location")).toBe("http://localhost:3000/auth/signin")
      expect(client.jar.get("authlib.two-factor")).toBeUndefined()
      vi.setSystemTime(T0 + 30_000)
      const late = await client.request("/auth/two-factor", { json: { csrfToken: await client.csrfToken(), action: "verify", code: codeAt(secret, 0) } })
      expect(await late.json()).toEqual({ error: "TwoFactorError", code: "SIGN_IN_MISSING" })
      expect(sessionCookie(client)).toBeUndefined()
    })

    it("an e-mail link is a first factor like any other: held back too", async () => {
      const { config, outbox } = setup(strategy)
      const byLink = async (c: Client) => {
        await requestLink(c, "alice@example.com")
        vi.setSystemTime(Date.now() + 61_000) // past the per-address mail cooldown
        return (await followLink(c, outbox.sent.at(-1)!.url)).done
      }
      const enrolling = new Client(config)
      const { backupCodes } = await enrol(enrolling, () => byLink(enrolling))
      const client = new Client(config)
      const done = await byLink(client)
      expect(done.headers.get("location")).toBe("http://localhost:3000/auth/two-factor")
      expect(sessionCookie(client)).toBeUndefined()
      const ok = await client.post("/auth/two-factor", { action: "verify", code: backupCodes[0]! })
      expect(ok.status).toBe(302)
      expect(await client.session()).toMatchObject({ user: { email: "alice@example.com" } })
    })

    it("20 parallel redemptions of one backup code give exactly one session", async () => {
      const { config } = setup(strategy, { rateLimit: false })
      const { backupCodes } = await enrol(new Client(config))
      const clients = await Promise.all(Array.from({ length: 20 }, async () => {
        const c = new Client(config)
        await c.signIn()
        return { c, csrf: await c.csrfToken() }
      }))
      const answers = await Promise.all(clients.map(({ c, csrf }) => c.request("/auth/two-factor", { json: { csrfToken: csrf, action: "verify", code: backupCodes[3]! } })))
      expect(answers.filter((r) => r.status === 302)).toHaveLength(1)
      expect(answers.filter((r) => r.status === 401)).toHaveLength(19)
      expect(clients.filter(({ c }) => sessionCookie(c) !== undefined)).toHaveLength(1)
    })

    it("limits guesses per pending sign-in and per user, without saying whether the password was right", async () => {
      const { config } = setup(strategy, { rateLimit: { store: new MemoryRateLimitStore() } })
      await enrol(new Client(config))
      const client = new Client(config)
      await client.signIn()
      const statuses: number[] = []
      for (let i = 0; i < 6; i++) statuses.push((await client.request("/auth/two-factor", { json: { csrfToken: await client.csrfToken(), action: "verify", code: `00000${i}` } })).status)
      expect(statuses).toEqual([401, 401, 401, 401, 401, 429])
    })

    it("counts guesses, not a user's own sign-ins: a right code clears the user's count", async () => {
      const { config } = setup(strategy, { rateLimit: { store: new MemoryRateLimitStore() } })
      const { backupCodes } = await enrol(new Client(config))
      for (const code of backupCodes.slice(0, 7)) {
        const client = new Client(config)
        await client.signIn()
        expect((await client.post("/auth/two-factor", { action: "verify", code })).status).toBe(302)
        expect(sessionCookie(client)).toBeDefined()
      }
    })
  })
}

describe("two-factor storage and configuration", () => {
  it("stores neither the secret nor any backup code in plain text", async () => {
    const { config, adapter } = setup("database")
    const { secret, backupCodes } = await enrol(new Client(config))
    const dump = JSON.stringify([...(adapter as TwoFactorAdapter).twoFactors.entries()].map(([k, v]) => [k, { ...v, codes: [...v.codes] }]))
    expect(dump).not.toContain(secret)
    for (const code of backupCodes) {
      expect(dump).not.toContain(code)
      expect(dump).not.toContain(code.replace(/-/g, ""))
    }
  })

  it("refuses to start with twoFactor set and an adapter without the twoFactor port", async () => {
    const { memoryAdapter } = await import("../../helpers/memory-adapter.js")
    const client = new Client(baseConfig({ adapter: memoryAdapter(), twoFactor: {} }))
    const res = await client.request("/auth/providers")
    expect(res.status).toBe(500)
    expect(await res.json()).toEqual({ error: "Configuration" })
  })

  it("answers TWO_FACTOR_OFF (404) when the option is not set", async () => {
    const client = new Client(baseConfig({ adapter: twoFactorAdapter() }))
    const res = await client.request("/auth/two-factor", { json: { csrfToken: await client.csrfToken(), action: "verify", code: "123456" } })
    expect(res.status).toBe(404)
    expect(await res.json()).toEqual({ error: "TwoFactorError", code: "TWO_FACTOR_OFF" })
  })
})
