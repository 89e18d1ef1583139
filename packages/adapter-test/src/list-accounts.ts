import { expect } from "vitest"
import type { AdapterAccount } from "@authlib/core"
import type { SuiteContext } from "./types.js"
import { expectAccount } from "./shapes.js"

/**
 * listAccountsByUserId (optional): what core reads before a user deletes their last passkey, to
 * tell whether another linked account still lets them sign in. Registered only when the adapter has it.
 */
export function listAccountsSuite(ctx: SuiteContext): void {
  const { adapter, make, test } = ctx
  const byKey = (a: AdapterAccount, b: AdapterAccount) => `${a.provider}:${a.providerAccountId}`.localeCompare(`${b.provider}:${b.providerAccountId}`)

  test("listAccountsByUserId returns exactly the user's accounts, of every type", async () => {
    const user = await adapter.createUser(make.user())
    const other = await adapter.createUser(make.user())
    const mine = [
      make.account(user.id),
      make.account(user.id, { type: "webauthn", provider: "passkey" }),
      make.account(user.id, { type: "email", provider: "email", providerAccountId: user.email ?? "a@example.com" }),
    ]
    for (const account of [...mine, make.account(other.id)]) await adapter.linkAccount(account)
    const listed = [...(await adapter.listAccountsByUserId(user.id))].sort(byKey)
    expect(listed).toHaveLength(mine.length)
    const expected = [...mine].sort(byKey)
    for (const [i, account] of listed.entries()) expectAccount(account, expected[i]!)
  })

  test("listAccountsByUserId no longer lists an unlinked account", async () => {
    const user = await adapter.createUser(make.user())
    const [kept, gone] = [make.account(user.id), make.account(user.id, { provider: "gitlab" })]
    for (const account of [kept!, gone!]) await adapter.linkAccount(account)
    await adapter.unlinkAccount({ provider: gone!.provider, providerAccountId: gone!.providerAccountId })
    const listed = await adapter.listAccountsByUserId(user.id)
    expect(listed).toHaveLength(1)
    expectAccount(listed[0], kept!)
  })

  test("listAccountsByUserId returns an empty list for an unknown user and for a user without accounts", async () => {
    expect(await adapter.listAccountsByUserId(crypto.randomUUID())).toStrictEqual([])
    const user = await adapter.createUser(make.user())
    expect(await adapter.listAccountsByUserId(user.id)).toStrictEqual([])
  })
}
