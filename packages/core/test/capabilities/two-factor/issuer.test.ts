/**
 * The TOTP issuer authenticator apps show: by default the app's host name (never its port: apps
 * split the `otpauth://` label at the first ":", so `localhost:3000` broke every enrolment with a
 * 500); an IPv6 literal falls back to "authlib"; an issuer given with ":" stops the app at start-up
 * instead of at the first enrolment.
 */
import { describe, expect, it } from "vitest"
import type { TwoFactorOptions } from "../../../src/index.js"
import { Client, config as baseConfig, recordingLogger } from "../../helpers/harness.js"
import { twoFactorAdapter } from "../../helpers/two-factor-adapter.js"

function client(url: string | undefined, twoFactor: TwoFactorOptions = {}) {
  const log = recordingLogger()
  return { client: new Client(baseConfig({ adapter: twoFactorAdapter(), session: { strategy: "database" }, twoFactor, logger: log.logger, ...(url ? { url } : {}) })), log }
}

async function enrolUri(c: Client): Promise<{ status: number; uri?: string }> {
  expect((await c.signIn()).status).toBe(302)
  const res = await c.post("/auth/two-factor", { action: "totp-enroll" })
  return { status: res.status, ...((await res.json()) as { uri?: string }) }
}

describe("the TOTP issuer", () => {
  it.each([
    ["http://localhost:3000", "localhost"],
    ["https://app.example.com:8443/base", "app.example.com"],
    ["http://[::1]:3000", "authlib"],
    [undefined, "authlib"],
  ])("with url %s, enrolment works and the issuer is %s", async (url, issuer) => {
    const { status, uri } = await enrolUri(client(url).client)
    expect(status).toBe(200)
    expect(new URL(uri!).searchParams.get("issuer")).toBe(issuer)
    expect(decodeURIComponent(new URL(uri!).pathname)).toBe(`/${issuer}:alice@example.com`)
  })

  it("an issuer with a colon is refused at start-up, for every request", async () => {
    const { client: c, log } = client("http://localhost:3000", { issuer: "Example:Corp" })
    const res = await c.request("/auth/providers")
    expect(res.status).toBe(500)
    expect(await res.json()).toEqual({ error: "Configuration" })
    expect(log.entries.some((e) => e.level === "error" && String(e.message[0]).includes('TOTP "issuer"'))).toBe(true)
  })
})
