import { expect } from "vitest"
import type { SuiteContext, UserWithEmail } from "./types.js"

/**
 * useVerificationTokenAndCreateSession (optional): core's one-round-trip e-mail completion. The
 * link is single use exactly as with `useVerificationToken`; a session is written only for the
 * verified owner of the e-mail account whose address is the link's, and only for a live link.
 */
export function useVerificationTokenAndCreateSessionSuite(ctx: SuiteContext): void {
  const { adapter, db, make, test, concurrency } = ctx

  /** A stored user (verified unless `overrides` say otherwise) who owns the `email` account of `address`, and a live link of `address`. */
  async function returning(overrides: Partial<UserWithEmail> = {}, address?: string) {
    const made = make.user(overrides)
    const user = await adapter.createUser(made)
    const identifier = address ?? made.email
    await adapter.linkAccount(make.account(user.id, { type: "email", provider: "email", providerAccountId: identifier }))
    const token = make.verificationToken({ identifier })
    await adapter.createVerificationToken(token)
    return { user, token, account: { provider: "email", providerAccountId: identifier }, params: { identifier, token: token.token } }
  }

  const newSession = (userId: string) => {
    const { sessionToken, expires } = make.session(userId)
    return { sessionToken, expires, createdAt: new Date(), clientNetwork: "203.0.113.0/24", authTime: 1_700_000_000, amr: ["otp"] }
  }

  test("useVerificationTokenAndCreateSession uses the link and stores the verified owner's session with its metadata", async () => {
    const { user, token, account, params } = await returning()
    const session = newSession(user.id)
    const used = await adapter.useVerificationTokenAndCreateSession(params, account, session)
    expect(used?.token).toEqual(token)
    expect(used?.owner).toEqual(user)
    expect(used?.session).toMatchObject({ ...session, userId: user.id })
    expect(await db.verificationToken(token)).toBeNull()
    expect(await adapter.getSessionAndUser(session.sessionToken)).toMatchObject({ session: { userId: user.id, authTime: session.authTime, amr: ["otp"] }, user })
    // The answer is the session as stored, exactly as a read gives it back.
    expect(used?.session).toEqual((await adapter.getSessionAndUser(session.sessionToken))?.session)
    // Used up: a second use answers null and writes nothing.
    const second = newSession(user.id)
    expect(await adapter.useVerificationTokenAndCreateSession(params, account, second)).toBeNull()
    expect(await db.session(second.sessionToken)).toBeNull()
  })

  test("useVerificationTokenAndCreateSession writes no session for a new address, an unverified owner, an owner with another address or an expired link, and uses the link all the same", async () => {
    const unverified = await returning({ emailVerified: null })
    const other = await returning({}, make.user().email)
    const expired = await returning()
    const stale = make.verificationToken({ identifier: expired.params.identifier, expires: new Date(Date.now() - 1000) })
    await adapter.createVerificationToken(stale)
    const fresh = make.verificationToken()
    await adapter.createVerificationToken(fresh)
    const cases = [
      { ...unverified, owner: unverified.user },
      { ...other, owner: other.user },
      { ...expired, params: { identifier: stale.identifier, token: stale.token }, token: stale, owner: expired.user },
      { token: fresh, params: { identifier: fresh.identifier, token: fresh.token }, account: { provider: "email", providerAccountId: fresh.identifier }, owner: null },
    ]
    for (const c of cases) {
      const session = newSession(c.owner?.id ?? "nobody")
      expect(await adapter.useVerificationTokenAndCreateSession(c.params, c.account, session)).toEqual({ token: c.token, owner: c.owner, session: null })
      expect(await db.session(session.sessionToken)).toBeNull()
      expect(await db.verificationToken(c.token)).toBeNull()
    }
  })

  test("useVerificationTokenAndCreateSession answers null for an unknown token and writes nothing", async () => {
    const { user, token, account } = await returning()
    const session = newSession(user.id)
    expect(await adapter.useVerificationTokenAndCreateSession({ identifier: token.identifier, token: `${token.token}-other` }, account, session)).toBeNull()
    expect(await db.session(session.sessionToken)).toBeNull()
    expect(await db.verificationToken(token)).toEqual(token)
  })

  test("useVerificationTokenAndCreateSession with a taken session token rejects and writes nothing: the link stays usable", async () => {
    const { user, token, account, params } = await returning()
    const taken = make.session(user.id)
    await adapter.createSession(taken)
    // Wrapped: an in-memory adapter may throw synchronously.
    await expect((async () => adapter.useVerificationTokenAndCreateSession(params, account, { sessionToken: taken.sessionToken, expires: taken.expires }))()).rejects.toThrow()
    expect(await db.verificationToken(token)).toEqual(token)
  })

  test("useVerificationTokenAndCreateSession: of concurrent uses of one link exactly one receives it and exactly one session is stored", async () => {
    const { user, account, params } = await returning()
    const sessions = Array.from({ length: Math.max(concurrency, 16) }, () => newSession(user.id))
    const answers = await Promise.all(sessions.map((s) => adapter.useVerificationTokenAndCreateSession(params, account, s)))
    expect(answers.filter((a) => a !== null)).toHaveLength(1)
    expect(answers.filter((a) => a?.session)).toHaveLength(1)
    const stored = await Promise.all(sessions.map((s) => db.session(s.sessionToken)))
    expect(stored.filter((s) => s !== null)).toHaveLength(1)
  })
}
