import { expect } from "vitest"
import type { SuiteContext } from "./types.js"

/**
 * useVerificationTokenAndGetAuthenticator and updateAuthenticatorCounterAndCreateSession
 * (optional): core's passkey sign-in in two round trips. The challenge's token is single use
 * exactly as with `useVerificationToken`; a session is written only together with the counter of
 * a passkey that still exists, for its owner: a passkey deleted meanwhile signs no one in.
 */
export function passkeySignInSuite(ctx: SuiteContext): void {
  const { adapter, db, make, test, concurrency } = ctx

  /** A user with a passkey (counter 3) and a live challenge token. */
  async function withPasskey() {
    const user = await adapter.createUser(make.user())
    const account = make.account(user.id, { type: "webauthn", provider: "passkey" })
    await adapter.linkAccount(account)
    const passkey = await adapter.createAuthenticator(make.authenticator(user.id, account.providerAccountId, { counter: 3 }))
    const token = make.verificationToken({ identifier: "passkey:challenge" })
    await adapter.createVerificationToken(token)
    return { user, passkey, token, params: { identifier: token.identifier, token: token.token } }
  }

  const newSession = (userId: string) => {
    const { sessionToken, expires } = make.session(userId)
    return { sessionToken, expires, createdAt: new Date(), clientDescription: "Chrome on macOS", clientNetwork: "203.0.113.0/24", authTime: 1_700_000_000, amr: ["hwk", "user"] }
  }

  test("useVerificationTokenAndGetAuthenticator uses the token once and reads the passkey each time", async () => {
    const { passkey, token, params } = await withPasskey()
    const first = await adapter.useVerificationTokenAndGetAuthenticator(params, passkey.credentialID)
    expect(first.token).toEqual(token)
    // The fields `createAuthenticator` answered (an adapter may keep more, such as `lastUsedAt`).
    expect(first.authenticator).toMatchObject(passkey)
    expect(await db.verificationToken(token)).toBeNull()
    const second = await adapter.useVerificationTokenAndGetAuthenticator(params, passkey.credentialID)
    expect(second.token).toBeNull()
    expect(second.authenticator).toMatchObject(passkey)
  })

  test("useVerificationTokenAndGetAuthenticator uses the token for an unknown credential too", async () => {
    const { token, params } = await withPasskey()
    expect(await adapter.useVerificationTokenAndGetAuthenticator(params, `unknown-${crypto.randomUUID()}`)).toEqual({ token, authenticator: null })
    expect(await db.verificationToken(token)).toBeNull()
  })

  test("useVerificationTokenAndGetAuthenticator: of concurrent uses of one token exactly one receives it", async () => {
    const { passkey, params } = await withPasskey()
    const answers = await Promise.all(Array.from({ length: Math.max(concurrency, 16) }, () => adapter.useVerificationTokenAndGetAuthenticator(params, passkey.credentialID)))
    expect(answers.filter((a) => a.token !== null)).toHaveLength(1)
  })

  test("updateAuthenticatorCounterAndCreateSession sets the counter, stamps lastUsedAt and stores the owner's session with its metadata", async () => {
    const { user, passkey } = await withPasskey()
    const session = newSession(user.id)
    const done = await adapter.updateAuthenticatorCounterAndCreateSession(passkey.credentialID, 9, session)
    expect(done?.user).toEqual(user)
    expect(done?.authenticator).toMatchObject({ credentialID: passkey.credentialID, userId: user.id, counter: 9 })
    expect(done?.authenticator.lastUsedAt).toBeInstanceOf(Date)
    expect(done?.session).toMatchObject({ ...session, userId: user.id })
    expect((await adapter.getAuthenticator(passkey.credentialID))?.counter).toBe(9)
    expect(await adapter.getSessionAndUser(session.sessionToken)).toMatchObject({ session: { userId: user.id, amr: ["hwk", "user"] }, user })
  })

  test("updateAuthenticatorCounterAndCreateSession for an unknown passkey, or one deleted with its user, answers null and writes nothing", async () => {
    const { user, passkey } = await withPasskey()
    const unknown = newSession(user.id)
    expect(await adapter.updateAuthenticatorCounterAndCreateSession(`unknown-${crypto.randomUUID()}`, 9, unknown)).toBeNull()
    expect(await db.session(unknown.sessionToken)).toBeNull()
    await adapter.deleteUser?.(user.id)
    const deleted = newSession(user.id)
    expect(await adapter.updateAuthenticatorCounterAndCreateSession(passkey.credentialID, 9, deleted)).toBeNull()
    expect(await db.session(deleted.sessionToken)).toBeNull()
  })

  test("updateAuthenticatorCounterAndCreateSession with a taken session token rejects and writes nothing", async () => {
    const { user, passkey } = await withPasskey()
    const taken = make.session(user.id)
    await adapter.createSession(taken)
    await expect((async () => adapter.updateAuthenticatorCounterAndCreateSession(passkey.credentialID, 9, { sessionToken: taken.sessionToken, expires: taken.expires }))()).rejects.toThrow()
    expect((await adapter.getAuthenticator(passkey.credentialID))?.counter).toBe(3)
  })
}
