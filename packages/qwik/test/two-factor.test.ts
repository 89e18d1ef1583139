/**
 * The Qwik mirror of core's two-factor server functions: the signed-in user enrols an
 * authenticator (codes computed here from the secret shown, RFC 6238 on node:crypto), confirms it,
 * replaces the backup codes and disables it through the request event; a sign-in through the
 * binding then stops at the two-factor step with no session cookie until a code is verified.
 */
import { MemoryAdapter } from "@authlib/adapter-test/memory-adapter"
import { describe, expect, it } from "vitest"
import {
  confirmTotpEnrollment,
  disableTwoFactorSignIn,
  getSession,
  getTwoFactorStatus,
  ReauthenticationRequired,
  regenerateTwoFactorBackupCodes,
  requireRecentAuthentication,
  SessionRequired,
  startTotpEnrollment,
  TwoFactorError,
} from "../src/index.js"
import { encode } from "@authlib/core"
import { ada, ORIGIN, SECRET, testConfig } from "./harness/config.js"
import { browserCookies, fakeEvent, Redirected, runAction } from "./harness/fake-event.js"
import { actionEvent, handle, outcome, setup, signInThroughRoute, type TestAuth } from "./harness/setup.js"
import { stepAt, totp } from "@authlib/e2e-kit/totp"
import { enableTwoFactor, signedInPage } from "./harness/two-factor.js"

const SESSION = "authlib.session-token"
const PENDING = "authlib.two-factor"

async function twoFactorSetup(overrides: Parameters<typeof testConfig>[0] = { twoFactor: {} }) {
  const adapter = MemoryAdapter()
  await adapter.createUser({ ...ada, emailVerified: null })
  const { auth } = setup(testConfig({ url: ORIGIN, adapter, session: { strategy: "jwt" }, ...overrides }))
  return { adapter, auth }
}

/** Posts `code` to the two-factor step as the built-in page's form does. */
async function verify(auth: TestAuth, cookie: string, code: string) {
  const page = fakeEvent(`${ORIGIN}/auth/csrf`, { cookie })
  await handle(auth, page)
  const { csrfToken } = (await page.recorded.sent!.json()) as { csrfToken: string }
  const jar = browserCookies(cookie, page)
  const ev = fakeEvent(`${ORIGIN}/auth/two-factor`, {
    method: "POST",
    cookie: jar,
    body: new URLSearchParams({ csrfToken, action: "verify", code }).toString(),
    headers: { origin: ORIGIN, "content-type": "application/x-www-form-urlencoded" },
  })
  const thrown = await handle(auth, ev)
  return { ev, thrown, cookie: browserCookies(jar, ev) }
}

describe("two-factor management through the binding", () => {
  it("refuses to enrol or confirm from a session signed in longer ago than twoFactor.freshAge (ReauthenticationRequired)", async () => {
    const { auth } = await twoFactorSetup()
    // Ada's session as it stands an hour after her password sign-in (freshAge: 600 s by default).
    const token = await encode({ token: { sub: ada.id, email: ada.email, auth_time: Math.floor(Date.now() / 1000) - 3600, amr: ["pwd"] }, secret: SECRET, salt: SESSION })
    const ev = await signedInPage(auth, `${SESSION}=${token}`)
    await expect(startTotpEnrollment(ev)).rejects.toBeInstanceOf(ReauthenticationRequired)
    await expect(confirmTotpEnrollment(ev, { code: "123456" })).rejects.toMatchObject({ type: "ReauthenticationRequired", code: "AUTHENTICATION_TOO_OLD" })
    expect(await getTwoFactorStatus(ev)).toEqual({ enabled: false, backupCodesLeft: 0 })
  })

  it("enrols with a QR code and a secret, confirms with a first code, then shows the status", async () => {
    const { auth } = await twoFactorSetup()
    const ev = await signedInPage(auth)
    expect(await getTwoFactorStatus(ev)).toEqual({ enabled: false, backupCodesLeft: 0 })
    const enrollment = await startTotpEnrollment(ev)
    expect(enrollment.secret).toMatch(/^[A-Z2-7]{32}$/)
    expect(enrollment.uri).toMatch(/^otpauth:\/\/totp\/.*secret=/)
    expect(enrollment.qrSvg).toMatch(/^<svg[^>]* role="img"/)
    expect(enrollment.qrSvg).not.toMatch(/<script|href=/i)

    // A code of another time (ten steps ago) is no code: nothing is enabled.
    const stale = await outcome(confirmTotpEnrollment(ev, { code: totp(enrollment.secret, stepAt() - 10) }))
    expect(stale).toBeInstanceOf(TwoFactorError)
    expect(stale).toMatchObject({ code: "CODE_INVALID" })
    expect(await getTwoFactorStatus(ev)).toEqual({ enabled: false, backupCodesLeft: 0 })

    const { enabled, backupCodes } = await confirmTotpEnrollment(ev, { code: totp(enrollment.secret) })
    expect(enabled).toBe(true)
    expect(backupCodes).toHaveLength(10)
    expect(new Set(backupCodes).size).toBe(10)
    expect(await getTwoFactorStatus(ev)).toEqual({ enabled: true, backupCodesLeft: 10 })
    expect(await outcome(startTotpEnrollment(ev))).toMatchObject({ type: "TwoFactorError", code: "ALREADY_ENABLED" })
    // The first code was a second factor verified now: the session cookie was re-issued with both,
    // and this request already sees it.
    expect(ev.recorded.cookies.some((c) => c.name === SESSION && c.value !== "")).toBe(true)
    expect(await requireRecentAuthentication(ev, { secondFactor: true })).toMatchObject({ amr: ["pwd", "otp", "mfa"] })
  })

  it("replaces the backup codes (the old ones die) and disables with a code", async () => {
    const { auth } = await twoFactorSetup()
    const { ev, secret, step, backupCodes: old } = await enableTwoFactor(auth)
    // The first code's step is spent: the next step's code is the one a person would type next.
    expect(await outcome(regenerateTwoFactorBackupCodes(ev, { code: totp(secret, step) }))).toMatchObject({ code: "CODE_USED" })
    const { backupCodes } = await regenerateTwoFactorBackupCodes(ev, { code: totp(secret, step + 1) })
    expect(backupCodes).toHaveLength(10)
    expect(backupCodes.filter((c) => old.includes(c))).toEqual([])
    expect(await outcome(disableTwoFactorSignIn(ev, { code: old[0]! }))).toMatchObject({ type: "TwoFactorError", code: "CODE_INVALID" })
    expect(await getTwoFactorStatus(ev)).toEqual({ enabled: true, backupCodesLeft: 10 })
    expect(await disableTwoFactorSignIn(ev, { code: backupCodes[3]! })).toEqual({ enabled: false })
    expect(await getTwoFactorStatus(ev)).toEqual({ enabled: false, backupCodesLeft: 0 })
  })

  it("refuses a visitor, an app without twoFactor, and a request the plugin never saw", async () => {
    const { auth } = await twoFactorSetup()
    const visitor = fakeEvent(`${ORIGIN}/account/`)
    await handle(auth, visitor)
    expect(await outcome(getTwoFactorStatus(visitor))).toBeInstanceOf(SessionRequired)
    expect(await outcome(startTotpEnrollment(visitor))).toBeInstanceOf(SessionRequired)

    const { auth: off } = await twoFactorSetup({})
    const ev = await signedInPage(off)
    expect(await outcome(startTotpEnrollment(ev))).toMatchObject({ type: "TwoFactorError", code: "TWO_FACTOR_OFF" })

    expect(await outcome(getTwoFactorStatus(fakeEvent(`${ORIGIN}/account/`)))).toMatchObject({ message: expect.stringMatching(/^getTwoFactorStatus\(\) found no authlib configuration/) })
  })
})

