/**
 * A held sign-in writes nothing, and an enrolment belongs to the sign-in that made it, through the
 * public API, both session strategies:
 * - `twoFactor.required`: someone holding only the password neither sees the secret the owner's
 *   sign-in shows nor plants one the owner then confirms; nothing is stored before confirmation; a
 *   new enrolment in the same sign-in replaces its secret; a new user is created only when its
 *   enrolment is confirmed;
 * - a password sign-in that would link a new account to a user with two factors, held for the
 *   code and never completed, has linked nothing and updated no user; completed, it links.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import type { AuthConfig, TwoFactorOptions, User } from "../../../src/index.js"
import { getPendingTwoFactor } from "../../../src/index.js"
import { Client, config as baseConfig, credentials, ORIGIN } from "../../helpers/harness.js"
import { twoFactorAdapter } from "../../helpers/two-factor-adapter.js"
import { appRequest, codeAt, enrolTotp, sessionCookie } from "../../helpers/two-factor.js"

const T0 = Date.UTC(2026, 10, 26, 12, 0, 0)

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] })
  vi.setSystemTime(T0)
})
afterEach(() => vi.useRealTimers())

const ALICE = { id: "user-1", name: "Alice", email: "alice@example.com", emailVerified: new Date(T0) }

function setup(strategy: "jwt" | "database", twoFactor: TwoFactorOptions = { required: true }, over: Partial<AuthConfig> = {}) {
  const adapter = twoFactorAdapter()
  adapter.users.set(ALICE.id, { ...ALICE })
  return { adapter, config: baseConfig({ adapter, session: { strategy }, rateLimit: false, twoFactor: { issuer: "Example", ...twoFactor }, ...over }) }
}

const secretOnPage = async (client: Client) => (await (await client.request("/auth/two-factor")).text()).match(/<code data-secret>([A-Z2-7]+)<\/code>/)?.[1]

async function held(client: Client): Promise<void> {
  expect((await client.signIn()).headers.get("location")).toBe(`${ORIGIN}/auth/two-factor`)
  expect(sessionCookie(client)).toBeUndefined()
}

async function confirm(client: Client, code: string) {
  const res = await client.request("/auth/two-factor", { json: { csrfToken: await client.csrfToken(), action: "totp-confirm", code } })
  return { status: res.status, body: (await res.json()) as Record<string, unknown> }
}

for (const strategy of ["database", "jwt"] as const) {
  describe(`an enrolment forced by twoFactor.required belongs to its sign-in, ${strategy} sessions`, () => {
    it("the attacker's held sign-in never sees the owner's secret, and the owner never sees (or confirms) the attacker's", async () => {
      const { adapter, config } = setup(strategy)
      const owner = new Client(config)
      const attacker = new Client(config)
      await held(owner)
      expect(await getPendingTwoFactor(appRequest(owner), config)).toEqual({ accepts: ["enrol"] })
      const ownerSecret = (await secretOnPage(owner))!
      // Nothing is stored while enrolling.
      expect(await adapter.getTwoFactor(ALICE.id)).toBeNull()
      await held(attacker)
      const attackerSecret = (await secretOnPage(attacker))!
      expect(attackerSecret).not.toBe(ownerSecret)
      // The owner's page still shows the owner's own secret, not the attacker's planted one.
      expect(await secretOnPage(owner)).toBe(ownerSecret)
      // The attacker cannot confirm the owner's secret (it is not his sign-in's) ...
      expect(await confirm(attacker, codeAt(ownerSecret))).toEqual({ status: 401, body: { error: "TwoFactorError", code: "CODE_INVALID" } })
      // ... the owner confirms hers, and the attacker's own secret is worth nothing after that.
      const done = await confirm(owner, codeAt(ownerSecret))
      expect(done).toMatchObject({ status: 200, body: { enabled: true } })
      expect(sessionCookie(owner)).toBeDefined()
      vi.setSystemTime(T0 + 30_000)
      expect(await confirm(attacker, codeAt(attackerSecret))).toEqual({ status: 409, body: { error: "TwoFactorError", code: "ALREADY_ENABLED" } })
      expect(sessionCookie(attacker)).toBeUndefined()
      // The account's second factor is the owner's: her next code works, the attacker's does not.
      const again = new Client(config)
      await held(again)
      vi.setSystemTime(T0 + 60_000)
      expect((await again.post("/auth/two-factor", { action: "verify", code: codeAt(attackerSecret) })).headers.get("location")).toContain("code=CODE_INVALID")
      expect((await again.post("/auth/two-factor", { action: "verify", code: codeAt(ownerSecret) })).headers.get("location")).toBe(`${ORIGIN}/`)
    })

    it("totp-enroll in the same sign-in replaces its secret: the old one's code no longer confirms", async () => {
      const { config } = setup(strategy)
      const client = new Client(config)
      await held(client)
      const first = (await secretOnPage(client))!
      const enrolled = await client.request("/auth/two-factor", { json: { csrfToken: await client.csrfToken(), action: "totp-enroll" } })
      const { secret: second } = (await enrolled.json()) as { secret: string }
      expect(second).not.toBe(first)
      expect(await secretOnPage(client)).toBe(second)
      expect(await confirm(client, codeAt(first))).toEqual({ status: 401, body: { error: "TwoFactorError", code: "CODE_INVALID" } })
      expect(await confirm(client, codeAt(second))).toMatchObject({ status: 200, body: { enabled: true } })
    })

    it("a tampered pending cookie is no held sign-in: there is nothing to confirm", async () => {
      const { config } = setup(strategy)
      const client = new Client(config)
      await held(client)
      await secretOnPage(client)
      const name = [...client.jar.keys()].find((n) => n.includes("two-factor"))!
      const value = client.jar.get(name)!
      client.jar.set(name, `${value.slice(0, -4)}AAAA`)
      expect(await confirm(client, "123456")).toEqual({ status: 401, body: { error: "SessionRequired", code: "SESSION_MISSING" } })
    })
  })
}

describe("a new user held to enrol is created only when the enrolment is confirmed (database sessions)", () => {
  it("no user, account or session before; all of them after", async () => {
    const bob: User = { id: "bob-from-authorize", name: "Bob", email: "bob@example.com" }
    const provider = credentials({ authorize: async (c) => (c.username === "bob" ? { ...bob } : null) })
    const { adapter, config } = setup("database", { required: true }, { providers: [provider] })
    const client = new Client(config)
    expect((await client.signIn("bob", "x")).headers.get("location")).toBe(`${ORIGIN}/auth/two-factor`)
    const secret = (await secretOnPage(client))!
    expect(secret).toMatch(/^[A-Z2-7]{32}$/)
    expect([...adapter.users.values()].map((u) => u.email)).toEqual([ALICE.email])
    expect(adapter.accounts).toEqual([])
    expect(adapter.writes()).toEqual([])
    expect(await confirm(client, codeAt(secret))).toMatchObject({ status: 200, body: { enabled: true } })
    const created = [...adapter.users.values()].find((u) => u.email === bob.email)!
    expect(created).toBeDefined()
    expect(await adapter.getTwoFactor(created.id)).toMatchObject({ enabled: true })
    expect(await client.session()).toMatchObject({ user: { email: bob.email } })
  })
})

describe("a held sign-in writes nothing (database sessions: credentials accounts are stored)", () => {
  it("a password sign-in that links a new account to a user with two factors links it only once the code passes", async () => {
    // Alice enabled TOTP; her password account is then removed (as after an unlink), so the next
    // password sign-in joins her user by its address: a link, which a held sign-in must not store yet.
    const { adapter, config } = setup("database", {})
    const secret = await enrolTotp(new Client(config))
    adapter.accounts.splice(0)
    const client = new Client(config)
    const before = adapter.writes().length
    await held(client)
    expect(adapter.writes().slice(before)).toEqual([])
    expect(adapter.accounts).toEqual([])
    // Abandoned, nothing was linked; completed, the account joins Alice now.
    vi.setSystemTime(T0 + 30_000)
    expect((await client.post("/auth/two-factor", { action: "verify", code: codeAt(secret) })).headers.get("location")).toBe(`${ORIGIN}/`)
    expect(adapter.accounts.map((a) => [a.provider, a.userId])).toEqual([["credentials", ALICE.id]])
  })
})
