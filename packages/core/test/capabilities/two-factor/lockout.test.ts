/**
 * The consecutive-failure cap of a user's TOTP (NIST SP 800-63B-4: at most 100 failed attempts in a
 * row), through the public API, both session strategies: after `twoFactor.lockAfterFailures` wrong
 * TOTP codes in a row (counted with rate limits off too) every TOTP code, even the right one, is
 * refused with `TOTP_LOCKED`, at every door (the two-factor step, the code sent with the password,
 * step-up), and concurrent guesses cannot get more checks than the cap; the `twoFactorLocked` event
 * fires once; a backup code, a sign-in by e-mail link with the right code (with its own cap of
 * guesses), or the app (`unlockTwoFactor`) clears it; a sign-in by password stays locked; the page
 * says what to do.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import type { AuthConfig } from "../../../src/index.js"
import { stepUpTwoFactor, unlockTwoFactor } from "../../../src/index.js"
import { Client, ORIGIN, config as baseConfig, recordingLogger } from "../../helpers/harness.js"
import { twoFactorAdapter, type TwoFactorAdapter } from "../../helpers/two-factor-adapter.js"
import { emailProvider, followLink, requestLink, type Outbox } from "../email/helpers.js"
import { advanceSeconds, appRequest, codeAt, enrolTotpWithBackupCodes, sessionCookie, wrongCodeFor } from "../../helpers/two-factor.js"

const T0 = Date.UTC(2026, 10, 26, 12, 0, 0)

type TwoFactorOption = NonNullable<AuthConfig["twoFactor"]>

function setup(strategy: "jwt" | "database", twoFactor: TwoFactorOption = { lockAfterFailures: 3 }, over: Partial<AuthConfig> = {}) {
  const adapter = twoFactorAdapter()
  const outbox: Outbox = { sent: [] }
  const locked: unknown[] = []
  // Alice is stored with her address verified: the app's `authorize` answers her id, and an e-mail link finds her.
  adapter.users.set("user-1", { id: "user-1", name: "Alice", email: "alice@example.com", emailVerified: new Date(T0) })
  const config = baseConfig({
    adapter,
    session: { strategy },
    twoFactor: { issuer: "Example", ...twoFactor },
    // Off: the cap must hold without the rate limits.
    rateLimit: false,
    providers: [baseConfig().providers[0]!, emailProvider(outbox)],
    events: { twoFactorLocked: (message) => void locked.push(message) },
    ...over,
  })
  return { adapter, config, outbox, locked }
}

/** A user enrolled by `config`'s first client; answers the secret and backup codes. */
async function enrolled(config: AuthConfig) {
  return enrolTotpWithBackupCodes(new Client(config))
}

/** A password sign-in held for its second factor. */
async function held(config: AuthConfig): Promise<Client> {
  const client = new Client(config)
  expect((await client.signIn()).headers.get("location")).toBe(`${ORIGIN}/auth/two-factor`)
  return client
}

/** A sign-in by e-mail link held for its second factor. */
async function heldByLink(config: AuthConfig, outbox: Outbox): Promise<Client> {
  const client = new Client(config)
  await requestLink(client, "alice@example.com")
  advanceSeconds(61) // past the per-address mail cooldown
  const { done } = await followLink(client, outbox.sent.at(-1)!.url)
  expect(done.headers.get("location")).toBe(`${ORIGIN}/auth/two-factor`)
  return client
}

/** `action=verify` as a script sends it: the status and the JSON error (none for a session). */
async function verify(client: Client, code: string, csrfToken?: string): Promise<{ status: number; code?: string }> {
  const res = await client.request("/auth/two-factor", { json: { csrfToken: csrfToken ?? (await client.csrfToken()), action: "verify", code } })
  if (res.status === 302) return { status: 302 }
  return { status: res.status, code: ((await res.json()) as { code?: string }).code }
}

const INVALID = { status: 401, code: "CODE_INVALID" }
const LOCKED = { status: 403, code: "TOTP_LOCKED" }

/** `times` wrong TOTP codes on one pending sign-in, each refused as invalid. */
async function guessWrong(client: Client, secret: string, times: number): Promise<void> {
  for (let i = 0; i < times; i++) expect(await verify(client, wrongCodeFor(secret))).toEqual(INVALID)
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] })
  vi.setSystemTime(T0)
})
afterEach(() => vi.useRealTimers())

