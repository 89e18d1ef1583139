/**
 * E-mail sign-in through `useSignIn`, against the real core: the action redirects to the
 * verify-request page, core stores the hashed token and hands the link to the provider's
 * `sendVerificationRequest` (a stub here that keeps the link; the SMTP path is tested elsewhere),
 * and the link signs the user in.
 */
import type { Adapter, AdapterUser, VerificationToken } from "@authlib/core"
import { describe, expect, it } from "vitest"
import { getSession } from "../src/index.js"
import { ORIGIN, testConfig } from "./harness/config.js"
import { browserCookies, fakeEvent, Redirected, runAction, type FakeEvent } from "./harness/fake-event.js"
import { followLink } from "./harness/email-link.js"
import { actionEvent, handle, outcome, setup } from "./harness/setup.js"

/** The three adapter methods e-mail sign-in needs, plus user creation for the callback, in memory. */
function memoryAdapter() {
  const users = new Map<string, AdapterUser>()
  const tokens = new Map<string, VerificationToken>()
  const adapter: Adapter = {
    createVerificationToken: (t) => (tokens.set(`${t.identifier}:${t.token}`, t), t),
    useVerificationToken: ({ identifier, token }) => {
      const found = tokens.get(`${identifier}:${token}`) ?? null
      tokens.delete(`${identifier}:${token}`)
      return found
    },
    getUserByEmail: (email) => [...users.values()].find((u) => u.email === email) ?? null,
    getUser: (id) => users.get(id) ?? null,
    createUser: (user) => {
      const created = { ...user, id: crypto.randomUUID() }
      users.set(created.id, created)
      return created
    },
    getUserByAccount: () => null,
    linkAccount: (account) => account,
    updateUser: (user) => Object.assign(users.get(user.id)!, user),
  }
  return { adapter, tokens }
}

function emailSetup() {
  const sent: { identifier: string; url: string }[] = []
  const { adapter, tokens } = memoryAdapter()
  const base = testConfig()
  const email = {
    id: "email",
    name: "E-mail link",
    type: "email" as const,
    sendVerificationRequest: ({ identifier, url }: { identifier: string; url: string }) => void sent.push({ identifier, url }),
  }
  const { auth } = setup(testConfig({ adapter, session: { strategy: "jwt" }, providers: [...base.providers, email] }))
  return { auth, sent, tokens }
}

describe("useSignIn with an e-mail provider", () => {
  it("redirects to verify-request, sends one link for the normalised address, stores only its hash", async () => {
    const { auth, sent, tokens } = emailSetup()
    const ev = await actionEvent(auth)
    const thrown = (await outcome(runAction(auth.useSignIn, ev, { providerId: "email", options: { email: " Grace@Example.TEST " }, redirectTo: "/account/" }))) as Redirected
    expect(thrown).toBeInstanceOf(Redirected)
    expect(thrown.status).toBe(303)
    const verify = new URL(thrown.location)
    expect(verify.origin + verify.pathname).toBe(`${ORIGIN}/auth/verify-request`)
    expect(verify.searchParams.get("provider")).toBe("email")

    expect(sent).toHaveLength(1)
    expect(sent[0]!.identifier).toBe("grace@example.test")
    const link = new URL(sent[0]!.url)
    expect(link.origin + link.pathname).toBe(`${ORIGIN}/auth/callback/email`)
    expect(link.searchParams.get("email")).toBe("grace@example.test")
    expect(link.searchParams.get("callbackUrl")).toBe(`${ORIGIN}/account/`)
    const token = link.searchParams.get("token")!
    expect(token.length).toBeGreaterThanOrEqual(32)
    expect([...tokens.values()].map((t) => t.token)).not.toContain(token)
    expect(tokens.size).toBe(1)
  })

  it("the link signs the user in (through onRequest), once", async () => {
    const { auth, sent } = emailSetup()
    const first = await actionEvent(auth)
    await outcome(runAction(auth.useSignIn, first, { providerId: "email", options: { email: "grace@example.test" }, redirectTo: "/account/" }))
    const cookie = browserCookies("", first)
    const open = await followLink(auth, sent[0]!.url, cookie)
    const after = fakeEvent(`${ORIGIN}/account/`, { cookie: browserCookies(cookie, open) })
    await handle(auth, after)
    expect((await getSession(after)).data?.user?.email).toBe("grace@example.test")

    const again = await followLink(auth, sent[0]!.url, cookie)
    expect(again.recorded.cookies.map((c) => c.name)).not.toContain("authlib.session-token")
    expect(new URL(again.recorded.redirect!.location).searchParams.get("error")).toBe("Verification")
  })

  it("posted from another site, sends nothing and stores nothing", async () => {
    const { auth, sent, tokens } = emailSetup()
    const ev = await actionEvent(auth, { origin: "https://evil.example" })
    const thrown = (await outcome(runAction(auth.useSignIn, ev, { providerId: "email", options: { email: "grace@example.test" } }))) as Redirected
    expect(new URL(thrown.location).searchParams.get("error")).toBe("MissingCSRF")
    expect(sent).toEqual([])
    expect(tokens.size).toBe(0)
  })
})
