/**
 * An OAuth/OIDC sign-in (a real OpenID provider on loopback) of a user with two factors enabled ends
 * pending, with no session cookie, in both strategies; the code then completes it.
 */
import { describe, expect, it } from "vitest"
import { createTotpKey, totp } from "../../../src/capabilities/two-factor/totp.js"
import { sealTotpKey } from "../../../src/capabilities/two-factor/secret-box.js"
import { APP, browserFor, locationOf, sessionCookie, sessionOf, signInAtLocalOP, testConfig } from "../oauth/helpers/app.js"
import { useLocalOidc } from "../oauth/helpers/local-oidc.js"
import { twoFactorAdapter } from "../../helpers/two-factor-adapter.js"

const oidc = useLocalOidc()

describe.each(["database", "jwt"] as const)("an OIDC sign-in with two factors enabled, %s sessions", (strategy) => {
  it("sets no session cookie until the code is verified", async () => {
    const adapter = twoFactorAdapter()
    const config = testConfig({ adapter, providers: [oidc()], rateLimit: false, session: { strategy }, twoFactor: {} })
    const first = browserFor(config)
    await signInAtLocalOP(first, "op", "alice")
    const [user] = [...adapter.users.values()]
    // Two factors enabled for the stored user, as the enrolment route leaves them.
    const key = createTotpKey()
    const sealed = await sealTotpKey(key, user!.id, [config.secret as string])
    await adapter.setTwoFactorPendingSecret(user!.id, sealed)
    await adapter.enableTwoFactor(user!.id, { secret: sealed, step: 0, backupCodeHashes: [] })

    const browser = browserFor(config)
    const held = await signInAtLocalOP(browser, "op", "alice")
    expect(locationOf(held)).toBe(`${APP}/auth/two-factor`)
    expect(sessionCookie(browser)).toBeUndefined()
    expect(await sessionOf(browser)).toBeNull()

    const { csrfToken } = JSON.parse((await browser.request(`${APP}/auth/csrf`)).body) as { csrfToken: string }
    const done = await browser.form(`${APP}/auth/two-factor`, { csrfToken, action: "verify", code: totp(key, Date.now()) }, { origin: APP })
    expect(locationOf(done)).toBe(`${APP}/dashboard`)
    expect(sessionCookie(browser)).toBeDefined()
    expect((await sessionOf(browser))?.user?.email).toBe(user!.email)
  })
})
