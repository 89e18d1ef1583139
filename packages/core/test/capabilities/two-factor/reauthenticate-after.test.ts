/**
 * `twoFactor.reauthenticateAfter` through the public API, both session strategies: a session's
 * second factor stops counting that many seconds after it was verified. `requireRecentAuthentication`
 * with `secondFactor`, the changes to the ways in, and the sign-in hold of a signed-in user then ask
 * for one again, while the session itself stays; step-up makes it count again. And step-up, which
 * re-issues the session, never extends `session.absoluteMaxAge`.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import type { AuthConfig } from "../../../src/index.js"
import { ReauthenticationRequired, requireRecentAuthentication, unlinkLinkedAccount } from "../../../src/index.js"
import { alice, Client, ORIGIN, config as baseConfig, recordingLogger } from "../../helpers/harness.js"
import { twoFactorAdapter } from "../../helpers/two-factor-adapter.js"
import { passkeyAdapter, registerPasskey, setup as passkeySetup, signInWithPasskey, signOutLocally } from "../webauthn/setup.js"
import { adapterWithAccounts, advanceSeconds, appRequest, codeAt, enrolTotp, signInWithCode } from "../../helpers/two-factor.js"

const T0 = Date.UTC(2026, 10, 26, 12, 0, 0)
const HOUR = 3600
const DAY = 24 * HOUR

function setup(strategy: "jwt" | "database", over: Partial<AuthConfig> = {}) {
  const adapter = adapterWithAccounts()
  const config = baseConfig({ adapter, session: { strategy }, twoFactor: { issuer: "Example", reauthenticateAfter: HOUR, freshAge: 2 * HOUR }, rateLimit: false, ...over })
  return { adapter, config }
}

async function refusal(promise: Promise<unknown>): Promise<unknown> {
  const err = await promise.then(() => null, (e: unknown) => e)
  expect(err).toBeInstanceOf(ReauthenticationRequired)
  return (err as ReauthenticationRequired).code
}

const stepUp = async (client: Client, secret: string) =>
  (await client.request("/auth/two-factor", { json: { csrfToken: await client.csrfToken(), action: "step-up", code: codeAt(secret) } })).status

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] })
  vi.setSystemTime(T0)
})
afterEach(() => vi.useRealTimers())

for (const strategy of ["database", "jwt"] as const) {
  describe(`twoFactor.reauthenticateAfter, ${strategy} sessions`, () => {
    it("the second factor counts until reauthenticateAfter, then secondFactor checks ask for one again while the session stays; step-up counts again", async () => {
      const { config } = setup(strategy)
      const secret = await enrolTotp(new Client(config))
      const client = await signInWithCode(config, secret)
      advanceSeconds(HOUR)
      expect((await requireRecentAuthentication(appRequest(client), config, { secondFactor: true, maxAge: DAY })).amr).toContain("mfa")
      advanceSeconds(1)
      expect(await refusal(requireRecentAuthentication(appRequest(client), config, { secondFactor: true, maxAge: DAY }))).toBe("SECOND_FACTOR_REQUIRED")
      // The session itself stays: it reads, and may act where no second factor is asked.
      expect(await client.session()).toMatchObject({ user: { email: "alice@example.com" } })
      expect((await requireRecentAuthentication(appRequest(client), config, { maxAge: DAY })).userId).toBe("user-1")
      expect(await stepUp(client, secret)).toBe(200)
      expect((await requireRecentAuthentication(appRequest(client), config, { secondFactor: true, maxAge: DAY })).amr).toContain("mfa")
    })

    it("the changes to the ways in ask for a second factor again past it, even within a longer freshAge", async () => {
      const { config, adapter } = setup(strategy)
      adapter.accounts.push({ userId: "user-1", provider: "google", providerAccountId: "g-1", type: "oidc" })
      const secret = await enrolTotp(new Client(config))
      const client = await signInWithCode(config, secret)
      advanceSeconds(HOUR + 1)
      expect(await refusal(unlinkLinkedAccount(appRequest(client), config, { provider: "github" }))).toBe("SECOND_FACTOR_REQUIRED")
      expect(adapter.accounts.some((a) => a.provider === "github")).toBe(true)
      expect(await stepUp(client, secret)).toBe(200)
      expect(await unlinkLinkedAccount(appRequest(client), config, { provider: "github" })).toMatchObject({ provider: "github" })
    })

    it("a signed-in user whose second factor still counts is not held again by a new sign-in; once it stops counting, they are", async () => {
      const { config } = setup(strategy)
      const secret = await enrolTotp(new Client(config))
      const fresh = await signInWithCode(config, secret)
      const stale = await signInWithCode(config, secret)
      expect((await fresh.signIn()).headers.get("location")).not.toBe(`${ORIGIN}/auth/two-factor`)
      advanceSeconds(HOUR + 1)
      expect((await stale.signIn()).headers.get("location")).toBe(`${ORIGIN}/auth/two-factor`)
    })

    it("a passkey counting as two factors stops counting too, and the passkey session stays", async () => {
      const adapter = twoFactorAdapter(passkeyAdapter())
      adapter.users.set(alice.id!, { ...alice, id: alice.id!, email: alice.email!, emailVerified: null })
      const s = passkeySetup(strategy, { adapter, twoFactor: { issuer: "Example", reauthenticateAfter: HOUR }, rateLimit: false })
      expect((await registerPasskey(s)).status).toBe(302)
      signOutLocally(s.client)
      expect((await signInWithPasskey(s)).status).toBe(302)
      advanceSeconds(HOUR)
      expect((await requireRecentAuthentication(appRequest(s.client), s.config, { secondFactor: true, maxAge: DAY })).amr).toContain("mfa")
      advanceSeconds(1)
      expect(await refusal(requireRecentAuthentication(appRequest(s.client), s.config, { secondFactor: true, maxAge: DAY }))).toBe("SECOND_FACTOR_REQUIRED")
      expect(await s.client.session()).toMatchObject({ user: { email: alice.email } })
    })

    it("off by default: a second factor counts for as long as the session lasts", async () => {
      const { config } = setup(strategy, { twoFactor: { issuer: "Example" } })
      const secret = await enrolTotp(new Client(config))
      const client = await signInWithCode(config, secret)
      advanceSeconds(20 * DAY)
      expect((await requireRecentAuthentication(appRequest(client), config, { secondFactor: true, maxAge: 30 * DAY })).amr).toContain("mfa")
    })

    it("step-up re-issues the session but never past session.absoluteMaxAge", async () => {
      const { config } = setup(strategy, { session: { strategy, maxAge: 7 * DAY, updateAge: 0, absoluteMaxAge: DAY } })
      const secret = await enrolTotp(new Client(config))
      const client = await signInWithCode(config, secret)
      const end = T0 + 30_000 + DAY * 1000
      advanceSeconds(DAY - HOUR)
      expect(await stepUp(client, secret)).toBe(200)
      const session = (await client.session()) as { expires: string }
      expect(Date.parse(session.expires)).toBe(end)
      // The session started when the code completed the sign-in (T0 + 30 s): it ends a day after that.
      advanceSeconds(HOUR - 1)
      expect(await client.session()).not.toBeNull()
      advanceSeconds(1)
      expect(await client.session()).toBeNull()
      expect(await requireRecentAuthentication(appRequest(client), config, { maxAge: DAY }).catch((e: unknown) => (e as { type: string }).type)).toBe("SessionRequired")
    })

    it("an invalid reauthenticateAfter stops start-up with the option named", async () => {
      for (const reauthenticateAfter of [0, -5, 1.5, Number.NaN, "3600"]) {
        const { logger, entries } = recordingLogger()
        const client = new Client(baseConfig({ adapter: twoFactorAdapter(), logger, session: { strategy }, twoFactor: { reauthenticateAfter: reauthenticateAfter as number } }))
        expect((await client.request("/auth/providers")).status, String(reauthenticateAfter)).toBe(500)
        expect(entries.find((e) => e.level === "error")?.message[0]).toMatchObject({ code: "SESSION_OPTION_INVALID", message: expect.stringContaining("twoFactor.reauthenticateAfter") })
      }
    })
  })
}
