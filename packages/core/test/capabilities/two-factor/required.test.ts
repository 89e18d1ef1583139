/**
 * `twoFactor.required` through the public API, in both session strategies: a user without two
 * factors whom the policy names gets no session after the first factor, only a sign-in held to
 * enrol; the page shows the QR code and the secret; `totp-enroll` / `totp-confirm` act for that
 * held sign-in; a confirmed enrolment completes it and answers the backup codes once. Nothing else
 * finishes it (a code, a passkey), and a policy that throws lets nobody through.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import type { AuthConfig, TwoFactorOptions } from "../../../src/index.js"
import { importTotpKey, totp } from "../../../src/capabilities/two-factor/totp.js"
import { Client, config as baseConfig, ORIGIN } from "../../helpers/harness.js"
import { twoFactorAdapter } from "../../helpers/two-factor-adapter.js"
import { sessionCookie } from "../../helpers/two-factor.js"

const T0 = Date.UTC(2026, 10, 26, 12, 0, 0)

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] })
  vi.setSystemTime(T0)
})
afterEach(() => vi.useRealTimers())

function setup(strategy: "jwt" | "database", twoFactor: TwoFactorOptions = { required: true }, over: Partial<AuthConfig> = {}) {
  const adapter = twoFactorAdapter()
  // JWT sessions store no credentials user: the app's `authorize` answers its own stored user's id.
  if (strategy === "jwt") adapter.users.set("user-1", { id: "user-1", name: "Alice", email: "alice@example.com", emailVerified: new Date(T0) })
  return { adapter, config: baseConfig({ adapter, session: { strategy }, twoFactor: { issuer: "Example", ...twoFactor }, ...over }) }
}

const secretOnPage = (page: string) => page.match(/<code data-secret>([A-Z2-7]+)<\/code>/)?.[1]

async function held(client: Client): Promise<void> {
  const first = await client.signIn()
  expect(first.status).toBe(302)
  expect(first.headers.get("location")).toBe(`${ORIGIN}/auth/two-factor`)
  expect(sessionCookie(client)).toBeUndefined()
  expect(await client.session()).toBeNull()
}

async function json(client: Client, body: Record<string, unknown>) {
  const res = await client.request("/auth/two-factor", { json: { csrfToken: await client.csrfToken(), ...body } })
  return { res, status: res.status, body: (await res.json()) as Record<string, unknown> }
}

for (const strategy of ["database", "jwt"] as const) {
  describe(`twoFactor.required, ${strategy} sessions`, () => {
    it("holds a user without two factors; the page shows the QR code and the secret; confirming on it signs in and shows the backup codes once", async () => {
      const { config } = setup(strategy)
      const client = new Client(config)
      await held(client)
      const page = await client.request("/auth/two-factor")
      expect(page.status).toBe(200)
      const text = await page.text()
      expect(text).toContain("<svg")
      expect(text).toContain('value="totp-confirm"')
      expect(text).not.toContain('value="verify"')
      const secret = secretOnPage(text)!
      expect(secret).toMatch(/^[A-Z2-7]{32}$/)
      // A reload shows the same secret: the QR code the user scanned stays good.
      expect(secretOnPage(await (await client.request("/auth/two-factor")).text())).toBe(secret)
      // A mistyped code goes back to the page, with the same secret.
      const wrong = await client.post("/auth/two-factor", { action: "totp-confirm", code: "000000" })
      expect(wrong.headers.get("location")).toBe(`${ORIGIN}/auth/two-factor?error=TwoFactorError&code=CODE_INVALID`)
      expect(secretOnPage(await (await client.request("/auth/two-factor?error=TwoFactorError&code=CODE_INVALID")).text())).toBe(secret)
      expect(sessionCookie(client)).toBeUndefined()

      const done = await client.post("/auth/two-factor", { action: "totp-confirm", code: totp(importTotpKey(secret), Date.now()) })
      expect(done.status).toBe(200)
      const codes = [...(await done.text()).matchAll(/<li><code>([A-Z0-9-]+)<\/code><\/li>/g)].map((m) => m[1])
      expect(codes).toHaveLength(10)
      expect(done.headers.get("content-security-policy")).toContain("default-src 'none'")
      expect(sessionCookie(client)).toBeDefined()
      expect(client.jar.get("authlib.two-factor")).toBeUndefined()
      expect(await client.session()).toMatchObject({ user: { email: "alice@example.com" } })

      // From now on the user has two factors: the next sign-in asks for a code, and a backup code works.
      const next = new Client(config)
      await held(next)
      expect(await (await next.request("/auth/two-factor")).text()).toContain('value="verify"')
      expect((await next.post("/auth/two-factor", { action: "verify", code: codes[0]! })).status).toBe(302)
      expect(await next.session()).toMatchObject({ user: { email: "alice@example.com" } })
    })

    it("totp-enroll and totp-confirm work as JSON for the held sign-in; confirm answers the backup codes and the session", async () => {
      const { config } = setup(strategy)
      const client = new Client(config)
      await held(client)
      const enrolled = await json(client, { action: "totp-enroll" })
      expect(enrolled.status).toBe(200)
      expect(enrolled.body.uri).toMatch(/^otpauth:\/\/totp\/Example:alice%40example\.com\?secret=/)
      const confirmed = await json(client, { action: "totp-confirm", code: totp(importTotpKey(enrolled.body.secret as string), Date.now()) })
      expect(confirmed.status).toBe(200)
      expect(confirmed.body).toMatchObject({ enabled: true, url: `${ORIGIN}/` })
      expect(confirmed.body.backupCodes).toHaveLength(10)
      expect(sessionCookie(client)).toBeDefined()
      expect(await client.session()).toMatchObject({ user: { email: "alice@example.com" } })
      // Answered once: the held sign-in is gone.
      expect((await json(client, { action: "totp-confirm", code: "123456" })).body).toEqual({ error: "TwoFactorError", code: "ALREADY_ENABLED" })
    })

    it("nothing but enrolment finishes it: a code, a passkey, and the management actions are refused", async () => {
      const { config } = setup(strategy)
      const client = new Client(config)
      await held(client)
      const { body } = await json(client, { action: "totp-enroll" })
      const code = totp(importTotpKey(body.secret as string), Date.now())
      expect((await json(client, { action: "verify", code })).body).toEqual({ error: "TwoFactorError", code: "CODE_INVALID" })
      expect((await json(client, { action: "verify-passkey", data: {} })).body).toEqual({ error: "TwoFactorError", code: "NOT_ENABLED" })
      expect((await json(client, { action: "disable", code })).status).toBe(401)
      expect((await json(client, { action: "backup-codes", code })).status).toBe(401)
      expect(sessionCookie(client)).toBeUndefined()
      // Without the held sign-in, enrolment needs a session as before.
      expect((await json(new Client(config), { action: "totp-enroll" })).body).toMatchObject({ error: "SessionRequired" })
    })

    it("a function decides per user; false lets the sign-in through, a throw lets nobody through", async () => {
      const seen: unknown[] = []
      const asked = setup(strategy, { required: (user) => (seen.push(user.email), user.email === "alice@example.com") })
      await held(new Client(asked.config))
      expect(seen).toEqual(["alice@example.com"])

      const notRequired = new Client(setup(strategy, { required: async () => false }).config)
      expect((await notRequired.signIn()).headers.get("location")).toBe(`${ORIGIN}/`)
      expect(sessionCookie(notRequired)).toBeDefined()

      const throwing = new Client(setup(strategy, { required: () => { throw new Error("policy store down") } }).config)
      const refused = await throwing.signIn()
      expect(refused.headers.get("location")).toContain("error=Configuration")
      expect(sessionCookie(throwing)).toBeUndefined()
      expect(throwing.jar.get("authlib.two-factor")).toBeUndefined()
    })
  })
}

describe("twoFactor.required configuration", () => {
  it("refuses to start with a value that is neither a boolean nor a function", async () => {
    const { config } = setup("database", { required: "yes" as never })
    const res = await new Client(config).request("/auth/providers")
    expect(res.status).toBe(500)
    expect(await res.json()).toEqual({ error: "Configuration" })
  })
})
