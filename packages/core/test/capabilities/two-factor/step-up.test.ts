/**
 * Step-up through the public API, both session strategies: sessions record when and how the user
 * authenticated (RFC 8176 `amr`), `requireRecentAuthentication` asserts it, changes to the ways in
 * need a second factor verified within `twoFactor.freshAge`, and `action=step-up` refreshes it.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import type { AuthConfig } from "../../../src/index.js"
import { ReauthenticationRequired, requireRecentAuthentication, unlinkLinkedAccount } from "../../../src/index.js"
import { Client, config as baseConfig } from "../../helpers/harness.js"
import { twoFactorAdapter } from "../../helpers/two-factor-adapter.js"
import { adapterWithAccounts, advanceSeconds, appRequest, codeAt, enrolTotp, signInWithCode } from "../../helpers/two-factor.js"

const T0 = Date.UTC(2026, 10, 26, 12, 0, 0)

function setup(strategy: "jwt" | "database", over: Partial<AuthConfig> = {}) {
  const adapter = adapterWithAccounts()
  const config = baseConfig({ adapter, session: { strategy }, twoFactor: { issuer: "Example" }, rateLimit: false, ...over })
  return { adapter, config }
}

const sessionToken = (client: Client) => {
  const name = [...client.jar.keys()].find((n) => n.includes("session-token"))
  return name === undefined ? undefined : client.jar.get(name)
}

async function refusal(promise: Promise<unknown>): Promise<{ type: string; code: unknown }> {
  const err = await promise.then(() => null, (e: unknown) => e)
  expect(err).toBeInstanceOf(ReauthenticationRequired)
  return { type: (err as ReauthenticationRequired).type, code: (err as ReauthenticationRequired).code }
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] })
  vi.setSystemTime(T0)
})
afterEach(() => vi.useRealTimers())

for (const strategy of ["database", "jwt"] as const) {
  describe(`step-up, ${strategy} sessions`, () => {
    it("a session records when and how: password alone is pwd; password and code add otp and mfa at the time of the code", async () => {
      const { config } = setup(strategy)
      // Signed in with the password before two factors were turned on (in another browser).
      const first = new Client(config)
      expect((await first.signIn()).status).toBe(302)
      const secret = await enrolTotp(new Client(config))
      expect(await requireRecentAuthentication(appRequest(first), config)).toEqual({ userId: "user-1", authTime: T0 / 1000, amr: ["pwd"] })
      expect(await refusal(requireRecentAuthentication(appRequest(first), config, { secondFactor: true }))).toEqual({ type: "ReauthenticationRequired", code: "SECOND_FACTOR_REQUIRED" })
      const client = await signInWithCode(config, secret)
      const info = await requireRecentAuthentication(appRequest(client), config, { secondFactor: true })
      expect(info).toEqual({ userId: "user-1", authTime: T0 / 1000 + 30, amr: ["pwd", "otp", "mfa"] })
    })

    it("freshness runs out after freshAge; step-up with a new code renews it with a new session token", async () => {
      const { config } = setup(strategy, { twoFactor: { issuer: "Example", freshAge: 120 } })
      const secret = await enrolTotp(new Client(config))
      const client = await signInWithCode(config, secret)
      advanceSeconds(121)
      expect(await refusal(requireRecentAuthentication(appRequest(client), config, { secondFactor: true }))).toEqual({ type: "ReauthenticationRequired", code: "AUTHENTICATION_TOO_OLD" })
      const before = sessionToken(client)
      const res = await client.request("/auth/two-factor", { json: { csrfToken: await client.csrfToken(), action: "step-up", code: codeAt(secret) } })
      expect(res.status).toBe(200)
      expect(await res.json()).toEqual({ authTime: Math.floor(Date.now() / 1000) })
      const after = sessionToken(client)
      expect(after).toBeDefined()
      expect(after).not.toEqual(before)
      expect((await requireRecentAuthentication(appRequest(client), config, { secondFactor: true })).amr).toEqual(["pwd", "otp", "mfa"])
      expect(await client.session()).toMatchObject({ user: { email: "alice@example.com" } })
    })

    it("step-up refuses a wrong or reused code and a visitor, and leaves the session as it was", async () => {
      const { config } = setup(strategy)
      const secret = await enrolTotp(new Client(config))
      const client = await signInWithCode(config, secret)
      advanceSeconds(700)
      const csrfToken = await client.csrfToken()
      const reused = await client.request("/auth/two-factor", { json: { csrfToken, action: "step-up", code: codeAt(secret, -23) } })
      expect(reused.status).toBe(401)
      expect(await reused.json()).toEqual({ error: "TwoFactorError", code: "CODE_INVALID" })
      expect(await refusal(requireRecentAuthentication(appRequest(client), config, { secondFactor: true }))).toMatchObject({ code: "AUTHENTICATION_TOO_OLD" })
      const visitor = new Client(config)
      const anonymous = await visitor.request("/auth/two-factor", { json: { csrfToken: await visitor.csrfToken(), action: "step-up", code: codeAt(secret) } })
      expect(anonymous.status).toBe(401)
      expect(await anonymous.json()).toEqual({ error: "SessionRequired", code: "SESSION_MISSING" })
    })

    it("unlinking an account needs a fresh second factor when two factors are on (403 ReauthenticationRequired), then works", async () => {
      const { config, adapter } = setup(strategy)
      adapter.accounts.push({ userId: "user-1", provider: "google", providerAccountId: "g-1", type: "oidc" })
      const secret = await enrolTotp(new Client(config))
      const client = await signInWithCode(config, secret)
      advanceSeconds(601)
      expect(await refusal(unlinkLinkedAccount(appRequest(client), config, { provider: "github" }))).toMatchObject({ code: "AUTHENTICATION_TOO_OLD" })
      expect(adapter.accounts.some((a) => a.provider === "github")).toBe(true)
      expect((await client.request("/auth/two-factor", { json: { csrfToken: await client.csrfToken(), action: "step-up", code: codeAt(secret) } })).status).toBe(200)
      expect(await unlinkLinkedAccount(appRequest(client), config, { provider: "github" })).toMatchObject({ provider: "github" })
      expect(adapter.accounts.some((a) => a.provider === "github")).toBe(false)
    })

    it("a user without two factors unlinks without a second factor", async () => {
      const { config, adapter } = setup(strategy)
      adapter.accounts.push({ userId: "user-1", provider: "google", providerAccountId: "g-1", type: "oidc" })
      const client = new Client(config)
      await client.signIn()
      advanceSeconds(3600)
      expect(await unlinkLinkedAccount(appRequest(client), config, { provider: "github" })).toMatchObject({ provider: "github" })
    })
  })
}

describe("step-up, JWT claims", () => {
  it("a jwt callback that copies session-update data into the token cannot make a session fresh or two-factor", async () => {
    const { config } = setup("jwt", {
      callbacks: { jwt: ({ token, trigger, session }) => (trigger === "update" ? { ...token, ...(session as object) } : token) },
    })
    await enrolTotp(new Client(config))
    // A one-factor session of the same app (same secret): the password alone, where two factors are not asked.
    const onePassword = new Client({ ...config, twoFactor: undefined })
    await onePassword.signIn()
    advanceSeconds(3600)
    const forged = { auth_time: Math.floor(Date.now() / 1000), amr: ["pwd", "otp", "mfa"] }
    const res = await onePassword.request("/auth/session", { json: { csrfToken: await onePassword.csrfToken(), data: forged } })
    expect(res.status).toBe(200)
    expect(await refusal(requireRecentAuthentication(appRequest(onePassword), config, { secondFactor: true }))).toMatchObject({ code: "SECOND_FACTOR_REQUIRED" })
    expect((await requireRecentAuthentication(appRequest(onePassword), config, { maxAge: 7200 })).authTime).toBe(T0 / 1000)
  })
})

describe("step-up configuration", () => {
  it("refuses to start with a twoFactor.freshAge that is not a whole number of seconds above 0", async () => {
    for (const freshAge of [0, -5, 1.5, Number.NaN]) {
      const client = new Client(baseConfig({ adapter: twoFactorAdapter(), twoFactor: { freshAge } }))
      const res = await client.request("/auth/providers")
      expect(res.status, String(freshAge)).toBe(500)
    }
  })
})
