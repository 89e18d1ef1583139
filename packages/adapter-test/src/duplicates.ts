import { expect } from "vitest"
import type { AdapterUser } from "@authlib/core"
import type { SuiteContext } from "./types.js"
import { expectAccount, expectAuthenticator } from "./shapes.js"

/** Calls `write` and returns what it rejected with; fails the test when it resolves. */
async function rejection(write: () => unknown): Promise<unknown> {
  try {
    await write()
  } catch (error) {
    return error
  }
  return expect.fail("expected the write to reject")
}

/**
 * Writes whose key is already taken. Each must reject with an `Error` (a typed one, such as an
 * adapter error with a `code`) and leave the first record exactly as it was: a client-chosen key
 * (session token, credential ID, user id) must never let one user overwrite another's record.
 */
export function duplicatesSuite(ctx: SuiteContext): void {
  const { adapter, db, make, test } = ctx

  test("createUser with an existing email rejects and keeps the first user", async () => {
    const input = make.user()
    const first = await adapter.createUser(input)
    const error = await rejection(() => adapter.createUser(make.user({ email: input.email, name: "Mallory" })))
    expect(error).toBeInstanceOf(Error)
    expect(await db.user(first.id)).toStrictEqual(first)
    expect(await adapter.getUserByEmail(input.email)).toStrictEqual(first)
  })

  test("createUser with an existing id rejects (or picks its own id) and keeps the first user", async () => {
    const first = await adapter.createUser(make.user())
    const intruder = make.user({ id: first.id, name: "Mallory" })
    const outcome = await Promise.resolve()
      .then(() => adapter.createUser(intruder))
      .catch((error: unknown) => error)
    if (outcome instanceof Error) {
      expect(await adapter.getUserByEmail(intruder.email)).toBeNull()
    } else {
      // An adapter may ignore the given id and pick its own; it must then be a new one.
      expect((outcome as AdapterUser).id).not.toBe(first.id)
    }
    expect(await db.user(first.id)).toStrictEqual(first)
    expect(await adapter.getUser(first.id)).toStrictEqual(first)
  })

  test("linkAccount of an already linked provider account rejects and keeps the first link", async () => {
    const owner = await adapter.createUser(make.user())
    const intruder = await adapter.createUser(make.user())
    const account = make.account(owner.id)
    await adapter.linkAccount(account)
    const error = await rejection(() => adapter.linkAccount(make.account(intruder.id, { providerAccountId: account.providerAccountId })))
    expect(error).toBeInstanceOf(Error)
    expectAccount(await db.account(account), account)
    expect(await adapter.getUserByAccount(account)).toStrictEqual(owner)
  })

  test("createSession with an existing sessionToken rejects and keeps the first session", async () => {
    const owner = await adapter.createUser(make.user())
    const intruder = await adapter.createUser(make.user())
    const session = await adapter.createSession(make.session(owner.id))
    const duplicate = make.session(intruder.id, { sessionToken: session.sessionToken, expires: make.sessionUpdateExpires() })
    expect(await rejection(() => adapter.createSession(duplicate))).toBeInstanceOf(Error)
    expect(await db.session(session.sessionToken)).toStrictEqual(session)
    expect(await adapter.getSessionAndUser(session.sessionToken)).toStrictEqual({ session, user: owner })
  })

  if (!ctx.webauthn) return

  test("createAuthenticator with an existing credentialID rejects and keeps the first passkey", async () => {
    const owner = await adapter.createUser(make.user())
    const intruder = await adapter.createUser(make.user())
    const ownerAccount = make.account(owner.id, { type: "webauthn", provider: "passkey" })
    const intruderAccount = make.account(intruder.id, { type: "webauthn", provider: "passkey" })
    for (const account of [ownerAccount, intruderAccount]) await adapter.linkAccount(account)
    const passkey = make.authenticator(owner.id, ownerAccount.providerAccountId)
    await adapter.createAuthenticator(passkey)
    const stolen = make.authenticator(intruder.id, intruderAccount.providerAccountId, {
      credentialID: passkey.credentialID,
      counter: 9,
    })
    expect(await rejection(() => adapter.createAuthenticator(stolen))).toBeInstanceOf(Error)
    expectAuthenticator(await db.authenticator?.(passkey.credentialID), passkey)
    expectAuthenticator(await adapter.getAuthenticator(passkey.credentialID), passkey)
    expect(await adapter.listAuthenticatorsByUserId(intruder.id)).toStrictEqual([])
  })
}
