/**
 * The session-strategy seam has no optional or null members for callers to test: a strategy
 * without a feature answers for it the way "none" would (issue 23: no strategy branches under
 * another name). It is issue / read / end / principal / replace and one read-only descriptor
 * (issue 33: at most six members); features attach as changes `replace` makes.
 */
import { describe, expect, it } from "vitest"
import { databaseStrategy } from "../../../src/kernel/sessions/database-strategy.js"
import { jwtStrategy } from "../../../src/kernel/sessions/jwt-strategy.js"
import type { AuthRequest, Context } from "../../../src/kernel/types/http.js"

describe("the session-strategy seam", () => {
  it("gives both strategies every member, none null", () => {
    const members = new Set([...Object.keys(jwtStrategy), ...Object.keys(databaseStrategy)])
    for (const strategy of [jwtStrategy, databaseStrategy])
      for (const member of members) expect(strategy[member as keyof typeof strategy], member).not.toBeNull()
    expect(Object.keys(jwtStrategy).sort()).toEqual(Object.keys(databaseStrategy).sort())
  })

  it("is issue, read, end, principal, replace and its traits: six members", () => {
    expect(Object.keys(jwtStrategy).sort()).toEqual(["end", "issue", "principal", "read", "replace", "traits"])
    for (const strategy of [jwtStrategy, databaseStrategy]) expect(Object.isFrozen(strategy.traits)).toBe(true)
  })

  it("database sessions keep no provider tokens: their traits say so, and a token change writes no cookie", async () => {
    expect([databaseStrategy.traits.keepsProviderTokens, jwtStrategy.traits.keepsProviderTokens]).toEqual([false, true])
    const req = {} as AuthRequest
    const ctx = {} as Context
    expect(await databaseStrategy.replace(req, ctx, { providerTokens: { providerId: "github", tokens: { access_token: "a" } } })).toEqual([])
  })
})
