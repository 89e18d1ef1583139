/**
 * Step-up and passkeys, through the public API in both session strategies: a passkey sign-in with
 * user verification records `hwk`, `user` and `mfa`; for a user with two factors enabled, adding a
 * passkey while signed in and deleting one need a second factor verified within `twoFactor.freshAge`
 * (refused with `ReauthenticationRequired`, nothing stored or deleted), and pass after a step-up.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { deletePasskey, ReauthenticationRequired, requireRecentAuthentication, stepUpTwoFactor, TwoFactorError } from "../../../src/index.js"
import { alice, type Client } from "../../helpers/harness.js"
import { twoFactorAdapter } from "../../helpers/two-factor-adapter.js"
import { answer, options, passkeyAdapter, registerPasskey, setup as passkeySetup, signInWithPasskey, signOutLocally } from "../webauthn/setup.js"
import { seedPasskey } from "../passkey-management/helpers.js"
import { advanceSeconds, appRequest, codeAt, enrolTotp } from "../../helpers/two-factor.js"

const T0 = Date.UTC(2026, 10, 26, 12, 0, 0)

function setup(strategy: "jwt" | "database", userVerification: "required" | "preferred" = "required") {
  const adapter = twoFactorAdapter(passkeyAdapter())
  adapter.users.set(alice.id!, { ...alice, id: alice.id!, email: alice.email!, emailVerified: null })
  const s = passkeySetup(strategy, { adapter, twoFactor: { issuer: "Example" }, rateLimit: false }, { userVerification })
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
  
    it("a passkey steps up a password session: options bound to step-up, the session re-issued with hwk and mfa, the change then passes", async () => {
      const s = setup(strategy)
      expect((await registerPasskey(s)).status).toBe(302)
      await enrolTotp(s.client)
      advanceSeconds(601)
      const { body } = await options(s.client, "?action=register")
      const refused = await answer(s.client, "register", s.device.register(body.options))
      expect(refused.headers.get("location")).toContain("error=ReauthenticationRequired&code=AUTHENTICATION_TOO_OLD")
      // Options for a sign-in are no step-up: refused, the session as it was.
      const signInOptions = (await options(s.client, "?action=authenticate")).body.options
      const json = async (data: unknown) => s.client.request("/auth/two-factor", { json: { csrfToken: await s.client.csrfToken(), action: "step-up", data } })
      const wrong = await json(s.device.authenticate(signInOptions, s.device.credentials[0]))
      expect(wrong.status).toBe(400)
      expect(await wrong.json()).toEqual({ error: "WebAuthnVerificationError", code: "CHALLENGE_INVALID" })

      const stepUpOptions = (await options(s.client, "?action=authenticate&purpose=step-up")).body.options
      expect(stepUpOptions.allowCredentials?.map((c) => c.id)).toEqual([s.device.credentials[0]!.id.toString("base64url")])
      const done = await json(s.device.authenticate(stepUpOptions, s.device.credentials[0]))
      expect(done.status).toBe(200)
      expect((await requireRecentAuthentication(appRequest(s.client), s.config, { secondFactor: true })).amr).toEqual(["pwd", "otp", "mfa", "hwk", "user"])
      const again = await options(s.client, "?action=register")
      expect((await answer(s.client, "register", s.device.register(again.body.options))).status).toBe(302)
      expect(s.adapter.authenticators.size).toBe(2)
    })

    it("a passkey without user verification does not step up a session a passkey signed in (SAME_FACTOR); a code does", async () => {
      const s = setup(strategy, "preferred")
      expect((await registerPasskey(s)).status).toBe(302)
      const secret = await enrolTotp(s.client)
      signOutLocally(s.client)
      advanceSeconds(30)
      // Signed in with the passkey (no user verification: held), finished with a code.
      expect((await signInWithPasskey(s)).headers.get("location")).toContain("/auth/two-factor")
      expect((await s.client.post("/auth/two-factor", { action: "verify", code: codeAt(secret) })).status).toBe(302)
      advanceSeconds(601)
      const { body } = await options(s.client, "?action=authenticate&purpose=step-up")
      const err = await stepUpTwoFactor(appRequest(s.client), s.config, { data: s.device.authenticate(body.options, s.device.credentials[0]) }).then(() => null, (e: unknown) => e)
      expect(err).toBeInstanceOf(TwoFactorError)
      expect((err as TwoFactorError).code).toBe("SAME_FACTOR")
      const done = await stepUpTwoFactor(appRequest(s.client), s.config, { code: codeAt(secret) })
      expect(done.setCookie.length).toBeGreaterThan(0)
    })
  })
}
