/**
 * POST /auth/callback/email: which adapter calls completing a sign-in costs. A returning user whose
 * `email` account is linked needs three: the token, the account's owner, the session.
 */
import { describe, expect, it } from "vitest"
import { MemoryRateLimitStore, type AdapterUser, type AuthConfig } from "../../../src/index.js"
import { Client } from "../../helpers/harness.js"
import { accountListingAdapter } from "../../helpers/account-listing-adapter.js"
import { emailSetup, formFields, requestLink } from "./helpers.js"

const ADDRESS = "jane@example.com"

/** Two links for one address in a row: the per-address cooldown is not what these tests measure. */
const noCooldown = (): Partial<AuthConfig> => ({ rateLimit: { store: new MemoryRateLimitStore(), email: { perAddress: false } } })

/** Signs `ADDRESS` in through a link in a fresh browser; returns the adapter calls of the completion. */
async function completeInFreshBrowser(setup: ReturnType<typeof emailSetup>): Promise<string[]> {
  const browser = new Client(setup.config)
  await requestLink(browser, ADDRESS)
  const link = new URL(setup.outbox.sent.at(-1)!.url)
  // The page (GET) reads the token unused; what is counted is the completion (POST).
  const page = await browser.request(link.pathname + link.search)
  const fields = formFields(await page.text())
  setup.adapter.calls.length = 0
  const done = await browser.request(link.pathname, { method: "POST", form: fields })
  expect(done.status).toBe(302)
  expect(done.headers.get("location")).toBe("http://localhost:3000/")
  return setup.adapter.calls.map((c) => c.method)
}

describe("POST /auth/callback/email: adapter calls", () => {
  it("a returning, linked user: useVerificationToken, getUserByAccount, createSession", async () => {
    const setup = emailSetup(noCooldown())
    await completeInFreshBrowser(setup)
    expect(await completeInFreshBrowser(setup)).toEqual(["useVerificationToken", "getUserByAccount", "createSession"])
    expect(setup.adapter.users.size).toBe(1)
    expect(setup.adapter.accounts).toHaveLength(1)
    expect(setup.adapter.sessions.size).toBe(2)
  })

  it("a returning user under jwt sessions: three calls (the third reads the user's session epoch for the token)", async () => {
    const setup = emailSetup({ session: { strategy: "jwt" }, ...noCooldown() })
    await completeInFreshBrowser(setup)
    expect(await completeInFreshBrowser(setup)).toEqual(["useVerificationToken", "getUserByAccount", "getUserSessionEpoch"])
  })

  it("a new user: created verified and linked, with the createUser and linkAccount events", async () => {
    const events: string[] = []
    const setup = emailSetup({ events: { createUser: () => void events.push("createUser"), linkAccount: () => void events.push("linkAccount"), signIn: (m) => void events.push(`signIn ${m.isNewUser}`) } })
    expect(await completeInFreshBrowser(setup)).toEqual([
      "useVerificationToken", "getUserByAccount", "getUserByEmail", "createUser", "linkAccount", "createSession",
    ])
    expect(events).toEqual(["createUser", "linkAccount", "signIn true"])
    expect([...setup.adapter.users.values()][0]).toMatchObject({ email: ADDRESS, emailVerified: expect.any(Date) })
  })

  it("a user who came another way (unverified, no email account): what was linked before is removed, sessions end; verified and linked once", async () => {
    const events: string[] = []
    const seen: unknown[] = []
    const setup = emailSetup({
      events: { updateUser: () => void events.push("updateUser"), linkAccount: () => void events.push("linkAccount"), signIn: (m) => void events.push(`signIn ${m.isNewUser}`) },
      callbacks: { signIn: ({ user, email }) => (email ? true : (seen.push(user), true)) },
      ...noCooldown(),
    }, {}, accountListingAdapter())
    const stored: AdapterUser = { id: "u-1", name: "Jane", email: ADDRESS, emailVerified: null }
    setup.adapter.users.set(stored.id, { ...stored })
    expect(await completeInFreshBrowser(setup)).toEqual([
      "useVerificationToken", "getUserByAccount", "getUserByEmail",
      "listAccountsByUserId", "listAuthenticatorsByUserId", "deleteSessionsByUserId", "incrementUserSessionEpoch",
      "updateUser", "linkAccount", "createSession",
    ])
    expect(events).toEqual(["updateUser", "linkAccount", "signIn false"])
    expect(seen).toEqual([stored])
    expect(setup.adapter.accounts).toEqual([{ provider: "email", providerAccountId: ADDRESS, type: "email", userId: "u-1" }])
    expect(await completeInFreshBrowser(setup)).toEqual(["useVerificationToken", "getUserByAccount", "createSession"])
    expect(events.slice(3)).toEqual(["signIn false"])
  })

  it("what the signIn callback does to its user argument does not reach the user that is signed in", async () => {
    const names: unknown[] = []
    const setup = emailSetup({
      session: { strategy: "jwt" },
      callbacks: {
        signIn: ({ user, email }) => (email ? true : ((user.name = "Mallory"), true)),
        jwt: ({ token, user }) => (user && names.push(user.name), token),
      },
    })
    setup.adapter.users.set("u-1", { id: "u-1", name: "Jane", email: ADDRESS, emailVerified: new Date() })
    await completeInFreshBrowser(setup)
    expect(names).toEqual(["Jane"])
    expect(setup.adapter.users.get("u-1")!.name).toBe("Jane")
  })
})
