/**
 * POST /auth/callback/passkey under database sessions with an adapter that has the passkey
 * sign-in's combined methods: two adapter calls (the challenge used with the credential read; the
 * counter stored with the owner's session), the session's metadata as the usual path writes it, and
 * a passkey deleted between the two (the pre-hijacking clean-up) signs no one in. Where something
 * must see the user first (a `signIn` callback, a capability that may hold the sign-in), the usual path.
 */
import { describe, expect, it } from "vitest"
import type { AdapterAuthenticator, AdapterSession, SessionMetadata } from "../../../src/kernel/types/adapters.js"
import { answer, options, registerPasskey, setup, signOutLocally, type PasskeySetup } from "./setup.js"

/** The set-up's adapter with the two combined methods, built on its own maps (and logged in `calls`). */
function withCombinedMethods(s: PasskeySetup, between: () => void = () => {}) {
  const a = s.adapter
  Object.assign(a, {
    async useVerificationTokenAndGetAuthenticator(params: { identifier: string; token: string }, credentialID: string) {
      a.calls.push({ method: "useVerificationTokenAndGetAuthenticator", args: [params, credentialID] })
      const i = a.tokens.findIndex((t) => t.identifier === params.identifier && t.token === params.token)
      const token = i < 0 ? null : a.tokens.splice(i, 1)[0]!
      const authenticator = a.authenticators.get(credentialID) ?? null
      between()
      return { token, authenticator: authenticator && { ...authenticator } }
    },
    async updateAuthenticatorCounterAndCreateSession(credentialID: string, counter: number, session: { sessionToken: string; expires: Date } & Omit<SessionMetadata, "error">) {
      a.calls.push({ method: "updateAuthenticatorCounterAndCreateSession", args: [credentialID, counter, session] })
      const current = a.authenticators.get(credentialID)
      const user = current && a.users.get(current.userId)
      if (!current || !user) return null
      const authenticator: AdapterAuthenticator = { ...current, counter, lastUsedAt: new Date() }
      a.authenticators.set(credentialID, authenticator)
      const stored: AdapterSession = { ...session, userId: user.id }
      a.sessions.set(session.sessionToken, stored)
      return { authenticator, user, session: stored }
    },
  })
}

async function signInAgain(s: PasskeySetup) {
  signOutLocally(s.client)
  const { body } = await options(s.client, "?action=authenticate")
  s.adapter.calls.length = 0
  return answer(s.client, "authenticate", s.device.authenticate(body.options, undefined, { counter: 5 }))
}

describe("POST /auth/callback/passkey (database sessions, combined adapter methods)", () => {
  it("signs in with two adapter calls and stores the session with how the user authenticated", async () => {
    const s = setup("database")
    withCombinedMethods(s)
    expect((await registerPasskey(s)).status).toBe(302)
    const res = await signInAgain(s)
    expect(res.status).toBe(302)
    expect(s.adapter.calls.map((c) => c.method)).toStrictEqual(["useVerificationTokenAndGetAuthenticator", "updateAuthenticatorCounterAndCreateSession"])
    const session = [...s.adapter.sessions.values()].at(-1)!
    // As the usual path writes them (user verification required: `hwk`, `user`, and `mfa` by default).
    expect(session).toMatchObject({ userId: expect.any(String), amr: ["hwk", "user", "mfa"], authTime: expect.any(Number) })
    expect([...s.adapter.authenticators.values()][0]!.counter).toBe(5)
  })

  it("a passkey deleted between the two calls: refused, no session stored", async () => {
    let credentialID: string | undefined
    const s = setup("database")
    withCombinedMethods(s, () => void (credentialID && s.adapter.authenticators.delete(credentialID)))
    await registerPasskey(s)
    credentialID = [...s.adapter.authenticators.keys()][0]
    const before = s.adapter.sessions.size
    const res = await signInAgain(s)
    expect(res.status).toBe(302)
    expect(res.headers.get("location")).toContain("error=")
    expect(s.adapter.sessions.size).toBe(before)
    expect(res.headers.getSetCookie().some((c) => c.startsWith("authlib.session-token=") && !/Max-Age=0/i.test(c))).toBe(false)
  })

  it("with a signIn callback (it must see the user first), the usual path: the counter alone, then the user read", async () => {
    const s = setup("database", { callbacks: { signIn: () => true } })
    withCombinedMethods(s)
    await registerPasskey(s)
    const res = await signInAgain(s)
    expect(res.status).toBe(302)
    expect(s.adapter.calls.map((c) => c.method)).not.toContain("updateAuthenticatorCounterAndCreateSession")
    expect(s.adapter.calls.map((c) => c.method)).toContain("updateAuthenticatorCounter")
  })
})
