import { expect } from "vitest"
import type { AdapterUser } from "@authlib/core"
import type { SuiteContext } from "./types.js"
import { expectAuthenticator } from "./shapes.js"
import { randomToken } from "./context.js"

/** The five WebAuthn methods: createAuthenticator, getAuthenticator, listAuthenticatorsByUserId, updateAuthenticatorCounter, getAccount of a passkey. */
export function authenticatorsSuite(ctx: SuiteContext): void {
  const { adapter, db, make, test } = ctx

  async function userWithPasskeyAccount(): Promise<{ user: AdapterUser; providerAccountId: string }> {
    const user = await adapter.createUser(make.user())
    const account = make.account(user.id, { type: "webauthn", provider: "passkey" })
    await adapter.linkAccount(account)
    return { user, providerAccountId: account.providerAccountId }
  }

  test("createAuthenticator returns the stored authenticator with exact shape", async () => {
    const { user, providerAccountId } = await userWithPasskeyAccount()
    const input = make.authenticator(user.id, providerAccountId)
    const created = await adapter.createAuthenticator(input)
    expectAuthenticator(created, input)
    expectAuthenticator(await db.authenticator?.(input.credentialID), input)
  })

  test("createAuthenticator stores null transports as null", async () => {
    const { user, providerAccountId } = await userWithPasskeyAccount()
    const input = make.authenticator(user.id, providerAccountId, { transports: null, credentialBackedUp: false })
    const created = await adapter.createAuthenticator(input)
    expectAuthenticator(created, input)
    expect(created.transports).toBeNull()
    expect(created.credentialBackedUp).toBe(false)
  })

  test("getAuthenticator returns the stored authenticator", async () => {
    const { user, providerAccountId } = await userWithPasskeyAccount()
    const input = make.authenticator(user.id, providerAccountId, { counter: 7 })
    await adapter.createAuthenticator(input)
    expectAuthenticator(await adapter.getAuthenticator(input.credentialID), input)
  })

  test("getAuthenticator returns null for an unknown credential", async () => {
    expect(await adapter.getAuthenticator(randomToken())).toBeNull()
  })

  test("listAuthenticatorsByUserId returns exactly the user's authenticators", async () => {
    const { user, providerAccountId } = await userWithPasskeyAccount()
    const other = await userWithPasskeyAccount()
    const first = make.authenticator(user.id, providerAccountId)
    const second = make.authenticator(user.id, providerAccountId, { transports: null })
    const foreign = make.authenticator(other.user.id, other.providerAccountId)
    for (const input of [first, second, foreign]) await adapter.createAuthenticator(input)
    const listed = await adapter.listAuthenticatorsByUserId(user.id)
    const byId = (a: { credentialID: string }, b: { credentialID: string }) => a.credentialID.localeCompare(b.credentialID)
    const expected = [first, second].sort(byId)
    expect(listed).toHaveLength(2)
    for (const [i, a] of [...listed].sort(byId).entries()) expectAuthenticator(a, expected[i]!)
  })

  test("listAuthenticatorsByUserId returns an empty list for an unknown user", async () => {
    expect(await adapter.listAuthenticatorsByUserId(crypto.randomUUID())).toStrictEqual([])
  })

  test("updateAuthenticatorCounter persists and returns the new counter", async () => {
    const { user, providerAccountId } = await userWithPasskeyAccount()
    const input = make.authenticator(user.id, providerAccountId, { counter: 1 })
    await adapter.createAuthenticator(input)
    const updated = await adapter.updateAuthenticatorCounter(input.credentialID, 2_000_000_000)
    expectAuthenticator(updated, { ...input, counter: 2_000_000_000 })
    expectAuthenticator(await db.authenticator?.(input.credentialID), { ...input, counter: 2_000_000_000 })
  })

  test("updateAuthenticatorCounter rejects for an unknown credential and creates nothing", async () => {
    const credentialID = randomToken()
    await expect(Promise.resolve().then(() => adapter.updateAuthenticatorCounter(credentialID, 5))).rejects.toThrow()
    expect(await db.authenticator?.(credentialID)).toBeNull()
  })

  test("getAccount returns the passkey account of an authenticator", async () => {
    const { user, providerAccountId } = await userWithPasskeyAccount()
    const input = make.authenticator(user.id, providerAccountId)
    await adapter.createAuthenticator(input)
    const stored = await adapter.getAuthenticator(input.credentialID)
    const account = await adapter.getAccount(stored?.providerAccountId ?? "", "passkey")
    expect(account?.userId).toBe(user.id)
    expect(account?.type).toBe("webauthn")
  })
}
