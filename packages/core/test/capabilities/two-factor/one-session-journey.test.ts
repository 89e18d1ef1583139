/**
 * One session, every change to the ways in, both strategies: a password sign-in enrols TOTP (its
 * first code is a second factor verified now: the session is re-issued with `mfa`), adds two
 * passkeys (the session keeps how and when it authenticated: no downgrade to `hwk user`), renames
 * one, deletes one and unlinks an IdP, each behind the step-up gate, with no code asked again.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { deletePasskey, listPasskeys, renamePasskey, requireRecentAuthentication, unlinkLinkedAccount } from "../../../src/index.js"
import { answer, options, setup } from "../webauthn/setup.js"
import { twoFactorAdapter } from "../../helpers/two-factor-adapter.js"
import { advanceSeconds, appRequest, codeAt, sessionCookie } from "../../helpers/two-factor.js"

const T0 = Date.UTC(2026, 10, 26, 12, 0, 0)

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] })
  vi.setSystemTime(T0)
})
afterEach(() => vi.useRealTimers())

describe.each(["database", "jwt"] as const)("enrol, add passkeys, rename, delete, unlink in one session, %s sessions", (strategy) => {
  it("every step passes the step-up gate on the code of the enrolment; the session records pwd otp mfa throughout", async () => {
    const s = setup(strategy, { twoFactor: { issuer: "Example" }, rateLimit: false })
    const adapter = twoFactorAdapter(s.adapter)
    adapter.accounts.push({ userId: "user-1", provider: "github", providerAccountId: "gh-1", type: "oauth" })
    // The password is a way in that stays (JWT sessions store no credentials account themselves).
    adapter.accounts.push({ userId: "user-1", provider: "credentials", providerAccountId: "user-1", type: "credentials" })
    const { client, config } = s
    expect((await client.signIn()).status).toBe(302)

    const json = (body: Record<string, unknown>) => client.csrfToken().then((csrfToken) => client.request("/auth/two-factor", { json: { csrfToken, ...body } }))
    const { secret } = (await (await json({ action: "totp-enroll" })).json()) as { secret: string }
    const before = sessionCookie(client) && client.jar.get(sessionCookie(client)!)
    const confirmed = await json({ action: "totp-confirm", code: codeAt(secret) })
    expect(confirmed.status).toBe(200)
    // The session was re-issued: a new token recording both factors.
    expect(client.jar.get(sessionCookie(client)!)).not.toBe(before)
    const amr = (await requireRecentAuthentication(appRequest(client), config, { secondFactor: true })).amr
    expect(amr).toEqual(["pwd", "otp", "mfa"])

    advanceSeconds(60)
    for (let i = 0; i < 2; i++) {
      const { body } = await options(client, "?action=register")
      expect((await answer(client, "register", s.device.register(body.options))).status).toBe(302)
      // Adding a way in is no new sign-in: the session's record stays as it was.
      expect((await requireRecentAuthentication(appRequest(client), config, { secondFactor: true })).amr).toEqual(amr)
    }
    const passkeys = await listPasskeys(appRequest(client), config)
    expect(passkeys).toHaveLength(2)
    expect((await renamePasskey(appRequest(client), config, { id: passkeys[0]!.id, name: "Laptop" })).name).toBe("Laptop")
    expect((await deletePasskey(appRequest(client), config, { id: passkeys[1]!.id })).id).toBe(passkeys[1]!.id)
    expect((await unlinkLinkedAccount(appRequest(client), config, { provider: "github" })).provider).toBe("github")
    expect(adapter.accounts.map((a) => a.provider).sort()).toEqual(["credentials", "passkey"])
    expect((await requireRecentAuthentication(appRequest(client), config, { secondFactor: true })).amr).toEqual(amr)
  })

  it("adding a passkey after a sign-in with password and code keeps the session's authTime and amr (no downgrade to hwk user)", async () => {
    const s = setup(strategy, { twoFactor: { issuer: "Example" }, rateLimit: false })
    twoFactorAdapter(s.adapter)
    const { client, config } = s
    expect((await client.signIn()).status).toBe(302)
    const json = (body: Record<string, unknown>) => client.csrfToken().then((csrfToken) => client.request("/auth/two-factor", { json: { csrfToken, ...body } }))
    const { secret } = (await (await json({ action: "totp-enroll" })).json()) as { secret: string }
    await json({ action: "totp-confirm", code: codeAt(secret) })
    client.jar.clear()
    advanceSeconds(30)
    expect((await client.signIn("alice", "wonderland", { twoFactorCode: codeAt(secret) })).status).toBe(302)
    const signedIn = await requireRecentAuthentication(appRequest(client), config, { secondFactor: true })
    advanceSeconds(60)
    const { body } = await options(client, "?action=register")
    expect((await answer(client, "register", s.device.register(body.options))).status).toBe(302)
    expect(await requireRecentAuthentication(appRequest(client), config, { secondFactor: true })).toEqual(signedIn)
  })
})
