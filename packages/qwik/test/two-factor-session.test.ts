/**
 * The Qwik mirror of core's two-factor steps that end in a session, in both session strategies:
 * `useTwoFactorSignIn` completes a pending sign-in on the app's own `pages.twoFactor` page (the
 * session set through Qwik's cookie API, the pending cookie cleared, a refusal in the failure
 * shape with nothing set); `stepUpTwoFactor` re-issues the session as fresh and
 * `requireRecentAuthentication` sees it in the same request.
 */
import { MemoryAdapter } from "@authlib/adapter-test/memory-adapter"
import { describe, expect, it } from "vitest"
import {
  completeTwoFactorSignIn,
  getPendingTwoFactor,
  getSession,
  ReauthenticationRequired,
  requireRecentAuthentication,
  SessionRequired,
  stepUpTwoFactor,
} from "../src/index.js"
import { ada, ORIGIN, testConfig } from "./harness/config.js"
import { browserCookies, fakeEvent, Redirected, runAction, type FakeEvent } from "./harness/fake-event.js"
import { actionEvent, handle, outcome, setup, type TestAuth } from "./harness/setup.js"
import { totp } from "@authlib/e2e-kit/totp"
import { enableTwoFactor, signedInPage } from "./harness/two-factor.js"

const SESSION = "authlib.session-token"
const PENDING = "authlib.two-factor"

async function twoFactorSetup(strategy: "jwt" | "database") {
  const adapter = MemoryAdapter()
  await adapter.createUser({ ...ada, emailVerified: null })
  const { auth } = setup(testConfig({ url: ORIGIN, adapter, session: { strategy }, twoFactor: {}, pages: { twoFactor: "/two-step" } }))
  return { auth }
}

/** The app's own two-factor page posting its form (the pending sign-in's cookies). */
async function twoStepAction(auth: TestAuth, cookie: string): Promise<FakeEvent> {
  const ev = fakeEvent(`${ORIGIN}/two-step/?qaction=tf1`, { method: "POST", cookie, headers: { origin: ORIGIN, "content-type": "application/x-www-form-urlencoded" } })
  await handle(auth, ev)
  return ev
}

