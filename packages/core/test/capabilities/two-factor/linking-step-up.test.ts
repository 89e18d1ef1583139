/**
 * Linking an IdP account while signed in is a change to the ways in: for a user with two factors it
 * needs a second factor verified within `twoFactor.freshAge`, as adding a passkey does (a real
 * OpenID provider on 127.0.0.1), both session strategies. A refused link stores nothing.
 */
import { describe, expect, it } from "vitest"
import type { AuthConfig } from "../../../src/index.js"
import { confirmTotpEnrollment, decode, encode, startTotpEnrollment } from "../../../src/index.js"
import { APP, browserFor, locationOf, sessionOf, signInAtLocalOP, testConfig } from "../oauth/helpers/app.js"
import type { Browser } from "@authlib/e2e-kit/oidc/browser"
import { useLocalOidc } from "../oauth/helpers/local-oidc.js"
import { accountListingAdapter } from "../../helpers/account-listing-adapter.js"
import { credentials } from "../../helpers/harness.js"
import { twoFactorAdapter } from "../../helpers/two-factor-adapter.js"
import { codeAt } from "../../helpers/two-factor.js"

const oidc = useLocalOidc()


function setup(strategy: "jwt" | "database") {
  const adapter = twoFactorAdapter(accountListingAdapter())
  adapter.users.set("user-1", { id: "user-1", name: "Alice", email: "alice@example.com", emailVerified: new Date() })
  const config: AuthConfig = testConfig({ adapter, providers: [credentials(), oidc()], rateLimit: false, session: { strategy }, twoFactor: { issuer: "Example" } })
  return { adapter, config }
}

const appRequest = (browser: Browser) => new Request(`${APP}/account`, { headers: { cookie: [...browser.cookies(APP)].map(([n, v]) => `${n}=${v}`).join("; ") } })

async function passwordSignIn(browser: Browser, fields: Record<string, string> = {}) {
  const { csrfToken } = JSON.parse((await browser.request(`${APP}/auth/csrf`)).body) as { csrfToken: string }
  return browser.form(`${APP}/auth/callback/credentials`, { csrfToken, username: "alice", password: "wonderland", ...fields }, { origin: APP })
}

/** Ages the browser's session by `seconds` (its recorded authentication time moved back), as time passing would. */
async function ageSession(browser: Browser, config: AuthConfig, adapter: ReturnType<typeof setup>["adapter"], seconds: number) {
  if (config.session?.strategy === "database") {
    for (const session of adapter.sessions.values()) if (typeof session.authTime === "number") session.authTime -= seconds
    return
  }
  const jar = browser.cookies(APP)
  const name = "authlib.session-token"
  const token = (await decode({ token: jar.get(name)!, secret: config.secret as string, salt: name }))!
  jar.set(name, await encode({ token: { ...token, auth_time: (token.auth_time as number) - seconds }, secret: config.secret as string, salt: name }))
}

describe.each(["database", "jwt"] as const)("linking an IdP account while signed in, %s sessions", (strategy) => {
  it("an hour-old second factor: refused (ReauthenticationRequired), nothing linked; a fresh one: linked", async () => {
    const { adapter, config } = setup(strategy)
    const browser = browserFor(config)
    expect((await passwordSignIn(browser)).response.status).toBe(302)
    const { secret } = await startTotpEnrollment(appRequest(browser), config)
    const { backupCodes } = await confirmTotpEnrollment(appRequest(browser), config, { code: codeAt(secret) })
    // Signed in with both factors, an hour ago.
    expect(locationOf(await passwordSignIn(browser, { twoFactorCode: codeAt(secret, 1) }))).not.toContain("/auth/")
    await ageSession(browser, config, adapter, 3600)

    const refused = await signInAtLocalOP(browser, "op", "bob")
    expect(locationOf(refused)).toBe(`${APP}/auth/error?error=ReauthenticationRequired&code=AUTHENTICATION_TOO_OLD`)
    expect(adapter.accounts.filter((a) => a.provider === "op")).toEqual([])
    expect((await sessionOf(browser))?.user?.email).toBe("alice@example.com")

    // A fresh second factor (a new sign-in with a backup code: the next TOTP step is not due yet), then the link goes through.
    expect(locationOf(await passwordSignIn(browser, { twoFactorCode: backupCodes[0]! }))).not.toContain("/auth/")
    const linked = await signInAtLocalOP(browser, "op", "bob")
    expect(locationOf(linked)).toBe(`${APP}/dashboard`)
    expect(adapter.accounts.filter((a) => a.provider === "op").map((a) => a.userId)).toEqual(["user-1"])
  })
})
