/**
 * What a session records of how its user authenticated (RFC 8176 `amr`, read through
 * `requireRecentAuthentication`) for the first factors not covered elsewhere, both strategies:
 * an e-mail link is `otp` (then `mfa` with a code), an OAuth/OIDC sign-in is `fed`.
 */
import { describe, expect, it } from "vitest"
import type { AuthConfig } from "../../../src/index.js"
import { requireRecentAuthentication } from "../../../src/index.js"
import { Client, ORIGIN, config as baseConfig } from "../../helpers/harness.js"
import { twoFactorAdapter } from "../../helpers/two-factor-adapter.js"
import { emailProvider, followLink, requestLink, type Outbox } from "../email/helpers.js"
import { APP, browserFor, signInAtLocalOP, testConfig } from "../oauth/helpers/app.js"
import { useLocalOidc } from "../oauth/helpers/local-oidc.js"

const oidc = useLocalOidc()


/** A request of the app carrying `cookie`. */
const withCookie = (cookie: string) => new Request(`${ORIGIN}/account`, { headers: { cookie } })

describe.each(["database", "jwt"] as const)("amr of each way in, %s sessions", (strategy) => {
  it("an e-mail link records otp", async () => {
    const outbox: Outbox = { sent: [] }
    const config: AuthConfig = baseConfig({ adapter: twoFactorAdapter(), session: { strategy }, providers: [emailProvider(outbox)], rateLimit: false })
    const client = new Client(config)
    await requestLink(client, "alice@example.com")
    expect((await followLink(client, outbox.sent.at(-1)!.url)).done.status).toBe(302)
    const headers = new Headers()
    client.jar.apply(headers, new URL(`${ORIGIN}/account`))
    expect((await requireRecentAuthentication(withCookie(headers.get("cookie") ?? ""), config)).amr).toEqual(["otp"])
  })

  it("an OIDC sign-in records fed", async () => {
    const config = testConfig({ adapter: twoFactorAdapter(), providers: [oidc()], rateLimit: false, session: { strategy } })
    const browser = browserFor(config)
    await signInAtLocalOP(browser, "op", "alice")
    const cookie = [...browser.cookies(APP)].map(([name, value]) => `${name}=${value}`).join("; ")
    const info = await requireRecentAuthentication(new Request(`${APP}/account`, { headers: { cookie } }), config)
    expect(info.amr).toEqual(["fed"])
  })
})
