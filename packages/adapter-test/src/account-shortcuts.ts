import { expect } from "vitest"
import type { SuiteContext } from "./types.js"

/**
 * createSessionForAccount and useVerificationTokenForAccount (optional): core's one-round-trip
 * credentials sign-in and e-mail completion. Each must do exactly what its two-call path does,
 * atomically, and write nothing when nobody owns the account or the token is not this caller's.
 */
export function createSessionForAccountSuite(ctx: SuiteContext): void {
  const { adapter, db, make, test } = ctx

  test("createSessionForAccount stores a session for the account's owner and answers it with the owner", async () => {
    const user = await adapter.createUser(make.user())
    const account = make.account(user.id, { type: "credentials", provider: "credentials" })
    await adapter.linkAccount(account)
    const session = make.session(user.id)
    // With the metadata core writes, `authTime` and `amr` included (step-up reads them back).
    const created = await adapter.createSessionForAccount(account, { sessionToken: session.sessionToken, expires: session.expires, authTime: 1_700_000_000, amr: ["pwd"] })
    expect(created?.user).toEqual(user)
    expect(created?.session).toMatchObject({ sessionToken: session.sessionToken, userId: user.id, expires: session.expires, authTime: 1_700_000_000, amr: ["pwd"] })
    expect(await db.session(session.sessionToken)).toMatchObject({ sessionToken: session.sessionToken, userId: user.id })
    expect(await adapter.getSessionAndUser(session.sessionToken)).toMatchObject({ session: { userId: user.id }, user })
  })

  test("createSessionForAccount answers the session exactly as getSessionAndUser reads it back, every metadata field included", async () => {
    const user = await adapter.createUser(make.user())
    const account = make.account(user.id, { type: "credentials", provider: "credentials" })
    await adapter.linkAccount(account)
    const { sessionToken, expires } = make.session(user.id)
    const metadata = { createdAt: new Date(Date.now() - 1234), clientDescription: "Firefox on Linux", clientNetwork: "203.0.113.0/24", authTime: 1_700_000_001, amr: ["pwd", "otp", "mfa"] }
    const created = await adapter.createSessionForAccount(account, { sessionToken, expires, ...metadata })
    const read = await adapter.getSessionAndUser(sessionToken)
    expect(created).toEqual(read)
    expect(created?.session).toMatchObject({ sessionToken, userId: user.id, expires, ...metadata })
  })

  test("createSessionForAccount answers null and stores nothing when nobody owns the account", async () => {
    const user = await adapter.createUser(make.user())
    const account = make.account(user.id, { type: "credentials", provider: "credentials" })
    const session = make.session(user.id)
    expect(await adapter.createSessionForAccount(account, { sessionToken: session.sessionToken, expires: session.expires })).toBeNull()
    expect(await db.session(session.sessionToken)).toBeNull()
  })
}

export function useVerificationTokenForAccountSuite(ctx: SuiteContext): void {
  const { adapter, db, make, test, concurrency } = ctx

  test("useVerificationTokenForAccount uses the token up and reads the account's owner with it", async () => {
    const made = make.user()
    const user = await adapter.createUser(made)
    const token = make.verificationToken({ identifier: made.email })
    await adapter.createVerificationToken(token)
    const account = make.account(user.id, { type: "email", provider: "email", providerAccountId: made.email })
    await adapter.linkAccount(account)
    const used = await adapter.useVerificationTokenForAccount({ identifier: token.identifier, token: token.token }, account)
    expect(used).toEqual({ token, owner: user })
    expect(await db.verificationToken(token)).toBeNull()
    expect(await adapter.useVerificationTokenForAccount({ identifier: token.identifier, token: token.token }, account)).toBeNull()
  })

  test("useVerificationTokenForAccount answers owner null for an account nobody owns, and null for an unknown token", async () => {
    const token = make.verificationToken()
    await adapter.createVerificationToken(token)
    const account = { provider: "email", providerAccountId: token.identifier }
    expect(await adapter.useVerificationTokenForAccount({ identifier: token.identifier, token: `${token.token}-other` }, account)).toBeNull()
    expect(await adapter.useVerificationTokenForAccount({ identifier: token.identifier, token: token.token }, account)).toEqual({ token, owner: null })
  })

  test("useVerificationTokenForAccount hands a token to exactly one of concurrent callers", async () => {
    const token = make.verificationToken()
    await adapter.createVerificationToken(token)
    const account = { provider: "email", providerAccountId: token.identifier }
    const answers = await Promise.all(Array.from({ length: concurrency }, () => adapter.useVerificationTokenForAccount({ identifier: token.identifier, token: token.token }, account)))
    expect(answers.filter((a) => a !== null)).toHaveLength(1)
  })
}
