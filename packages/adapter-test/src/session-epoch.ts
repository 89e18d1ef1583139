import { expect } from "vitest"
import type { SuiteContext } from "./types.js"

/**
 * getUserSessionEpoch and incrementUserSessionEpoch (optional): the per-user counter that revokes
 * JWT sessions. Registered only when the adapter has both methods (see `runBasicTests`).
 */
export function sessionEpochSuite(ctx: SuiteContext): void {
  const { adapter, make, test } = ctx

  test("a new user is at epoch 0; each increment adds 1 and answers the new value; other users are untouched", async () => {
    const user = await adapter.createUser(make.user())
    const other = await adapter.createUser(make.user())
    expect(await adapter.getUserSessionEpoch(user.id)).toBe(0)
    expect(await adapter.incrementUserSessionEpoch(user.id)).toBe(1)
    expect(await adapter.incrementUserSessionEpoch(user.id)).toBe(2)
    expect(await adapter.getUserSessionEpoch(user.id)).toBe(2)
    expect(await adapter.getUserSessionEpoch(other.id)).toBe(0)
  })

  test("an unknown user has no epoch and cannot be incremented", async () => {
    expect(await adapter.getUserSessionEpoch(crypto.randomUUID())).toBeNull()
    expect(await adapter.incrementUserSessionEpoch(crypto.randomUUID())).toBeNull()
  })

  test("20 concurrent increments answer 1..20, each once (no lost update)", async () => {
    const user = await adapter.createUser(make.user())
    const answers = await Promise.all(Array.from({ length: 20 }, () => adapter.incrementUserSessionEpoch(user.id)))
    expect([...answers].sort((a, b) => a! - b!)).toStrictEqual(Array.from({ length: 20 }, (_, i) => i + 1))
    expect(await adapter.getUserSessionEpoch(user.id)).toBe(20)
  })
}