for (const strategy of ["database", "jwt"] as const) {
  describe(`TOTP lock after failures in a row, ${strategy} sessions`, () => {
    it("locks TOTP after lockAfterFailures wrong codes, rate limits off: the right code is refused too, and the event fires once", async () => {
      const { config, locked } = setup(strategy)
      const { secret } = await enrolled(config)
      const client = await held(config)
      await guessWrong(client, secret, 3)
      expect(locked).toEqual([{ user: { id: "user-1" }, failedAttempts: 3 }])
      advanceSeconds(30)
      expect(await verify(client, codeAt(secret))).toEqual(LOCKED)
      expect(sessionCookie(client)).toBeUndefined()
      // Another pending sign-in, another instance of the page: the lock is the user's, not the sign-in's.
      expect(await verify(await held(config), codeAt(secret))).toEqual(LOCKED)
      expect(await verify(client, wrongCodeFor(secret))).toEqual(LOCKED)
      expect(locked).toHaveLength(1)
      expect(sessionCookie(client)).toBeUndefined()
    })

    it("a backup code still signs in while locked, and clears the count: TOTP codes work again", async () => {
      const { config } = setup(strategy)
      const { secret, backupCodes } = await enrolled(config)
      const client = await held(config)
      await guessWrong(client, secret, 3)
      expect(await verify(client, backupCodes[0]!)).toEqual({ status: 302 })
      expect(sessionCookie(client)).toBeDefined()
      const next = await held(config)
      advanceSeconds(30)
      expect(await verify(next, codeAt(secret))).toEqual({ status: 302 })
      // The count starts again from 0, not from where the lock left it.
      const third = await held(config)
      await guessWrong(third, secret, 2)
      advanceSeconds(30)
      expect(await verify(third, codeAt(secret))).toEqual({ status: 302 })
    })

    it("wrong backup-code-shaped codes are not TOTP guesses: they do not count toward the lock", async () => {
      const { config, locked } = setup(strategy)
      const { secret } = await enrolled(config)
      const client = await held(config)
      for (let i = 0; i < 5; i++) expect(await verify(client, `ABCD-EFGH-JKL${i}`)).toEqual(INVALID)
      advanceSeconds(30)
      expect(await verify(client, codeAt(secret))).toEqual({ status: 302 })
      expect(locked).toEqual([])
    })

    it("a sign-in by e-mail link may use TOTP despite the lock, and its right code clears it; a password sign-in stays locked", async () => {
      const { config, outbox } = setup(strategy)
      const { secret } = await enrolled(config)
      await guessWrong(await held(config), secret, 3)
      const byPassword = await held(config)
      const byLink = await heldByLink(config, outbox)
      expect(await verify(byPassword, codeAt(secret))).toEqual(LOCKED)
      // A wrong code on the link's sign-in is still just wrong (and the lock stays).
      expect(await verify(byLink, wrongCodeFor(secret))).toEqual(INVALID)
      expect(await verify(byPassword, codeAt(secret))).toEqual(LOCKED)
      expect(await verify(byLink, codeAt(secret))).toEqual({ status: 302 })
      expect(sessionCookie(byLink)).toBeDefined()
      advanceSeconds(30)
      expect(await verify(byPassword, codeAt(secret))).toEqual({ status: 302 })
    })

    it("a sign-in by e-mail link gets no more than the cap of guesses past the lock: whoever holds the inbox is capped per link", async () => {
      const { config, outbox } = setup(strategy)
      const { secret } = await enrolled(config)
      await guessWrong(await held(config), secret, 3)
      const byLink = await heldByLink(config, outbox)
      await guessWrong(byLink, secret, 3)
      expect(await verify(byLink, wrongCodeFor(secret))).toEqual(LOCKED)
      advanceSeconds(30)
      expect(await verify(byLink, codeAt(secret))).toEqual(LOCKED)
      // A new link is a new proof: its right code still unlocks.
      const again = await heldByLink(config, outbox)
      expect(await verify(again, codeAt(secret))).toEqual({ status: 302 })
    })

    it("concurrent wrong guesses get no more checks than the cap: every one is counted before it is checked", async () => {
      const { config, locked } = setup(strategy, { lockAfterFailures: 5 })
      const { secret } = await enrolled(config)
      const client = await held(config)
      const csrf = await client.csrfToken()
      const answers = await Promise.all(Array.from({ length: 30 }, () => verify(client, wrongCodeFor(secret), csrf)))
      expect(answers.filter((a) => a.code === "CODE_INVALID")).toHaveLength(5)
      expect(answers.filter((a) => a.code === "TOTP_LOCKED")).toHaveLength(25)
      expect(locked).toEqual([{ user: { id: "user-1" }, failedAttempts: 5 }])
      advanceSeconds(30)
      expect(await verify(client, codeAt(secret))).toEqual(LOCKED)
    })

    it("unlockTwoFactor: the app clears the lock (true), and answers false for a user without two factors", async () => {
      const { config } = setup(strategy)
      const { secret } = await enrolled(config)
      const client = await held(config)
      await guessWrong(client, secret, 3)
      expect(await unlockTwoFactor(config, "user-1")).toBe(true)
      advanceSeconds(30)
      expect(await verify(client, codeAt(secret))).toEqual({ status: 302 })
      expect(await unlockTwoFactor(config, "nobody")).toBe(false)
      expect(await unlockTwoFactor(config, "")).toBe(false)
    })

    it("the code sent with the password counts too, and once locked answers as a wrong password does", async () => {
      const { config } = setup(strategy)
      const { secret } = await enrolled(config)
      const wrongPassword = await new Client(config).signIn("alice", "not-it", { twoFactorCode: codeAt(secret) })
      for (let i = 0; i < 3; i++) {
        const res = await new Client(config).signIn("alice", "wonderland", { twoFactorCode: wrongCodeFor(secret) })
        expect(res.headers.get("location")).toBe(wrongPassword.headers.get("location"))
      }
      advanceSeconds(30)
      const right = new Client(config)
      const res = await right.signIn("alice", "wonderland", { twoFactorCode: codeAt(secret) })
      expect(res.headers.get("location")).toBe(wrongPassword.headers.get("location"))
      expect(sessionCookie(right)).toBeUndefined()
      expect(await verify(await held(config), codeAt(secret))).toEqual(LOCKED)
    })

    it("step-up is locked too: the signed-in user's right code is refused after the cap", async () => {
      const { config } = setup(strategy)
      const enrolling = new Client(config)
      const { secret } = await enrolTotpWithBackupCodes(enrolling)
      for (let i = 0; i < 3; i++) await expect(stepUpTwoFactor(appRequest(enrolling), config, { code: wrongCodeFor(secret) })).rejects.toMatchObject({ code: "CODE_INVALID" })
      advanceSeconds(30)
      await expect(stepUpTwoFactor(appRequest(enrolling), config, { code: codeAt(secret) })).rejects.toMatchObject({ type: "TwoFactorError", code: "TOTP_LOCKED" })
    })
  })
}

