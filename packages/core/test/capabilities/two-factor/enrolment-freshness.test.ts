/**
 * Turning two factors on needs a fresh authentication (ASVS 5.0: before any change to the
 * authentication factors), through the route and the server functions, both session strategies:
 * an old (or stolen) session cannot enrol an authenticator and lock the owner out; signing in
 * again (any first factor) makes it fresh.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import type { AuthConfig } from "../../../src/index.js"
import { confirmTotpEnrollment, getTwoFactorStatus, ReauthenticationRequired, startTotpEnrollment } from "../../../src/index.js"
import { Client, config as baseConfig } from "../../helpers/harness.js"
import { twoFactorAdapter } from "../../helpers/two-factor-adapter.js"
import { advanceSeconds, appRequest, codeAt } from "../../helpers/two-factor.js"

const T0 = Date.UTC(2026, 10, 26, 12, 0, 0)

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] })
  vi.setSystemTime(T0)
})
afterEach(() => vi.useRealTimers())

const json = { headers: { "x-auth-return-redirect": "1" } }

function setup(strategy: "jwt" | "database", over: Partial<AuthConfig> = {}) {
  // Sessions that live 60 days, so a 40-day-old one is still a valid session.
  const adapter = twoFactorAdapter()
  // Alice is stored under both strategies (a JWT session acts only for a stored user).
  adapter.users.set("user-1", { id: "user-1", name: "Alice", email: "alice@example.com", emailVerified: null })
  const config = baseConfig({ adapter, session: { strategy, maxAge: 60 * 86400 }, twoFactor: { issuer: "Example", freshAge: 600 }, rateLimit: false, ...over })
  return { config, client: new Client(config) }
}

async function refused(promise: Promise<unknown>): Promise<unknown> {
  const err = await promise.then(() => null, (e: unknown) => e)
  expect(err).toBeInstanceOf(ReauthenticationRequired)
  return (err as ReauthenticationRequired).code
}

describe.each(["database", "jwt"] as const)("enrolling a second factor needs a fresh sign-in, %s sessions", (strategy) => {
  it("a 40-day-old session can neither enrol nor confirm (route: 403 AUTHENTICATION_TOO_OLD); nothing is stored", async () => {
    const { config, client } = setup(strategy)
    expect((await client.signIn()).status).toBe(302)
    advanceSeconds(40 * 86400)
    const enrol = await client.post("/auth/two-factor", { action: "totp-enroll" }, json)
    expect(enrol.status).toBe(403)
    expect(await enrol.json()).toEqual({ error: "ReauthenticationRequired", code: "AUTHENTICATION_TOO_OLD" })
    const confirm = await client.post("/auth/two-factor", { action: "totp-confirm", code: "123456" }, json)
    expect(confirm.status).toBe(403)
    expect(await (config.adapter as ReturnType<typeof twoFactorAdapter>).getTwoFactor("user-1")).toBeNull()
    // Still signed in: only the change is refused.
    expect(await getTwoFactorStatus(appRequest(client), config)).toEqual({ enabled: false, backupCodesLeft: 0 })
  })

  it("the server functions refuse the same; signing in again makes it fresh, and enrolment started fresh cannot be confirmed once stale", async () => {
    const { config, client } = setup(strategy)
    expect((await client.signIn()).status).toBe(302)
    advanceSeconds(601)
    expect(await refused(startTotpEnrollment(appRequest(client), config))).toBe("AUTHENTICATION_TOO_OLD")
    expect(await refused(confirmTotpEnrollment(appRequest(client), config, { code: "123456" }))).toBe("AUTHENTICATION_TOO_OLD")

    expect((await client.signIn()).status).toBe(302)
    const { secret } = await startTotpEnrollment(appRequest(client), config)
    advanceSeconds(601)
    expect(await refused(confirmTotpEnrollment(appRequest(client), config, { code: codeAt(secret) }))).toBe("AUTHENTICATION_TOO_OLD")
    expect((await client.signIn()).status).toBe(302)
    expect(await confirmTotpEnrollment(appRequest(client), config, { code: codeAt(secret) })).toMatchObject({ enabled: true })
  })

  it("a session that does not say when it signed in (issued before authTime was recorded) counts as stale", async () => {
    const { config, client } = setup(strategy)
    expect((await client.signIn()).status).toBe(302)
    const adapter = config.adapter as ReturnType<typeof twoFactorAdapter>
    if (strategy === "database") {
      for (const session of adapter.sessions.values()) (delete session.authTime, delete session.amr)
    } else {
      // A token as an Auth.js v5 app (or authlib before step-up) issued it: no auth_time claim.
      const { encode } = await import("@authlib/jwt")
      const name = [...client.jar.keys()].find((n) => n.includes("session-token"))!
      client.jar.set(name, await encode({ token: { sub: "user-1", email: "alice@example.com" }, secret: config.secret as string, salt: name }))
    }
    expect(await refused(startTotpEnrollment(appRequest(client), config))).toBe("AUTHENTICATION_TOO_OLD")
  })
})
