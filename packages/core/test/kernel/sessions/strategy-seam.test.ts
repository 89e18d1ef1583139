/**
 * The session-strategy seam has no optional or null members for callers to test: a strategy
 * without a feature answers for it the way "none" would (issue 23: no strategy branches under
 * another name).
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

  it("database sessions keep no provider tokens: their store says so, reads none and writes no cookie", async () => {
    const store = databaseStrategy.providerTokens
    expect([store.kept, jwtStrategy.providerTokens.kept]).toEqual([false, true])
    const req = {} as AuthRequest
    const ctx = {} as Context
    expect(await store.read(req, ctx)).toBeNull()
    expect(await store.write(req, ctx, "github", { access_token: "a" })).toEqual([])
  })
})
