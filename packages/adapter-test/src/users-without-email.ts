import { expect } from "vitest"
import type { AdapterUser } from "@authlib/core"
import type { SuiteContext } from "./types.js"
import { storedUser } from "./shapes.js"

/**
 * Lookups that must never find a user without an address: the empty string, the spellings a store
 * produces when it turns NULL into text, and non-strings from untyped callers.
 */
const ODD_EMAILS: readonly unknown[] = ["", "null", "undefined", "NULL", " ", null, undefined]

/** What a lookup gave: its result, or the error it rejected with (an adapter may reject non-strings). */
async function settle(lookup: () => unknown): Promise<unknown> {
  try {
    return await lookup()
  } catch (error) {
    return error
  }
}

/**
 * Users whose provider gave no e-mail address (GitHub with a private address, Twitter, Discord
 * without the `email` scope): core calls `createUser` with `email: null`. The address column is
 * unique only when present, like a unique SQL column: any number of users may have none.
 */
export function usersWithoutEmailSuite(ctx: SuiteContext): void {
  const { adapter, db, make, test } = ctx
  const withoutEmail = (): AdapterUser => ({ ...make.user(), email: null })

  test("creates a user without an e-mail address (email null), reads it back with email null, and getUserByEmail does not find it", async () => {
    const input = withoutEmail()
    const created = await adapter.createUser(input)
    expect(created).toStrictEqual(storedUser(input, created.id))
    expect(created.email).toBeNull()
    expect(await db.user(created.id)).toStrictEqual(created)
    expect(await adapter.getUser(created.id)).toStrictEqual(created)
    for (const odd of ODD_EMAILS) {
      const found = await settle(() => adapter.getUserByEmail(odd as string))
      if (!(found instanceof Error)) expect(found, `getUserByEmail(${JSON.stringify(odd)})`).toBeNull()
    }
  })

  test("createUser without an email key stores the user with email null", async () => {
    const { email: _email, ...input } = make.user()
    const created = await adapter.createUser(input as AdapterUser)
    expect(created).toStrictEqual(storedUser({ ...input, email: null }, created.id))
    expect(await adapter.getUser(created.id)).toStrictEqual(created)
  })

  test("several users without an e-mail address coexist", async () => {
    const first = await adapter.createUser(withoutEmail())
    const second = await adapter.createUser(withoutEmail())
    expect(second.id).not.toBe(first.id)
    expect(await adapter.getUser(first.id)).toStrictEqual(first)
    expect(await adapter.getUser(second.id)).toStrictEqual(second)
  })

  test("updateUser with email null removes the address, and getUserByEmail no longer finds the user", async () => {
    const input = make.user()
    const created = await adapter.createUser(input)
    const updated = await adapter.updateUser({ id: created.id, email: null })
    expect(updated).toStrictEqual({ ...created, email: null })
    expect(await db.user(created.id)).toStrictEqual({ ...created, email: null })
    expect(await adapter.getUserByEmail(input.email)).toBeNull()
    const reused = await adapter.createUser(make.user({ email: input.email }))
    expect(await adapter.getUserByEmail(input.email)).toStrictEqual(reused)
  })

  test("updateUser gives a user without an e-mail address one, and getUserByEmail finds it", async () => {
    const created = await adapter.createUser(withoutEmail())
    const email = `later-${crypto.randomUUID()}@example.com`
    const updated = await adapter.updateUser({ id: created.id, email })
    expect(updated).toStrictEqual({ ...created, email })
    expect(await adapter.getUserByEmail(email)).toStrictEqual(updated)
  })

  test("updateUser without an email key keeps a missing address missing", async () => {
    const created = await adapter.createUser(withoutEmail())
    const updated = await adapter.updateUser({ id: created.id, name: "Grace Hopper" })
    expect(updated).toStrictEqual({ ...created, name: "Grace Hopper" })
  })

  test("getUserByAccount and getSessionAndUser return a user without an e-mail address with email null", async () => {
    const user = await adapter.createUser(withoutEmail())
    const account = make.account(user.id)
    await adapter.linkAccount(account)
    const key = { provider: account.provider, providerAccountId: account.providerAccountId }
    expect(await adapter.getUserByAccount(key)).toStrictEqual(user)
    const session = await adapter.createSession(make.session(user.id))
    expect(await adapter.getSessionAndUser(session.sessionToken)).toStrictEqual({ session, user })
  })

  test("createUser with a taken e-mail still rejects while users without one exist", async () => {
    await adapter.createUser(withoutEmail())
    const input = make.user()
    const first = await adapter.createUser(input)
    expect(await settle(() => adapter.createUser(make.user({ email: input.email })))).toBeInstanceOf(Error)
    expect(await adapter.getUserByEmail(input.email)).toStrictEqual(first)
  })
}
