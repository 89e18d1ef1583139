/**
 * A passkey as the second factor, through the public API, in both session strategies: during a
 * pending sign-in `GET webauthn-options/:provider` answers the pending user's passkeys with a
 * challenge bound to that sign-in, and `POST two-factor` `verify-passkey` completes it. Attacks: a
 * challenge made outside the pending sign-in, another user's passkey, a bad signature, a replay,
 * no pending sign-in. And a first-factor passkey with user verification counts as both factors
 * unless `passkeyCountsAsTwoFactors: false`.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import type { AuthConfig, TwoFactorOptions, WebAuthnConfig } from "../../../src/index.js"
import { getPendingTwoFactor, requireRecentAuthentication } from "../../../src/index.js"
import { importTotpKey, totp } from "../../../src/capabilities/two-factor/totp.js"
import { alice, ORIGIN } from "../../helpers/harness.js"
import { twoFactorAdapter } from "../../helpers/two-factor-adapter.js"
import { options, registerPasskey, setup, signInWithPasskey, signOutLocally, type PasskeySetup } from "../webauthn/setup.js"
import { appRequest, sessionCookie } from "../../helpers/two-factor.js"

const T0 = Date.UTC(2026, 10, 26, 12, 0, 0)

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] })
  vi.setSystemTime(T0)
})
afterEach(() => vi.useRealTimers())


/** Alice with a passkey and TOTP enabled, signed out. */
async function aliceWithPasskeyAndTotp(strategy: "jwt" | "database", twoFactor: TwoFactorOptions = {}, over: Partial<AuthConfig> = {}, provider: Partial<WebAuthnConfig> = {}): Promise<PasskeySetup & { secret: string }> {
  const s = setup(strategy, { twoFactor: { issuer: "Example", ...twoFactor }, ...over }, provider)
  twoFactorAdapter(s.adapter)
  expect((await registerPasskey(s)).status).toBe(302)
  const enrolled = await s.client.post("/auth/two-factor", { action: "totp-enroll" }, { headers: { "x-auth-return-redirect": "1" } })
  const { secret } = (await enrolled.json()) as { secret: string }
  const confirmed = await s.client.post("/auth/two-factor", { action: "totp-confirm", code: totp(importTotpKey(secret), Date.now()) })
  expect(confirmed.status).toBe(200)
  signOutLocally(s.client)
  return { ...s, secret }
}

/** A password sign-in held for the second factor. */
async function pendingSignIn(s: PasskeySetup): Promise<void> {
  const first = await s.client.signIn()
  expect(first.headers.get("location")).toBe(`${ORIGIN}/auth/two-factor`)
  expect(sessionCookie(s.client)).toBeUndefined()
}

const verifyPasskey = (s: PasskeySetup, data: unknown) => s.client.post("/auth/two-factor", { action: "verify-passkey", data: JSON.stringify(data) })

async function verifyPasskeyJson(s: PasskeySetup, data: unknown) {
  const res = await s.client.request("/auth/two-factor", { json: { csrfToken: await s.client.csrfToken(), action: "verify-passkey", data } })
  return { status: res.status, body: (await res.json()) as Record<string, unknown> }
}

