/**
 * The two-factor actions that end in a session, as server functions, in both session strategies:
 * `completeTwoFactorSignIn` (a code) and `completeTwoFactorSignInWithPasskey` complete a pending
 * sign-in from the app's own page, `stepUpTwoFactor` re-issues a session as fresh. Each answers the
 * `Set-Cookie` values the app must send; a refusal answers none and changes nothing. They share the
 * route's checks: a code used through one is refused through the other, guesses count together.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import type { AuthConfig } from "../../../src/index.js"
import {
  completeTwoFactorSignIn,
  completeTwoFactorSignInWithPasskey,
  MemoryRateLimitStore,
  RateLimited,
  requireRecentAuthentication,
  SessionRequired,
  stepUpTwoFactor,
  TwoFactorError,
  WebAuthnVerificationError,
} from "../../../src/index.js"
import { alice, Client, ORIGIN, config as baseConfig, recordingLogger } from "../../helpers/harness.js"
import { twoFactorAdapter } from "../../helpers/two-factor-adapter.js"
import { options, registerPasskey, setup as passkeySetup, signOutLocally } from "../webauthn/setup.js"
import { advanceSeconds, appRequest, codeAt, enrolTotp } from "../../helpers/two-factor.js"

const T0 = Date.UTC(2026, 10, 26, 12, 0, 0)
const PENDING = "authlib.two-factor"

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] })
  vi.setSystemTime(T0)
})
afterEach(() => vi.useRealTimers())

const sessionToken = (client: Client) => {
  const name = [...client.jar.keys()].find((n) => n.includes("session-token"))
  return name === undefined ? undefined : client.jar.get(name)
}

async function refusal(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.unreachable("resolved"),
    (err: unknown) => err,
  )
}

function setup(strategy: "jwt" | "database", over: Partial<AuthConfig> = {}) {
  const adapter = twoFactorAdapter()
  adapter.users.set("user-1", { id: "user-1", name: "Alice", email: "alice@example.com", emailVerified: new Date(T0) })
  const { logger, entries } = recordingLogger()
  const config = baseConfig({ adapter, session: { strategy }, twoFactor: { issuer: "Example" }, logger, ...over })
  return { adapter, config, entries }
}

/** A new browser whose password sign-in is held for the second factor. */
async function held(config: AuthConfig): Promise<Client> {
  const client = new Client(config)
  expect((await client.signIn()).headers.get("location")).toBe(`${ORIGIN}/auth/two-factor`)
  expect(sessionToken(client)).toBeUndefined()
  return client
}

