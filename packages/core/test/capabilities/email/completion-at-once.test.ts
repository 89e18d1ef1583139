/**
 * POST /auth/callback/email with an adapter that has `useVerificationTokenAndCreateSession`: a
 * returning, verified user is signed in with that one call (link used, owner read, session stored);
 * whatever must see the user first (a `signIn` callback), another strategy (JWT), or a user the
 * usual path must write (new, unverified) keeps the usual calls. An adapter that stores a session
 * for a link it should not have is overruled: the session is deleted and nobody is signed in.
 */
import { describe, expect, it } from "vitest"
import { MemoryRateLimitStore, type AdapterSession, type AuthConfig } from "../../../src/index.js"
import { Client } from "../../helpers/harness.js"
import type { MemoryAdapter } from "../../helpers/memory-adapter.js"
import { memoryAdapter } from "../../helpers/memory-adapter.js"
import { accountListingAdapter } from "../../helpers/account-listing-adapter.js"
import { emailSetup, formFields, requestLink } from "./helpers.js"

const ADDRESS = "jane@example.com"
const noCooldown = (): Partial<AuthConfig> => ({ rateLimit: { store: new MemoryRateLimitStore(), email: { perAddress: false } } })

/**
 * The memory adapter with the one-call completion, built on its own maps as the contract says;
 * `ignoreExpiry` makes it break the contract (a session for an expired link).
 */
function withLinkSessions(adapter: MemoryAdapter, ignoreExpiry = false): MemoryAdapter {
  const useVerificationTokenAndCreateSession: MemoryAdapter["useVerificationTokenAndCreateSession"] = async (params, account, session) => {
    adapter.calls.push({ method: "useVerificationTokenAndCreateSession", args: [params, account, session] })
    const i = adapter.tokens.findIndex((t) => t.identifier === params.identifier && t.token === params.token)
    if (i < 0) return null
    const token = adapter.tokens.splice(i, 1)[0]!
    const linked = adapter.accounts.find((a) => a.provider === account.provider && a.providerAccountId === account.providerAccountId)
    const owner = (linked && adapter.users.get(linked.userId)) ?? null
    const live = ignoreExpiry || token.expires.getTime() > Date.now()
    if (!owner || !live || owner.email !== params.identifier || !owner.emailVerified) return { token, owner: owner && { ...owner }, session: null }
    const stored: AdapterSession = { ...session, userId: owner.id }
    adapter.sessions.set(stored.sessionToken, stored)
    return { token, owner: { ...owner }, session: { ...stored } }
  }
  return Object.assign(adapter, { useVerificationTokenAndCreateSession })
}

/** Signs `ADDRESS` in through a link in a fresh browser; the completion's adapter calls and answer. */
async function complete(setup: ReturnType<typeof emailSetup>, before?: () => void): Promise<{ calls: string[]; done: Response }> {
  const browser = new Client(setup.config)
  await requestLink(browser, ADDRESS)
  const link = new URL(setup.outbox.sent.at(-1)!.url)
  const fields = formFields(await (await browser.request(link.pathname + link.search)).text())
  before?.()
  setup.adapter.calls.length = 0
  const done = await browser.request(link.pathname, { method: "POST", form: fields })
  return { calls: setup.adapter.calls.map((c) => c.method), done }
}

const sessionCookie = (res: Response) => res.headers.getSetCookie().find((c) => c.startsWith("authlib.session-token="))

describe("POST /auth/callback/email with useVerificationTokenAndCreateSession", () => {
  it("a returning, verified user: one adapter call stores the session (with authTime and amr), the signIn event sees the stored user", async () => {
    const events: unknown[] = []
    const setup = emailSetup({ ...noCooldown(), events: { signIn: (m) => void events.push(m) } }, {}, withLinkSessions(memoryAdapter()))
    const first = await complete(setup)
    // A new address: the call used the link and stored nothing; the usual path created the user.
    expect(first.calls).toEqual(["useVerificationTokenAndCreateSession", "getUserByEmail", "createUser", "linkAccount", "createSession"])
    const { calls, done } = await complete(setup)
    expect(calls).toEqual(["useVerificationTokenAndCreateSession"])
    expect(done.headers.get("location")).toBe("http://localhost:3000/")
    expect(sessionCookie(done)).toBeDefined()
    const [user] = [...setup.adapter.users.values()]
    const sessions = [...setup.adapter.sessions.values()]
    expect(sessions).toHaveLength(2)
    expect(sessions[1]).toMatchObject({ userId: user!.id, amr: ["otp"], authTime: expect.any(Number) })
    expect(events[1]).toEqual({ user, account: { provider: "email", providerAccountId: ADDRESS, type: "email", userId: user!.id }, isNewUser: false })
  })

  it("a signIn callback sees the stored user before any session: the one-call path is not taken", async () => {
    const seen: string[] = []
    const setup = emailSetup({ ...noCooldown(), callbacks: { signIn: ({ user, email }) => (email ? true : (seen.push(user.id!), true)) } }, {}, withLinkSessions(memoryAdapter()))
    await complete(setup)
    const { calls, done } = await complete(setup)
    expect(calls).toEqual(["useVerificationToken", "getUserByAccount", "createSession"])
    expect(sessionCookie(done)).toBeDefined()
    expect(seen).toHaveLength(2)
  })

  it("under JWT sessions the adapter's one call is never made", async () => {
    const setup = emailSetup({ ...noCooldown(), session: { strategy: "jwt" } }, {}, withLinkSessions(memoryAdapter()))
    await complete(setup)
    expect((await complete(setup)).calls).not.toContain("useVerificationTokenAndCreateSession")
  })

  it("an unverified user is verified on the usual path after the one call stored nothing", async () => {
    // The clean-up before verifying lists the user's accounts (see `sign-in/unverified-links.ts`).
    const setup = emailSetup(noCooldown(), {}, withLinkSessions(accountListingAdapter()))
    await complete(setup)
    const [user] = [...setup.adapter.users.values()]
    setup.adapter.users.set(user!.id, { ...user!, emailVerified: null })
    const { calls } = await complete(setup)
    expect(calls[0]).toBe("useVerificationTokenAndCreateSession")
    expect(calls).toContain("updateUser")
    expect(calls.at(-1)).toBe("createSession")
    expect(setup.adapter.users.get(user!.id)?.emailVerified).toBeInstanceOf(Date)
  })

  it("an adapter that stores a session for an expired link is overruled: the session is deleted, nobody signed in", async () => {
    const setup = emailSetup(noCooldown(), {}, withLinkSessions(memoryAdapter(), true))
    await complete(setup)
    const before = setup.adapter.sessions.size
    const { calls, done } = await complete(setup, () => {
      for (const t of setup.adapter.tokens) t.expires = new Date(Date.now() - 1000)
    })
    expect(calls).toEqual(["useVerificationTokenAndCreateSession", "deleteSession"])
    expect(done.headers.get("location")).toContain("error=Verification")
    expect(sessionCookie(done)).toBeUndefined()
    expect(setup.adapter.sessions.size).toBe(before)
  })
})
