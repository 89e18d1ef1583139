import { expect } from "vitest"
import type { AdapterAccount } from "@authlib/core"
import type { SuiteContext } from "./types.js"
import { expectAccount } from "./shapes.js"

/** linkAccount, getUserByAccount, getAccount, unlinkAccount. */
export function accountsSuite(ctx: SuiteContext): void {
  const { adapter, db, make, test } = ctx

  test("linkAccount stores every field of the account", async () => {
    const user = await adapter.createUser(make.user())
    const account = make.account(user.id)
    await adapter.linkAccount(account)
    expectAccount(await db.account(account), account)
  })

  test("linkAccount stores an account with only the required fields", async () => {
    const input = make.user()
    const user = await adapter.createUser(input)
    const account: AdapterAccount = {
      type: "email",
      provider: "email",
      providerAccountId: input.email,
      userId: user.id,
    }
    await adapter.linkAccount(account)
    expectAccount(await db.account(account), account)
    expectAccount(await adapter.getAccount(account.providerAccountId, account.provider), account)
  })

  test("getUserByAccount returns the linked user", async () => {
    const user = await adapter.createUser(make.user())
    const account = make.account(user.id)
    await adapter.linkAccount(account)
    const key = { provider: account.provider, providerAccountId: account.providerAccountId }
    expect(await adapter.getUserByAccount(key)).toStrictEqual(user)
  })

  test("getUserByAccount returns null for an unknown account", async () => {
    const user = await adapter.createUser(make.user())
    const account = make.account(user.id)
    await adapter.linkAccount(account)
    expect(await adapter.getUserByAccount({ provider: "github", providerAccountId: crypto.randomUUID() })).toBeNull()
    const wrongProvider = { provider: "gitlab", providerAccountId: account.providerAccountId }
    expect(await adapter.getUserByAccount(wrongProvider)).toBeNull()
  })

  test("getAccount returns the account with exact shape", async () => {
    const user = await adapter.createUser(make.user())
    const account = make.account(user.id)
    await adapter.linkAccount(account)
    const found = await adapter.getAccount(account.providerAccountId, account.provider)
    expectAccount(found, account)
    expect(found?.expires_at).toBeTypeOf("number")
  })

  test("getAccount returns null for an unknown account", async () => {
    expect(await adapter.getAccount(crypto.randomUUID(), "github")).toBeNull()
  })

  test("accounts with one providerAccountId under two providers stay apart", async () => {
    const user = await adapter.createUser(make.user())
    const other = await adapter.createUser(make.user())
    const github = make.account(user.id, { provider: "github" })
    const gitlab = make.account(other.id, { provider: "gitlab", providerAccountId: github.providerAccountId })
    await adapter.linkAccount(github)
    await adapter.linkAccount(gitlab)
    expect(await adapter.getUserByAccount(github)).toStrictEqual(user)
    expect(await adapter.getUserByAccount(gitlab)).toStrictEqual(other)
  })

  test("a user can link several accounts", async () => {
    const user = await adapter.createUser(make.user())
    const github = make.account(user.id, { provider: "github" })
    const google = make.account(user.id, { provider: "google", type: "oidc" })
    await adapter.linkAccount(github)
    await adapter.linkAccount(google)
    expectAccount(await db.account(github), github)
    expectAccount(await db.account(google), google)
    expect(await adapter.getUserByAccount(google)).toStrictEqual(user)
  })

  test("unlinkAccount removes the account and keeps the user", async () => {
    const user = await adapter.createUser(make.user())
    const account = make.account(user.id)
    await adapter.linkAccount(account)
    await adapter.unlinkAccount({ provider: account.provider, providerAccountId: account.providerAccountId })
    expect(await db.account(account)).toBeNull()
    expect(await adapter.getUserByAccount(account)).toBeNull()
    expect(await adapter.getAccount(account.providerAccountId, account.provider)).toBeNull()
    expect(await db.user(user.id)).toStrictEqual(user)
  })

  test("unlinkAccount of an unknown account does not throw or touch others", async () => {
    const user = await adapter.createUser(make.user())
    const account = make.account(user.id)
    await adapter.linkAccount(account)
    await adapter.unlinkAccount({ provider: "github", providerAccountId: crypto.randomUUID() })
    expectAccount(await db.account(account), account)
  })

  test("linkAccount keeps unicode and long token values unchanged", async () => {
    const user = await adapter.createUser(make.user())
    const account = make.account(user.id, {
      providerAccountId: `ユーザー-${crypto.randomUUID()}`,
      access_token: "x".repeat(8192),
      scope: "openid profile email ✓ \u{1F510}",
    })
    await adapter.linkAccount(account)
    expectAccount(await adapter.getAccount(account.providerAccountId, account.provider), account)
    expect(await adapter.getUserByAccount(account)).toStrictEqual(user)
  })
}