for (const strategy of ["jwt", "database"] as const) {
  describe(`useTwoFactorSignIn on the app's own page, ${strategy} sessions`, () => {
    it("useSignIn sends the user to pages.twoFactor; a wrong code fails with nothing set; the right one sets the session and redirects", async () => {
      const { auth } = await twoFactorSetup(strategy)
      const { secret, step } = await enableTwoFactor(auth)

      const signIn = await actionEvent(auth)
      const thrown = await outcome(runAction(auth.useSignIn, signIn, { providerId: "password", options: { email: ada.email, password: "correct horse" }, redirectTo: "/account/" }))
      expect(thrown).toEqual(new Redirected(303, "/two-step"))
      const pending = browserCookies("", signIn)
      expect(pending).toContain(`${PENDING}=`)
      expect(pending).not.toContain(`${SESSION}=`)

      // The app's page learns what finishes the sign-in: a code (Ada has no passkey).
      const page = fakeEvent(`${ORIGIN}/two-step/`, { cookie: pending })
      await handle(auth, page)
      expect(await getPendingTwoFactor(page)).toEqual({ accepts: ["code"] })

      const wrong = await twoStepAction(auth, pending)
      const refused = await runAction(auth.useTwoFactorSignIn, wrong, { code: totp(secret, step - 10) })
      expect(refused).toMatchObject({ failed: true, code: "CODE_INVALID", fieldErrors: { code: expect.any(String) } })
      expect(wrong.recorded.status).toBe(401)
      expect(wrong.recorded.cookies).toEqual([])

      const right = await twoStepAction(auth, pending)
      expect(await outcome(runAction(auth.useTwoFactorSignIn, right, { code: totp(secret, step + 1) }))).toEqual(new Redirected(303, "/account/"))
      const set = right.recorded.cookies
      expect(set.find((c) => c.name === SESSION)?.options).toMatchObject({ httpOnly: true, path: "/" })
      expect(set.find((c) => c.name === PENDING)?.options).toMatchObject({ maxAge: 0 })
      // The same request reads the new session.
      expect((await getSession(right)).data?.user).toMatchObject({ email: ada.email })
      const after = await signedInPage(auth, browserCookies(pending, right))
      expect(await requireRecentAuthentication(after, { secondFactor: true })).toMatchObject({ amr: ["pwd", "otp", "mfa"] })

      // A forged pending cookie is no pending sign-in.
      const again = await twoStepAction(auth, pending.replace(/authlib\.two-factor=[^;]*/, "authlib.two-factor=x"))
      expect(await getPendingTwoFactor(again)).toBeNull()
      expect(await runAction(auth.useTwoFactorSignIn, again, { code: totp(secret, step + 2) })).toMatchObject({ failed: true, code: "SIGN_IN_MISSING" })
    })

    it("refuses input that is neither a code nor a passkey before core; a visitor gets SIGN_IN_MISSING", async () => {
      const { auth } = await twoFactorSetup(strategy)
      const ev = await twoStepAction(auth, "")
      expect(await runAction(auth.useTwoFactorSignIn, ev, {})).toMatchObject({ failed: true })
      expect(ev.recorded.status).toBe(400)
      expect(await runAction(auth.useTwoFactorSignIn, ev, { code: "123456", data: "{}" })).toMatchObject({ failed: true })
      const visitor = await twoStepAction(auth, "")
      expect(await runAction(auth.useTwoFactorSignIn, visitor, { code: "123456" })).toMatchObject({ failed: true, code: "SIGN_IN_MISSING" })
      expect(visitor.recorded.cookies).toEqual([])
      // The helper itself throws core's error.
      expect(await outcome(completeTwoFactorSignIn(visitor, { code: "123456" }))).toMatchObject({ type: "TwoFactorError", code: "SIGN_IN_MISSING" })
    })
  })

  describe(`step-up through the binding, ${strategy} sessions`, () => {
    it("requireRecentAuthentication asks for a second factor; stepUpTwoFactor sets a fresh session this request then sees", async () => {
      const { auth } = await twoFactorSetup(strategy)
      // Another browser, signed in with the password before two factors were turned on (enabling
      // them re-issues only the enrolling browser's session with both factors).
      const ev = await signedInPage(auth)
      const { secret, step } = await enableTwoFactor(auth)
      const before = await outcome(requireRecentAuthentication(ev, { secondFactor: true }))
      expect(before).toBeInstanceOf(ReauthenticationRequired)
      expect(before).toMatchObject({ code: "SECOND_FACTOR_REQUIRED" })
      // The confirming code's step is spent.
      expect(await outcome(stepUpTwoFactor(ev, { code: totp(secret, step) }))).toMatchObject({ type: "TwoFactorError", code: "CODE_USED" })
      expect(ev.recorded.cookies.filter((c) => c.name === SESSION)).toEqual([])

      const { authTime } = await stepUpTwoFactor(ev, { code: totp(secret, step + 1) })
      expect(authTime).toBeGreaterThan(0)
      expect(ev.recorded.cookies.filter((c) => c.name === SESSION)).toHaveLength(1)
      expect(await requireRecentAuthentication(ev, { secondFactor: true })).toEqual({ userId: ada.id, authTime, amr: ["pwd", "otp", "mfa"] })
      expect((await getSession(ev)).data?.user).toMatchObject({ email: ada.email })
      // The browser's next request, with the cookies set here.
      const next = await signedInPage(auth, browserCookies(ev.request.headers.get("cookie") ?? "", ev))
      expect((await requireRecentAuthentication(next, { secondFactor: true })).authTime).toBe(authTime)
    })

    it("refuses a visitor", async () => {
      const { auth } = await twoFactorSetup(strategy)
      const visitor = fakeEvent(`${ORIGIN}/account/`)
      await handle(auth, visitor)
      expect(await outcome(stepUpTwoFactor(visitor, { code: "123456" }))).toBeInstanceOf(SessionRequired)
      expect(await outcome(requireRecentAuthentication(visitor))).toBeInstanceOf(SessionRequired)
    })
  })
}
