/**
 * Step-up and passkeys, through the public API in both session strategies: a passkey sign-in with
 * user verification records `hwk`, `user` and `mfa`; for a user with two factors enabled, adding a
 * passkey while signed in and deleting one need a second factor verified within `twoFactor.freshAge`
 * (refused with `ReauthenticationRequired`, nothing stored or deleted), and pass after a step-up.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { deletePasskey, ReauthenticationRequired, requireRecentAuthentication } from "../../../src/index.js"
import { alice, type Client } from "../../helpers/harness.js"
import { twoFactorAdapter } from "../../helpers/two-factor-adapter.js"
import { answer, options, passkeyAdapter, registerPasskey, setup as passkeySetup, signInWithPasskey, signOutLocally } from "../../flows/webauthn/setup.js"
import { seedPasskey } from "../../passkeys/helpers.js"
import { advanceSeconds, appRequest, codeAt, enrolTotp } from "../../helpers/two-factor.js"

const T0 = Date.UTC(2026, 10, 26, 12, 0, 0)

function setup(strategy: "jwt" | "database") {
  const adapter = twoFactorAdapter(passkeyAdapter())
  adapter.users.set(alice.id!, { ...alice, id: alice.id!, email: alice.email!, emailVerified: null })
  const s = passkeySetup(strategy, { adapter, twoFactor: { issuer: "Example" }, rateLimit: false })
  return { ...s, adapter }
}


async function stepUp(client: Client, secret: string): Promise<Response> {
  return client.request("/auth/two-factor", { json: { csrfToken: await client.csrfToken(), action: "step-up", code: codeAt(secret) } })
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] })
  vi.setSystemTime(T0)
})
afterEach(() => vi.useRealTimers())

for (const strategy of ["database", "jwt"] as const) {
  describe(`step-up and passkeys, ${strategy} sessions`, () => {
    it("a passkey sign-in with user verification records hwk, user and mfa", async () => {
      const s = setup(strategy)
      expect((await registerPasskey(s)).status).toBe(302)
      signOutLocally(s.client)
      advanceSeconds(60)
      expect((await signInWithPasskey(s)).status).toBe(302)
      expect(await requireRecentAuthentication(appRequest(s.client), s.config, { secondFactor: true })).toEqual({ userId: alice.id, authTime: T0 / 1000 + 60, amr: ["hwk", "user", "mfa"] })
    })

    it("adding a passkey needs a fresh second factor: refused and nothing stored, then added after a step-up", async () => {
      const s = setup(strategy)
      const secret = await enrolTotp(s.client)
      // The enrolment's code was a second factor; it is stale once freshAge (600 s) has passed.
      advanceSeconds(601)
      const { body } = await options(s.client, "?action=register")
      const refused = await answer(s.client, "register", s.device.register(body.options))
      expect(refused.status).toBe(302)
      expect(refused.headers.get("location")).toContain("error=ReauthenticationRequired")
      expect(s.adapter.authenticators.size).toBe(0)
      expect((await stepUp(s.client, secret)).status).toBe(200)
      const again = await options(s.client, "?action=register")
      expect((await answer(s.client, "register", s.device.register(again.body.options))).status).toBe(302)
      expect(s.adapter.authenticators.size).toBe(1)
    })

    it("deleting a passkey needs a fresh second factor: refused and kept, deleted after a step-up", async () => {
      const s = setup(strategy)
      const secret = await enrolTotp(s.client)
      seedPasskey(s.adapter, alice.id!)
      const id = seedPasskey(s.adapter, alice.id!)
      const doomed = Buffer.from(id, "base64url").toString("base64")
      advanceSeconds(601)
      const err = await deletePasskey(appRequest(s.client), s.config, { id }).then(() => null, (e: unknown) => e)
      expect(err).toBeInstanceOf(ReauthenticationRequired)
      expect((err as ReauthenticationRequired).code).toBe("AUTHENTICATION_TOO_OLD")
      expect(s.adapter.authenticators.has(doomed)).toBe(true)
      expect((await stepUp(s.client, secret)).status).toBe(200)
      await deletePasskey(appRequest(s.client), s.config, { id })
      expect(s.adapter.authenticators.has(doomed)).toBe(false)
    })
  })
}