for (const strategy of ["database", "jwt"] as const) {
  describe(`a passkey as the second factor, ${strategy} sessions`, () => {
    it("the page offers the passkey; the options name the pending user's passkeys; verify-passkey completes the sign-in", async () => {
      const s = await aliceWithPasskeyAndTotp(strategy)
      await pendingSignIn(s)
      const page = await s.client.request("/auth/two-factor")
      const text = await page.text()
      expect(text).toContain('data-passkey-submit="verify-passkey"')
      // An app's own page learns the same through the server function.
      expect(await getPendingTwoFactor(appRequest(s.client), s.config)).toEqual({ accepts: ["code", "passkey"] })
      expect(text).toContain(`data-passkey-options="${ORIGIN}/auth/webauthn-options/passkey"`)
      // The bundled script is allowed by its hash, and may fetch the options from this origin only.
      expect(page.headers.get("content-security-policy")).toMatch(/script-src 'sha256-[^']+'; connect-src http:\/\/localhost:3000;/)

      const { res, body } = await options(s.client, "?action=authenticate")
      expect(res.status).toBe(200)
      expect(body.action).toBe("authenticate")
      expect(body.options.allowCredentials?.map((c) => c.id)).toEqual([s.device.credentials[0]!.id.toString("base64url")])
      const done = await verifyPasskey(s, s.device.authenticate(body.options))
      expect(done.status).toBe(302)
      expect(done.headers.get("location")).toBe(`${ORIGIN}/`)
      expect(sessionCookie(s.client)).toBeDefined()
      expect(await s.client.session()).toMatchObject({ user: { email: alice.email } })
      expect(s.client.jar.get("authlib.two-factor")).toBeUndefined()
      expect([...s.adapter.authenticators.values()][0]!.counter).toBe(1)
    })

    it("refuses a challenge made outside the pending sign-in, and keeps the sign-in pending", async () => {
      const s = await aliceWithPasskeyAndTotp(strategy)
      // Options fetched before the first factor: a valid assertion, but not bound to this sign-in.
      const { body } = await options(s.client, "?action=authenticate")
      await pendingSignIn(s)
      const refused = await verifyPasskeyJson(s, s.device.authenticate(body.options))
      expect(refused).toEqual({ status: 400, body: { error: "WebAuthnVerificationError", code: "CHALLENGE_INVALID" } })
      expect(sessionCookie(s.client)).toBeUndefined()
      // The held sign-in is still there: a bound challenge finishes it.
      const bound = await options(s.client, "?action=authenticate")
      expect((await verifyPasskey(s, s.device.authenticate(bound.body.options))).status).toBe(302)
      expect(sessionCookie(s.client)).toBeDefined()
    })

    it("refuses another user's passkey, a bad signature and a replay; a person's form goes back to the page", async () => {
      const s = await aliceWithPasskeyAndTotp(strategy)
      // Bob's passkey, stored for Bob: valid, but not the pending user's.
      const bobCredential = s.device.register({ challenge: "x", rp: { id: "localhost" }, user: { id: "Ym9i" } })
      const bob = s.device.credentials.at(-1)!
      s.adapter.users.set("bob", { id: "bob", email: "bob@example.com", emailVerified: null })
      const bobId = Buffer.from(bobCredential.id, "base64url").toString("base64")
      s.adapter.authenticators.set(bobId, { credentialID: bobId, userId: "bob", providerAccountId: bobId, counter: 0, credentialPublicKey: bob.cose.toString("base64"), credentialBackedUp: false, credentialDeviceType: "singleDevice", transports: "internal" })
      await pendingSignIn(s)

      let { body } = await options(s.client)
      expect(await verifyPasskeyJson(s, s.device.authenticate(body.options, bob))).toEqual({ status: 400, body: { error: "WebAuthnVerificationError", code: "CREDENTIAL_UNKNOWN" } })
      ;({ body } = await options(s.client))
      const tampered = await verifyPasskey(s, s.device.authenticate(body.options, s.device.credentials[0], { tamperSignature: true }))
      expect(tampered.status).toBe(302)
      expect(tampered.headers.get("location")).toBe(`${ORIGIN}/auth/two-factor?error=WebAuthnVerificationError&code=SIGNATURE_INVALID`)
      expect(sessionCookie(s.client)).toBeUndefined()

      ;({ body } = await options(s.client))
      const assertion = s.device.authenticate(body.options, s.device.credentials[0])
      const challengeCookie = s.client.jar.get("authlib.challenge")!
      expect((await verifyPasskey(s, assertion)).status).toBe(302)
      expect(sessionCookie(s.client)).toBeDefined()
      // The same answer again, in a new pending sign-in with the old challenge cookie: used up.
      signOutLocally(s.client)
      await pendingSignIn(s)
      s.client.jar.set("authlib.challenge", challengeCookie)
      expect((await verifyPasskeyJson(s, assertion)).body).toEqual({ error: "WebAuthnVerificationError", code: "CHALLENGE_USED" })
      expect(sessionCookie(s.client)).toBeUndefined()
    })

    it("answers SIGN_IN_MISSING without a pending sign-in, and offers no passkey to a user without one", async () => {
      const s = await aliceWithPasskeyAndTotp(strategy)
      expect(await getPendingTwoFactor(appRequest(s.client), s.config)).toBeNull()
      const { body } = await options(s.client, "?action=authenticate")
      expect(await verifyPasskeyJson(s, s.device.authenticate(body.options))).toEqual({ status: 401, body: { error: "TwoFactorError", code: "SIGN_IN_MISSING" } })
      expect(sessionCookie(s.client)).toBeUndefined()
      s.adapter.authenticators.clear()
      await pendingSignIn(s)
      const page = await (await s.client.request("/auth/two-factor")).text()
      expect(page).toContain('name="code"')
      expect(page).not.toContain("data-passkey-options")
      expect(page).not.toContain("<script>")
    })

    it("a passkey sign-in with user verification counts as both factors", async () => {
      const s = await aliceWithPasskeyAndTotp(strategy)
      const signedIn = await signInWithPasskey(s)
      expect(signedIn.headers.get("location")).toBe(`${ORIGIN}/`)
      expect(sessionCookie(s.client)).toBeDefined()
    })

    it("with passkeyCountsAsTwoFactors: false, a passkey sign-in is held like any first factor", async () => {
      const s = await aliceWithPasskeyAndTotp(strategy, { passkeyCountsAsTwoFactors: false })
      const held = await signInWithPasskey(s)
      expect(held.headers.get("location")).toBe(`${ORIGIN}/auth/two-factor`)
      expect(sessionCookie(s.client)).toBeUndefined()
      expect(await s.client.session()).toBeNull()
      vi.setSystemTime(T0 + 30_000)
      const done = await s.client.post("/auth/two-factor", { action: "verify", code: totp(importTotpKey(s.secret), Date.now()) })
      expect(done.status).toBe(302)
      expect(await s.client.session()).toMatchObject({ user: { email: alice.email } })
    })
  })

  describe(`one passkey never counts as two factors, ${strategy} sessions`, () => {
    /** A passkey first factor held for the second (no user verification asked, or not counted as two). */
    async function heldAfterPasskey(twoFactor: TwoFactorOptions, provider: Partial<WebAuthnConfig>) {
      const s = await aliceWithPasskeyAndTotp(strategy, twoFactor, {}, provider)
      const held = await signInWithPasskey(s)
      expect(held.headers.get("location")).toBe(`${ORIGIN}/auth/two-factor`)
      expect(sessionCookie(s.client)).toBeUndefined()
      return s
    }

    for (const [label, twoFactor, provider] of [
      ['userVerification: "preferred"', {}, { userVerification: "preferred" }],
      ['userVerification: "discouraged"', {}, { userVerification: "discouraged" }],
      ["passkeyCountsAsTwoFactors: false", { passkeyCountsAsTwoFactors: false }, {}],
    ] as const) {
      it(`${label}: the same passkey cannot finish the sign-in it began (SAME_FACTOR); a TOTP code can, with mfa`, async () => {
        const s = await heldAfterPasskey(twoFactor, provider)
        // The page offers the code form only; the options route binds no challenge to this sign-in.
        const page = await (await s.client.request("/auth/two-factor")).text()
        expect(page).toContain('name="code"')
        expect(page).not.toContain("data-passkey-options")
        expect(await getPendingTwoFactor(appRequest(s.client), s.config)).toEqual({ accepts: ["code"] })
        const { body } = await options(s.client, "?action=authenticate")
        expect(body.options.allowCredentials ?? []).toEqual([])
        // The same credential, answering options the attacker asked for: refused before any check.
        expect(await verifyPasskeyJson(s, s.device.authenticate(body.options))).toEqual({ status: 409, body: { error: "TwoFactorError", code: "SAME_FACTOR" } })
        const form = await verifyPasskey(s, s.device.authenticate((await options(s.client, "?action=authenticate")).body.options))
        expect(form.headers.get("location")).toBe(`${ORIGIN}/auth/two-factor?error=TwoFactorError&code=SAME_FACTOR`)
        expect(sessionCookie(s.client)).toBeUndefined()
        expect(await s.client.session()).toBeNull()

        vi.setSystemTime(T0 + 30_000)
        const done = await s.client.post("/auth/two-factor", { action: "verify", code: totp(importTotpKey(s.secret), Date.now()) })
        expect(done.status).toBe(302)
        const info = await requireRecentAuthentication(appRequest(s.client), s.config, { secondFactor: true })
        expect(info.amr).toEqual(["hwk", "user", "otp", "mfa"])
      })
    }

    it("a passkey with user verification, counted as two, is mfa on its own; without counting, it is hwk user only until a code", async () => {
      const counted = await aliceWithPasskeyAndTotp(strategy)
      expect((await signInWithPasskey(counted)).headers.get("location")).toBe(`${ORIGIN}/`)
      expect((await requireRecentAuthentication(appRequest(counted.client), counted.config)).amr).toEqual(["hwk", "user", "mfa"])
    })
  })
}