describe("TOTP lock: default, page and option", () => {
  it("locks after 100 failures in a row by default", async () => {
    const { config, locked } = setup("database", {})
    const { secret } = await enrolled(config)
    const client = await held(config)
    await guessWrong(client, secret, 100)
    expect(locked).toEqual([{ user: { id: "user-1" }, failedAttempts: 100 }])
    advanceSeconds(30)
    expect(await verify(client, codeAt(secret))).toEqual(LOCKED)
  })

  it("the page says what to do: a backup code, or a sign-in by e-mail link when the app has one", async () => {
    const { config } = setup("database")
    const { secret } = await enrolled(config)
    const client = await held(config)
    await guessWrong(client, secret, 3)
    advanceSeconds(30)
    const refused = await client.post("/auth/two-factor", { action: "verify", code: codeAt(secret) })
    expect(refused.headers.get("location")).toBe(`${ORIGIN}/auth/two-factor?error=TwoFactorError&code=TOTP_LOCKED`)
    const page = await (await client.request(refused.headers.get("location")!)).text()
    expect(page).toContain("Too many wrong codes from your authenticator app")
    expect(page).toContain("backup code")
    expect(page).toContain("link sent to your e-mail address")
    // Without an e-mail provider the page does not offer the link.
    const { config: noEmail } = setup("database", { lockAfterFailures: 3 }, { providers: [baseConfig().providers[0]!] })
    await enrolled(noEmail)
    const other = await held(noEmail)
    const plain = await (await other.request("/auth/two-factor?error=TwoFactorError&code=TOTP_LOCKED")).text()
    expect(plain).toContain("backup code")
    expect(plain).not.toContain("e-mail")
  })

  it("refuses to start with an adapter whose two-factor port lacks the lock's methods (one written before them)", async () => {
    const { logger, entries } = recordingLogger()
    const { config } = setup("database", {}, { logger })
    const { countTwoFactorAttempt: _c, resetTwoFactorFailures: _r, ...olderPort } = config.adapter as TwoFactorAdapter
    const res = await new Client({ ...config, adapter: olderPort }).request("/auth/providers")
    expect(res.status).toBe(500)
    expect(await res.json()).toEqual({ error: "Configuration" })
    const logged = entries.flatMap((e) => e.message).find((m) => (m as { type?: string }).type === "MissingAdapterMethods") as Error | undefined
    expect(logged?.message).toContain("needs an adapter with countTwoFactorAttempt, resetTwoFactorFailures")
  })

  it.each([0, -1, 1.5, 101, "10", Number.NaN, Number.POSITIVE_INFINITY])("refuses to start with lockAfterFailures %s", async (value) => {
    const { config } = setup("database", { lockAfterFailures: value as number })
    const res = await new Client(config).request("/auth/providers")
    expect(res.status).toBe(500)
    expect(await res.json()).toEqual({ error: "Configuration" })
  })
})
