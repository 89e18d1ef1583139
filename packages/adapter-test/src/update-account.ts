import { expect } from "vitest"
import type { AdapterAccount } from "@authlib/core"
import type { SuiteContext } from "./types.js"

/** Parallel callers of the race test. */
const CALLERS = 20

/**
 * updateAccount (optional): core writes refreshed provider tokens back to the account row; with
 * `expected` it is a compare-and-swap on the stored refresh token, so that instances racing a
 * refresh store one result. Registered only when the adapter has the method (see `runBasicTests`).
 */
export function updateAccountSuite(ctx: SuiteContext): void {
  const { adapter, db, make, test } = ctx

  async function linked(): Promise<AdapterAccount> {
    const user = await adapter.createUser(make.user())
    const account: AdapterAccount = { ...make.account(user.id), access_token: "at-1", refresh_token: "rt-1", expires_at: 1_900_000_000, scope: "openid" }
    await adapter.linkAccount(account)
    return account
  }

  const keyOf = (a: AdapterAccount) => ({ provider: a.provider, providerAccountId: a.providerAccountId })

  test("updateAccount changes the named token fields, keeps the others, and returns the stored account", async () => {
    const account = await linked()
    const updated = await adapter.updateAccount({ ...keyOf(account), access_token: "at-2", expires_at: 1_900_003_600 })
    const expected = { ...account, access_token: "at-2", expires_at: 1_900_003_600 }
    expect(updated).toMatchObject(expected)
    expect(await db.account(account)).toMatchObject(expected)
  })

  test("updateAccount clears a field given as null and never changes the keys, type or userId", async () => {
    const account = await linked()
    const other = await adapter.createUser(make.user())
    const updated = await adapter.updateAccount({ ...keyOf(account), id_token: null, scope: null, refresh_token: "rt-2", userId: other.id, type: "email" } as never)
    expect(updated?.refresh_token).toBe("rt-2")
    expect(updated?.scope ?? null).toBeNull()
    expect(updated).toMatchObject({ userId: account.userId, type: account.type, provider: account.provider, providerAccountId: account.providerAccountId })
    const stored = await db.account(account)
    expect(stored).toMatchObject({ userId: account.userId, type: account.type, refresh_token: "rt-2" })
    expect(stored?.scope ?? null).toBeNull()
  })

  test("updateAccount of an unknown account returns null and creates nothing", async () => {
    const key = { provider: "github", providerAccountId: crypto.randomUUID() }
    expect(await adapter.updateAccount({ ...key, access_token: "x" })).toBeNull()
    expect(await db.account(key)).toBeNull()
  })

  test("updateAccount with expected applies only while the stored refresh token matches", async () => {
    const account = await linked()
    expect(await adapter.updateAccount({ ...keyOf(account), refresh_token: "rt-2", access_token: "at-2" }, { refresh_token: "rt-old" })).toBeNull()
    expect(await db.account(account)).toMatchObject({ refresh_token: "rt-1", access_token: "at-1" })
    expect(await adapter.updateAccount({ ...keyOf(account), refresh_token: "rt-2", access_token: "at-2" }, { refresh_token: "rt-1" })).toMatchObject({ refresh_token: "rt-2", access_token: "at-2" })
    // A missing refresh token matches null.
    const user = await adapter.createUser(make.user())
    const bare: AdapterAccount = { ...make.account(user.id), refresh_token: undefined }
    delete (bare as Partial<AdapterAccount>).refresh_token
    await adapter.linkAccount(bare)
    expect(await adapter.updateAccount({ ...keyOf(bare), refresh_token: "rt-first" }, { refresh_token: null })).toMatchObject({ refresh_token: "rt-first" })
  })

  test(`${CALLERS} parallel updateAccount calls with the same expected refresh token: exactly one wins`, async () => {
    const account = await linked()
    const results = await Promise.all(
      Array.from({ length: CALLERS }, (_, i) => adapter.updateAccount({ ...keyOf(account), refresh_token: `rt-next-${i}`, access_token: `at-next-${i}` }, { refresh_token: "rt-1" })),
    )
    const winners = results.filter((r) => r !== null)
    expect(winners).toHaveLength(1)
    const stored = await db.account(account)
    expect(stored).toMatchObject({ refresh_token: winners[0]!.refresh_token, access_token: winners[0]!.access_token })
  })
}
