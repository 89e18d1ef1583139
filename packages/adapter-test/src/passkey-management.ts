import { expect } from "vitest"
import type { AdapterAuthenticator, AdapterUser } from "@authlib/core"
import type { SuiteContext } from "./types.js"
import { expectAuthenticator } from "./shapes.js"
import { fromNow, randomToken } from "./context.js"

/** Parallel callers of the delete race. */
const CALLERS = 20
/** How far a stamped time may be from the test's clock (a database server's clock may differ a little). */
const CLOCK_SKEW_MS = 60_000

/** Asserts that `value` is a `Date` within the clock skew of the window [`before`, `after`]. */
function expectStamped(value: unknown, before: number, after: number): void {
  expect(value).toBeInstanceOf(Date)
  const time = (value as Date).getTime()
  expect(time).toBeGreaterThanOrEqual(before - CLOCK_SKEW_MS)
  expect(time).toBeLessThanOrEqual(after + CLOCK_SKEW_MS)
}

function passkeys(ctx: SuiteContext) {
  const { adapter, make } = ctx
  return async function storedPasskey(user?: AdapterUser, overrides: Partial<AdapterAuthenticator> = {}) {
    const owner = user ?? (await adapter.createUser(make.user()))
    const account = make.account(owner.id, { type: "webauthn", provider: "passkey" })
    await adapter.linkAccount(account)
    const input = make.authenticator(owner.id, account.providerAccountId, overrides)
    await adapter.createAuthenticator(input)
    return { user: owner, input, account }
  }
}

/**
 * deleteAuthenticator (optional): core's passkey deletion. One atomic delete keyed by credential ID;
 * core checks ownership before calling it. Registered only when the adapter has it.
 */
export function deleteAuthenticatorSuite(ctx: SuiteContext): void {
  const { adapter, db, test } = ctx
  const storedPasskey = passkeys(ctx)

  test("deleteAuthenticator returns the deleted authenticator and removes only it (its account stays: core unlinks it)", async () => {
    const { user, input, account } = await storedPasskey()
    const kept = await storedPasskey(user)
    expectAuthenticator(await adapter.deleteAuthenticator(input.credentialID), input)
    expect(await db.authenticator?.(input.credentialID)).toBeNull()
    expect(await adapter.getAuthenticator(input.credentialID)).toBeNull()
    const listed = await adapter.listAuthenticatorsByUserId(user.id)
    expect(listed.map((a) => a.credentialID)).toStrictEqual([kept.input.credentialID])
    expect((await adapter.getAccount(account.providerAccountId, "passkey"))?.userId).toBe(user.id)
  })

  test("deleteAuthenticator of an unknown credential returns null and deletes nothing", async () => {
    const { input } = await storedPasskey()
    expect((await adapter.deleteAuthenticator(randomToken())) ?? null).toBeNull()
    expectAuthenticator(await db.authenticator?.(input.credentialID), input)
  })

  test("deleteAuthenticator and updateAuthenticator touch only the named credential: another user's passkeys stay as they were", async () => {
    const mine = await storedPasskey()
    const theirs = await storedPasskey()
    await adapter.deleteAuthenticator(mine.input.credentialID)
    if (typeof adapter.updateAuthenticator === "function") await adapter.updateAuthenticator(randomToken(), { name: "Mine now" })
    expectAuthenticator(await db.authenticator?.(theirs.input.credentialID), theirs.input)
    const listed = await adapter.listAuthenticatorsByUserId(theirs.user.id)
    expect(listed).toHaveLength(1)
    expectAuthenticator(listed[0], theirs.input)
    expect(await adapter.listAuthenticatorsByUserId(mine.user.id)).toStrictEqual([])
  })

  test(`parallel deleteAuthenticator on one credential (${CALLERS} callers): exactly one receives it`, async () => {
    const { input } = await storedPasskey()
    const results = await Promise.all(Array.from({ length: CALLERS }, () => Promise.resolve().then(() => adapter.deleteAuthenticator(input.credentialID))))
    const winners = results.filter((r) => r !== null && r !== undefined)
    expect(winners).toHaveLength(1)
    expectAuthenticator(winners[0], input)
    expect(await db.authenticator?.(input.credentialID)).toBeNull()
  })
}

/**
 * updateAuthenticator (optional) and the three management fields it implies: `name` set by it,
 * `createdAt` stamped by `createAuthenticator`, `lastUsedAt` stamped by `updateAuthenticatorCounter`.
 * Registered only when the adapter has it.
 */
export function updateAuthenticatorSuite(ctx: SuiteContext): void {
  const { adapter, db, test } = ctx
  const storedPasskey = passkeys(ctx)

  test("createAuthenticator stamps createdAt and stores name and lastUsedAt as null", async () => {
    const before = Date.now()
    const { input } = await storedPasskey()
    const after = Date.now()
    for (const read of [await adapter.getAuthenticator(input.credentialID), await db.authenticator?.(input.credentialID)]) {
      expectAuthenticator(read, input)
      expect(read?.name).toBeNull()
      expect(read?.lastUsedAt).toBeNull()
      expectStamped(read?.createdAt, before, after)
    }
  })

  test("createAuthenticator keeps a given name, createdAt and lastUsedAt", async () => {
    const given = { name: "Work laptop", createdAt: fromNow(-86_400_000), lastUsedAt: fromNow(-3_600_000) }
    const { input } = await storedPasskey(undefined, given)
    const read = await adapter.getAuthenticator(input.credentialID)
    expectAuthenticator(read, input)
    expect({ name: read?.name, createdAt: read?.createdAt, lastUsedAt: read?.lastUsedAt }).toStrictEqual(given)
  })

  test("updateAuthenticatorCounter stamps lastUsedAt with the counter", async () => {
    const { input } = await storedPasskey()
    const before = Date.now()
    const updated = await adapter.updateAuthenticatorCounter(input.credentialID, 3)
    const after = Date.now()
    expectStamped(updated.lastUsedAt, before, after)
    expect((await db.authenticator?.(input.credentialID))?.lastUsedAt).toStrictEqual(updated.lastUsedAt)
  })

  test("updateAuthenticator sets the name and returns the authenticator; reads give it back", async () => {
    const { user, input } = await storedPasskey()
    const name = "Ada's phone 📱 ‏עברית"
    const updated = await adapter.updateAuthenticator(input.credentialID, { name })
    expectAuthenticator(updated, input)
    expect(updated?.name).toBe(name)
    expect((await adapter.getAuthenticator(input.credentialID))?.name).toBe(name)
    expect((await adapter.listAuthenticatorsByUserId(user.id))[0]?.name).toBe(name)
    expect((await db.authenticator?.(input.credentialID))?.name).toBe(name)
  })

  test("updateAuthenticator with name null clears it; without a name key it changes nothing", async () => {
    const { input } = await storedPasskey(undefined, { name: "Old" })
    const unchanged = await adapter.updateAuthenticator(input.credentialID, {})
    expect(unchanged?.name).toBe("Old")
    expect((await adapter.updateAuthenticator(input.credentialID, { name: null }))?.name).toBeNull()
    expect((await db.authenticator?.(input.credentialID))?.name).toBeNull()
    expectAuthenticator(await db.authenticator?.(input.credentialID), input)
  })

  test("updateAuthenticator of an unknown credential returns null and creates nothing", async () => {
    const credentialID = randomToken()
    expect((await adapter.updateAuthenticator(credentialID, { name: "x" })) ?? null).toBeNull()
    expect(await db.authenticator?.(credentialID)).toBeNull()
    expect(await adapter.getAuthenticator(credentialID)).toBeNull()
  })
}
