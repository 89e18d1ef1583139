import { expect } from "vitest"
import type { AdapterSession } from "@authlib/core"
import type { SuiteContext } from "./types.js"

/** Runs `count` calls at once and waits for all of them, keeping failures. */
function together<T>(count: number, call: (index: number) => Promise<T>): Promise<PromiseSettledResult<T>[]> {
  return Promise.allSettled(Array.from({ length: count }, (_, index) => Promise.resolve().then(() => call(index))))
}

function values<T>(results: PromiseSettledResult<T>[]): T[] {
  const failed = results.filter((r): r is PromiseRejectedResult => r.status === "rejected")
  if (failed.length > 0) throw failed[0]?.reason
  return results.map((r) => (r as PromiseFulfilledResult<T>).value)
}

/** What the Auth.js suite lacks: concurrent callers on one record. */
export function racesSuite(ctx: SuiteContext): void {
  const { adapter, db, make, test, concurrency } = ctx

  test("parallel useVerificationToken on one token: exactly one caller receives it", async () => {
    const input = make.verificationToken()
    await adapter.createVerificationToken(input)
    const key = { identifier: input.identifier, token: input.token }
    const results = values(await together(concurrency, () => Promise.resolve(adapter.useVerificationToken(key))))
    const winners = results.filter((r) => r !== null && r !== undefined)
    expect(winners).toStrictEqual([input])
    expect(results.filter((r) => r === null)).toHaveLength(concurrency - 1)
    expect(await db.verificationToken(key)).toBeNull()
  })

  test("parallel useVerificationToken on distinct tokens: each caller receives its own", async () => {
    const inputs = Array.from({ length: concurrency }, () => make.verificationToken())
    for (const input of inputs) await adapter.createVerificationToken(input)
    const results = values(await together(concurrency, (i) => Promise.resolve(adapter.useVerificationToken(inputs[i]!))))
    expect(results).toStrictEqual(inputs)
  })

  test("parallel createSession and deleteSession leave a consistent store", async () => {
    const user = await adapter.createUser(make.user())
    const sessions = Array.from({ length: concurrency }, () => make.session(user.id))
    const created = values(await together(concurrency, (i) => Promise.resolve(adapter.createSession(sessions[i]!))))
    expect(created).toStrictEqual(sessions)
    const doomed = sessions.filter((_, i) => i % 2 === 0)
    const kept = sessions.filter((_, i) => i % 2 === 1)
    const late = Array.from({ length: concurrency / 2 }, () => make.session(user.id))
    values(
      await together(concurrency, (i) =>
        i % 2 === 0
          ? Promise.resolve(adapter.deleteSession(doomed[i / 2]!.sessionToken))
          : Promise.resolve(adapter.createSession(late[(i - 1) / 2]!)),
      ),
    )
    for (const session of doomed) expect(await db.session(session.sessionToken)).toBeNull()
    for (const session of [...kept, ...late]) expect(await db.session(session.sessionToken)).toStrictEqual(session)
  })

  test("parallel deleteSession of one token: all callers settle and the session is gone", async () => {
    const user = await adapter.createUser(make.user())
    const session = make.session(user.id)
    await adapter.createSession(session)
    values(await together(concurrency, () => Promise.resolve(adapter.deleteSession(session.sessionToken))))
    expect(await db.session(session.sessionToken)).toBeNull()
    expect(await db.user(user.id)).toStrictEqual(user)
  })

  test("parallel updateSession and getSessionAndUser never see a half-written session", async () => {
    const user = await adapter.createUser(make.user())
    const session = make.session(user.id)
    await adapter.createSession(session)
    const expiries = Array.from({ length: concurrency }, (_, i) => new Date(session.expires.getTime() + (i + 1) * 1000))
    const seen = values(
      await together(concurrency * 2, (i) =>
        i % 2 === 0
          ? Promise.resolve(adapter.updateSession({ sessionToken: session.sessionToken, expires: expiries[i / 2]! }))
          : Promise.resolve(adapter.getSessionAndUser(session.sessionToken)).then((r) => r?.session),
      ),
    )
    const allowed = new Set([session.expires, ...expiries].map((d) => d.getTime()))
    for (const s of seen as (AdapterSession | null | undefined)[]) {
      expect(s?.userId).toBe(user.id)
      expect(allowed.has(s!.expires.getTime())).toBe(true)
    }
    const final = await db.session(session.sessionToken)
    expect(expiries.map((d) => d.getTime())).toContain(final?.expires.getTime())
  })

  test("deleteUser while sessions are being created leaves no session of the deleted user", async () => {
    const user = await adapter.createUser(make.user())
    const sessions = Array.from({ length: concurrency }, () => make.session(user.id))
    for (const s of sessions.slice(0, concurrency / 2)) await adapter.createSession(s)
    const late = sessions.slice(concurrency / 2)
    await together<unknown>(late.length + 1, (i) =>
      i === 0 ? Promise.resolve(adapter.deleteUser(user.id)) : Promise.resolve(adapter.createSession(late[i - 1]!)),
    )
    expect(await db.user(user.id)).toBeNull()
    for (const s of sessions) expect(await db.session(s.sessionToken)).toBeNull()
  })
}
