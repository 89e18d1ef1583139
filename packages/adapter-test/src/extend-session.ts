import { expect } from "vitest"
import type { AdapterSession } from "@authlib/core"
import type { SuiteContext } from "./types.js"
import { randomToken } from "./context.js"

/** Parallel callers of the race test, as the contract's issue names them. */
const CALLERS = 20

/**
 * extendSession (optional): the conditional update behind sliding database sessions. It extends a
 * session only while its stored expiry is earlier than `dueBefore`, so one of many concurrent
 * reads writes. Registered only when the adapter has the method (see `runBasicTests`).
 */
export function extendSessionSuite(ctx: SuiteContext): void {
  const { adapter, db, make, test } = ctx

  async function storedSession(): Promise<AdapterSession> {
    const user = await adapter.createUser(make.user())
    const session = make.session(user.id)
    await adapter.createSession(session)
    return session
  }

  test("extendSession of a due session sets the new expiry once and returns the session", async () => {
    const session = await storedSession()
    const dueBefore = new Date(session.expires.getTime() + 1000)
    const expires = make.sessionUpdateExpires()
    const extended = await adapter.extendSession({ sessionToken: session.sessionToken, expires }, dueBefore)
    expect(extended).toStrictEqual({ ...session, expires })
    expect(await db.session(session.sessionToken)).toStrictEqual({ ...session, expires })
    const again = await adapter.extendSession({ sessionToken: session.sessionToken, expires: new Date(expires.getTime() + 1000) }, dueBefore)
    expect(again ?? null).toBeNull()
    expect(await db.session(session.sessionToken)).toStrictEqual({ ...session, expires })
  })

  test("extendSession of a session not due (expiry at or after dueBefore) returns null and changes nothing", async () => {
    const session = await storedSession()
    for (const dueBefore of [session.expires, new Date(session.expires.getTime() - 1000)]) {
      const result = await adapter.extendSession({ sessionToken: session.sessionToken, expires: make.sessionUpdateExpires() }, dueBefore)
      expect(result ?? null).toBeNull()
    }
    expect(await db.session(session.sessionToken)).toStrictEqual(session)
  })

  test("extendSession of an unknown token returns null and creates nothing", async () => {
    const sessionToken = randomToken()
    const result = await adapter.extendSession({ sessionToken, expires: make.sessionUpdateExpires() }, make.sessionUpdateExpires())
    expect(result ?? null).toBeNull()
    expect(await db.session(sessionToken)).toBeNull()
  })

  test(`parallel extendSession with one dueBefore (${CALLERS} callers): exactly one extends the session`, async () => {
    const session = await storedSession()
    const dueBefore = new Date(session.expires.getTime() + 1000)
    const base = make.sessionUpdateExpires().getTime()
    const expiries = Array.from({ length: CALLERS }, (_, i) => new Date(base + i * 1000))
    const results = await Promise.all(
      expiries.map((expires) => Promise.resolve().then(() => adapter.extendSession({ sessionToken: session.sessionToken, expires }, dueBefore))),
    )
    const winners = results.filter((r): r is AdapterSession => r !== null && r !== undefined)
    expect(winners).toHaveLength(1)
    expect(expiries.map((d) => d.getTime())).toContain(winners[0]!.expires.getTime())
    expect(await db.session(session.sessionToken)).toStrictEqual({ ...session, expires: winners[0]!.expires })
  })
}