for (const strategy of ["database", "jwt"] as const) {
  describe(`completeTwoFactorSignIn, ${strategy} sessions`, () => {
    it("completes a pending sign-in with a code: the callback URL and the cookies to set (session, pending cleared)", async () => {
      const { config } = setup(strategy)
      const secret = await enrolTotp(new Client(config))
      const client = await held(config)
      advanceSeconds(30)
      const done = await completeTwoFactorSignIn(appRequest(client), config, { code: codeAt(secret) })
      expect(done.url).toBe(`${ORIGIN}/`)
      expect(done.setCookie.some((c) => c.startsWith("authlib.session-token=") && c.includes("HttpOnly"))).toBe(true)
      expect(done.setCookie.some((c) => c.startsWith(`${PENDING}=;`) || (c.startsWith(`${PENDING}=`) && /Max-Age=0/i.test(c)))).toBe(true)
      client.jar.store(done.setCookie, ORIGIN)
      expect(client.jar.get(PENDING)).toBeUndefined()
      expect(await client.session()).toMatchObject({ user: { email: "alice@example.com" } })
      expect((await requireRecentAuthentication(appRequest(client), config, { secondFactor: true })).amr).toEqual(["pwd", "otp", "mfa"])
    })

    it("refuses a wrong code, a code the route accepted, and no pending sign-in: nothing to set, still pending, logged", async () => {
      const { config, entries } = setup(strategy)
      const secret = await enrolTotp(new Client(config))
      const client = await held(config)
      expect(await refusal(completeTwoFactorSignIn(appRequest(client), config, { code: "000000" }))).toMatchObject({ type: "TwoFactorError", code: "CODE_INVALID" })
      expect(entries.some((e) => e.level === "warn" && e.code === "TwoFactorError")).toBe(true)
      // The confirming code's step was spent by the route: refused here too (one check, one record).
      expect(await refusal(completeTwoFactorSignIn(appRequest(client), config, { code: codeAt(secret) }))).toMatchObject({ code: "CODE_USED" })
      expect(await refusal(completeTwoFactorSignIn(appRequest(client), config, { code: "" }))).toMatchObject({ code: "CODE_MISSING" })
      expect(await refusal(completeTwoFactorSignIn(appRequest(client), config, { code: 123456 as unknown as string }))).toMatchObject({ code: "CODE_MISSING" })
      // Still pending: the route takes the next code.
      advanceSeconds(30)
      expect((await client.post("/auth/two-factor", { action: "verify", code: codeAt(secret) })).status).toBe(302)
      // The code the route just accepted is refused to a second sign-in through the server function.
      const other = await held(config)
      expect(await refusal(completeTwoFactorSignIn(appRequest(other), config, { code: codeAt(secret) }))).toBeInstanceOf(TwoFactorError)

      const visitor = new Client(config)
      expect(await refusal(completeTwoFactorSignIn(appRequest(visitor), config, { code: codeAt(secret, 1) }))).toMatchObject({ type: "TwoFactorError", code: "SIGN_IN_MISSING" })
      // A forged pending cookie is no pending sign-in.
      visitor.jar.set(PENDING, "eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2Q0JDLUhTNTEyIn0..x.y.z")
      expect(await refusal(completeTwoFactorSignIn(appRequest(visitor), config, { code: codeAt(secret, 1) }))).toMatchObject({ code: "SIGN_IN_MISSING" })
    })

    it("counts guesses with the route's: five wrong codes anywhere, then even a right one is refused (RateLimited)", async () => {
      const { config } = setup(strategy, { rateLimit: { store: new MemoryRateLimitStore() } })
      const secret = await enrolTotp(new Client(config))
      const client = await held(config)
      for (let i = 0; i < 3; i++) await refusal(completeTwoFactorSignIn(appRequest(client), config, { code: `00000${i}` }))
      for (let i = 3; i < 5; i++) expect((await client.request("/auth/two-factor", { json: { csrfToken: await client.csrfToken(), action: "verify", code: `00000${i}` } })).status).toBe(401)
      advanceSeconds(30)
      expect(await refusal(completeTwoFactorSignIn(appRequest(client), config, { code: codeAt(secret) }))).toBeInstanceOf(RateLimited)
      expect(sessionToken(client)).toBeUndefined()
    })

    it("answers TWO_FACTOR_OFF when the app did not turn two factors on", async () => {
      const { config } = setup(strategy, { twoFactor: undefined })
      const client = new Client(config)
      expect(await refusal(completeTwoFactorSignIn(appRequest(client), config, { code: "123456" }))).toMatchObject({ code: "TWO_FACTOR_OFF" })
    })
  })

  describe(`completeTwoFactorSignInWithPasskey, ${strategy} sessions`, () => {
    async function aliceWithPasskeyAndTotp() {
      const s = passkeySetup(strategy, { twoFactor: { issuer: "Example" } })
      twoFactorAdapter(s.adapter)
      expect((await registerPasskey(s)).status).toBe(302)
      const enrolled = await s.client.post("/auth/two-factor", { action: "totp-enroll" }, { headers: { "x-auth-return-redirect": "1" } })
      const { secret } = (await enrolled.json()) as { secret: string }
      expect((await s.client.post("/auth/two-factor", { action: "totp-confirm", code: codeAt(secret) })).status).toBe(200)
      signOutLocally(s.client)
      expect((await s.client.signIn()).headers.get("location")).toBe(`${ORIGIN}/auth/two-factor`)
      return s
    }

    it("completes a pending sign-in with an assertion for options made during it", async () => {
      const s = await aliceWithPasskeyAndTotp()
      const { body } = await options(s.client, "?action=authenticate")
      const done = await completeTwoFactorSignInWithPasskey(appRequest(s.client), s.config, { data: s.device.authenticate(body.options) })
      expect(done.url).toBe(`${ORIGIN}/`)
      s.client.jar.store(done.setCookie, ORIGIN)
      expect(s.client.jar.get(PENDING)).toBeUndefined()
      expect(s.client.jar.get("authlib.challenge")).toBeUndefined()
      expect(await s.client.session()).toMatchObject({ user: { email: alice.email } })
      expect((await requireRecentAuthentication(appRequest(s.client), s.config, { secondFactor: true })).amr).toEqual(["pwd", "hwk", "mfa"])
    })

    it("refuses a challenge made before the sign-in, a bad signature and a replay; no session", async () => {
      const s = await aliceWithPasskeyAndTotp()
      signOutLocally(s.client)
      const early = await options(s.client, "?action=authenticate")
      expect((await s.client.signIn()).headers.get("location")).toBe(`${ORIGIN}/auth/two-factor`)
      const outside = await refusal(completeTwoFactorSignInWithPasskey(appRequest(s.client), s.config, { data: s.device.authenticate(early.body.options) }))
      expect(outside).toBeInstanceOf(WebAuthnVerificationError)
      expect(outside).toMatchObject({ code: "CHALLENGE_INVALID" })

      let { body } = await options(s.client)
      const tampered = s.device.authenticate(body.options, s.device.credentials[0], { tamperSignature: true })
      expect(await refusal(completeTwoFactorSignInWithPasskey(appRequest(s.client), s.config, { data: tampered }))).toMatchObject({ code: "SIGNATURE_INVALID" })
      expect(await refusal(completeTwoFactorSignInWithPasskey(appRequest(s.client), s.config, { data: "not json" }))).toMatchObject({ code: "RESPONSE_INVALID" })
      expect(sessionToken(s.client)).toBeUndefined()

      ;({ body } = await options(s.client))
      const assertion = s.device.authenticate(body.options)
      const request = appRequest(s.client)
      await completeTwoFactorSignInWithPasskey(request, s.config, { data: JSON.stringify(assertion) })
      // The same request again (pending cookie and challenge as they were): the challenge is used up.
      expect(await refusal(completeTwoFactorSignInWithPasskey(request, s.config, { data: assertion }))).toMatchObject({ code: "CHALLENGE_USED" })
    })
  })

  describe(`stepUpTwoFactor, ${strategy} sessions`, () => {
    it("re-issues the session as fresh with a code: authTime and the new cookie, a new token", async () => {
      const { config } = setup(strategy, { twoFactor: { issuer: "Example", freshAge: 120 } })
      const client = new Client(config)
      const secret = await enrolTotp(client)
      // The enrolment's code counted as a second factor, until freshAge has passed.
      expect((await requireRecentAuthentication(appRequest(client), config, { secondFactor: true })).amr).toEqual(["pwd", "otp", "mfa"])
      advanceSeconds(300)
      expect(await refusal(requireRecentAuthentication(appRequest(client), config, { secondFactor: true }))).toMatchObject({ code: "AUTHENTICATION_TOO_OLD" })
      const before = sessionToken(client)
      const done = await stepUpTwoFactor(appRequest(client), config, { code: codeAt(secret) })
      expect(done.authTime).toBe(Math.floor(Date.now() / 1000))
      expect(done.setCookie.some((c) => c.startsWith("authlib.session-token="))).toBe(true)
      // Until the app sends the cookies, this browser holds the old session: ended (database), or still stale (JWT).
      const stale = await refusal(requireRecentAuthentication(appRequest(client), config, { secondFactor: true }))
      expect(stale).toMatchObject(strategy === "database" ? { code: "SESSION_MISSING" } : { code: "AUTHENTICATION_TOO_OLD" })
      client.jar.store(done.setCookie, ORIGIN)
      expect(sessionToken(client)).not.toEqual(before)
      expect(await requireRecentAuthentication(appRequest(client), config, { secondFactor: true })).toEqual({ userId: "user-1", authTime: done.authTime, amr: ["pwd", "otp", "mfa"] })
      expect(await client.session()).toMatchObject({ user: { email: "alice@example.com" } })
    })

    it("refuses a visitor, a wrong code and a code already used, leaving the session as it was", async () => {
      const { config } = setup(strategy)
      const client = new Client(config)
      const secret = await enrolTotp(client)
      const visitor = new Client(config)
      expect(await refusal(stepUpTwoFactor(appRequest(visitor), config, { code: codeAt(secret, 1) }))).toBeInstanceOf(SessionRequired)
      expect(await refusal(stepUpTwoFactor(appRequest(client), config, { code: "999999" }))).toMatchObject({ code: "CODE_INVALID" })
      // The step of the confirming code was spent through the route.
      expect(await refusal(stepUpTwoFactor(appRequest(client), config, { code: codeAt(secret) }))).toMatchObject({ code: "CODE_USED" })
      advanceSeconds(30)
      const done = await stepUpTwoFactor(appRequest(client), config, { code: codeAt(secret) })
      // Once: the route refuses the same code now.
      client.jar.store(done.setCookie, ORIGIN)
      const again = await client.request("/auth/two-factor", { json: { csrfToken: await client.csrfToken(), action: "step-up", code: codeAt(secret) } })
      expect(again.status).toBe(401)
    })
  })
}
