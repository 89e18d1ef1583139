/**
 * Account pre-hijacking with the new surfaces, IdP first (a real OpenID provider on 127.0.0.1 that
 * never verified the address Mallory typed, the victim's):
 * - Mallory enrols TOTP in the planted user; the victim's e-mail link proves the address and the
 *   clean-up removes her second factor with her links (enabled or still enrolling, and after an
 *   interrupted clean-up too), so the victim is not held for Mallory's code;
 * - Mallory's IdP callback found the account's owner just before the clean-up unlinked it and
 *   stores its session just after the clean-up ended sessions: no session is issued (database:
 *   with and without `createSessionForAccount`; JWT: the epoch is read before the link is checked).
 */
import { describe, expect, it } from "vitest"
import type { Adapter, AdapterAccount, AuthConfig } from "../../src/index.js"
import { confirmTotpEnrollment, getTwoFactorStatus, startTotpEnrollment } from "../../src/index.js"
import { APP, browserFor, locationOf, sessionOf, signInAtLocalOP, testConfig, type LoggedError } from "../capabilities/oauth/helpers/app.js"
import type { Browser } from "@authlib/e2e-kit/oidc/browser"
import { useLocalOidc } from "../capabilities/oauth/helpers/local-oidc.js"
import { emailProvider, followLink, requestLink, type Outbox } from "../capabilities/email/helpers.js"
import { accountListingAdapter, type AccountListingAdapter } from "../helpers/account-listing-adapter.js"
import { Client } from "../helpers/harness.js"
import { twoFactorAdapter, type TwoFactorAdapter } from "../helpers/two-factor-adapter.js"
import { codeAt } from "../helpers/two-factor.js"

const VICTIM = "victim@example.com"
const oidc = useLocalOidc()


type Adapter2FA = AccountListingAdapter & TwoFactorAdapter

function setup(over: Partial<AuthConfig>, adapter: Adapter2FA = twoFactorAdapter(accountListingAdapter())) {
  const outbox: Outbox = { sent: [] }
  const errors: LoggedError[] = []
  const warnings: Array<{ type: string; code: unknown }> = []
  const config = testConfig({ adapter, providers: [oidc(), emailProvider(outbox)], rateLimit: false, twoFactor: { issuer: "Example" }, ...over }, errors)
  config.logger = { ...config.logger!, warn: (type, error) => void warnings.push({ type, code: (error as { code?: unknown })?.code }) }
  return { adapter, config, outbox, errors, warnings }
}
type Setup = ReturnType<typeof setup>

/** The app's own request from `browser` (its cookies), as a server function gets it. */
function appRequest(browser: Browser): Request {
  const cookie = [...browser.cookies(APP)].map(([name, value]) => `${name}=${value}`).join("; ")
  return new Request(`${APP}/account`, { headers: { cookie } })
}

/** The victim asks for a link in their own browser and follows it. */
async function proveByEmail(s: Setup): Promise<{ victim: Client; done: Response }> {
  const victim = new Client(s.config, APP)
  await requestLink(victim, VICTIM)
  const { done } = await followLink(victim, s.outbox.sent.at(-1)!.url)
  return { victim, done }
}

/** Mallory plants the user through the IdP; answers her browser and the planted user's id. */
async function plant(s: Setup): Promise<{ mallory: Browser; userId: string }> {
  const mallory = browserFor(s.config)
  await signInAtLocalOP(mallory, "op", "mallory")
  const [planted] = [...s.adapter.users.values()]
  expect(planted).toMatchObject({ email: VICTIM, emailVerified: null })
  return { mallory, userId: planted!.id }
}

const strategies = [
  ["database", { session: { strategy: "database" as const } }],
  ["jwt", { session: { strategy: "jwt" as const, checkRevocation: "every-request" as const } }],
] as const