describe("signing in with two factors through the binding", () => {
  it("useSignIn stops at {basePath}/two-factor with a pending cookie and no session; a code completes it", async () => {
    const { auth } = await twoFactorSetup()
    const { secret, step } = await enableTwoFactor(auth)

    const ev = await actionEvent(auth)
    const thrown = await outcome(runAction(auth.useSignIn, ev, { providerId: "password", options: { email: ada.email, password: "correct horse" }, redirectTo: "/account/" }))
    // Core's page, not an app route: the full URL, as for any page under basePath.
    expect(thrown).toEqual(new Redirected(303, `${ORIGIN}/auth/two-factor`))
    const names = ev.recorded.cookies.map((c) => c.name)
    expect(names).toContain(PENDING)
    expect(names).not.toContain(SESSION)
    expect((await getSession(ev)).data).toBeNull()

    const pending = browserCookies("", ev)
    const wrong = await verify(auth, pending, totp(secret, step - 10))
    expect(wrong.thrown).toEqual(new Redirected(302, `${ORIGIN}/auth/two-factor?error=TwoFactorError&code=CODE_INVALID`))
    expect(wrong.ev.recorded.cookies.map((c) => c.name)).not.toContain(SESSION)

    const right = await verify(auth, pending, totp(secret, step + 1))
    expect(right.thrown).toEqual(new Redirected(302, `${ORIGIN}/account/`))
    const page = await signedInPage(auth, right.cookie)
    expect((await getSession(page)).data?.user).toMatchObject({ email: ada.email })
  })

  it("useSignIn with the code beside the password signs in at once; a wrong one fails as a wrong password", async () => {
    const { auth } = await twoFactorSetup()
    const { secret, step } = await enableTwoFactor(auth)
    const signIn = async (twoFactorCode: string) => {
      const ev = await actionEvent(auth)
      const thrown = await outcome(runAction(auth.useSignIn, ev, { providerId: "password", options: { email: ada.email, password: "correct horse", twoFactorCode }, redirectTo: "/account/" }))
      return { ev, thrown, names: ev.recorded.cookies.map((c) => c.name) }
    }
    const wrong = await signIn(totp(secret, step - 10))
    expect(wrong.names).not.toContain(SESSION)
    expect(wrong.names).not.toContain(PENDING)
    // The refusal a password gets (the app's authorize here throws its own code for a wrong password).
    expect(wrong.thrown).toMatchObject({ type: "CredentialsSignin", code: "credentials" })

    const right = await signIn(totp(secret, step + 1))
    expect(right.thrown).toEqual(new Redirected(303, "/account/"))
    expect(right.names).toContain(SESSION)
    expect(right.names).not.toContain(PENDING)
    expect((await getSession(await signedInPage(auth, browserCookies("", right.ev)))).data?.user).toMatchObject({ email: ada.email })
  })

  it("a backup code completes a sign-in once", async () => {
    const { auth } = await twoFactorSetup()
    const { backupCodes } = await enableTwoFactor(auth)
    const first = await signInThroughRoute(auth)
    expect(first.cookie).toContain(`${PENDING}=`)
    expect(first.cookie).not.toContain(`${SESSION}=`)
    const used = await verify(auth, first.cookie, backupCodes[0]!)
    expect(used.cookie).toContain(`${SESSION}=`)
    const status = await getTwoFactorStatus(await signedInPage(auth, used.cookie))
    expect(status).toEqual({ enabled: true, backupCodesLeft: 9 })

    const second = await signInThroughRoute(auth)
    const again = await verify(auth, second.cookie, backupCodes[0]!)
    expect(again.cookie).not.toContain(`${SESSION}=`)
  })
})