describe.each(strategies)("the clean-up removes the squatter's second factor, %s sessions", (_strategy, over) => {
  it("TOTP Mallory enabled is gone once the victim proves the address: the victim signs in without being held, and has no second factor", async () => {
    const s = setup(over)
    const { mallory, userId } = await plant(s)
    const { secret } = await startTotpEnrollment(appRequest(mallory), s.config)
    expect((await confirmTotpEnrollment(appRequest(mallory), s.config, { code: codeAt(secret) })).enabled).toBe(true)

    const { victim, done } = await proveByEmail(s)
    expect(s.errors).toEqual([])
    expect(done.headers.get("location")).toBe(`${APP}/`)
    expect(await s.adapter.getTwoFactor(userId)).toBeNull()
    const victimRequest = new Request(`${APP}/account`, { headers: { cookie: [...victim.jar.keys()].map((n) => `${n}=${victim.jar.get(n)}`).join("; ") } })
    expect(await getTwoFactorStatus(victimRequest, s.config)).toEqual({ enabled: false, backupCodesLeft: 0 })
    expect((await sessionOf(mallory))?.user).toBeUndefined()
  })

  it("a secret Mallory enrolled but never confirmed goes too (she cannot confirm it after the proof)", async () => {
    const s = setup(over)
    const { mallory, userId } = await plant(s)
    await startTotpEnrollment(appRequest(mallory), s.config)
    expect(await s.adapter.getTwoFactor(userId)).toMatchObject({ enabled: false })
    await proveByEmail(s)
    expect(await s.adapter.getTwoFactor(userId)).toBeNull()
  })

  it("an interrupted clean-up leaves the address unverified and the second factor in place; the next link finishes both", async () => {
    const adapter = twoFactorAdapter(accountListingAdapter())
    const remove = adapter.deleteTwoFactor.bind(adapter)
    let failures = 1
    adapter.deleteTwoFactor = async (userId: string) => {
      if (failures-- > 0) throw new Error("connection reset")
      return remove(userId)
    }
    const s = setup(over, adapter)
    const { mallory, userId } = await plant(s)
    const { secret } = await startTotpEnrollment(appRequest(mallory), s.config)
    await confirmTotpEnrollment(appRequest(mallory), s.config, { code: codeAt(secret) })

    const first = await proveByEmail(s)
    expect(first.done.headers.get("location")).toContain("error=")
    expect(adapter.users.get(userId)).toMatchObject({ emailVerified: null })
    expect(await adapter.getTwoFactor(userId)).toMatchObject({ enabled: true })

    const second = await proveByEmail(s)
    expect(second.done.headers.get("location")).toBe(`${APP}/`)
    expect(adapter.users.get(userId)).toMatchObject({ emailVerified: expect.any(Date) })
    expect(await adapter.getTwoFactor(userId)).toBeNull()
  })
})

/** A gate on `getUserByAccount` for the IdP's account: the look-up answers, then waits until released. */
function gateOwnerLookUp(adapter: Adapter) {
  const found = adapter.getUserByAccount
  if (!found) throw new Error("the adapter has no getUserByAccount")
  const lookUp = found.bind(adapter)
  let release!: () => void
  let reached!: () => void
  const released = new Promise<void>((resolve) => (release = resolve))
  const atGate = new Promise<void>((resolve) => (reached = resolve))
  let armed = false
  adapter.getUserByAccount = async (account: Pick<AdapterAccount, "provider" | "providerAccountId">) => {
    const owner = await lookUp(account)
    if (armed && account.provider === "op" && owner) {
      armed = false
      reached()
      await released
    }
    return owner
  }
  return { arm: () => void (armed = true), atGate, release }
}

/** The core memory adapter with `createSessionForAccount`: the session stored only while the account has an owner, in one step. */
function withCreateSessionForAccount(adapter: Adapter2FA): Adapter2FA {
  return Object.assign(adapter, {
    createSessionForAccount: async (account: Pick<AdapterAccount, "provider" | "providerAccountId">, session: { sessionToken: string; expires: Date }) => {
      const link = adapter.accounts.find((a) => a.provider === account.provider && a.providerAccountId === account.providerAccountId)
      const user = link && adapter.users.get(link.userId)
      if (!user) return null
      const stored = { ...session, userId: user.id }
      adapter.sessions.set(stored.sessionToken, stored)
      return { session: { ...stored }, user }
    },
  })
}

describe.each([
  ["database, createSessionForAccount", { session: { strategy: "database" as const } }, true],
  ["database, createSession then a check", { session: { strategy: "database" as const } }, false],
  ["jwt", { session: { strategy: "jwt" as const, checkRevocation: "every-request" as const } }, false],
] as const)("an IdP callback racing the clean-up, %s", (_label, over, shortcut) => {
  it("found the owner before the unlink, writes after the sessions ended: no session for Mallory (OAuthAccountNotLinked ACCOUNT_UNLINKED)", async () => {
    const base = twoFactorAdapter(accountListingAdapter())
    const s = setup(over, shortcut ? withCreateSessionForAccount(base) : base)
    // Installed before the first request: the resolved config keeps the adapter's methods.
    const gate = gateOwnerLookUp(s.adapter)
    const { mallory, userId } = await plant(s)

    // Mallory signs in again; her callback looks the owner up, then is held at the gate.
    gate.arm()
    const again = signInAtLocalOP(mallory, "op", "mallory")
    await gate.atGate
    // Meanwhile the victim proves the address: links removed, sessions ended.
    const { victim, done } = await proveByEmail(s)
    expect(done.headers.get("location")).toBe(`${APP}/`)
    gate.release()
    const step = await again
    expect(locationOf(step)).toBe(`${APP}/auth/error?error=OAuthAccountNotLinked`)
    expect(s.warnings).toContainEqual({ type: "OAuthAccountNotLinked", code: "ACCOUNT_UNLINKED" })
    expect((await sessionOf(mallory))?.user).toBeUndefined()
    // Nothing of hers is stored: only the victim's session, and the e-mail account.
    expect(s.adapter.accounts.map((a) => a.provider)).toEqual(["email"])
    if (over.session.strategy === "database") expect([...s.adapter.sessions.values()].map((x) => x.userId)).toEqual([userId])
    expect(((await victim.session()) as { user?: { email?: string } }).user?.email).toBe(VICTIM)
  })
})
