import { expect } from "vitest"
import type { VerificationToken } from "@authlib/core"
import type { SuiteContext } from "./types.js"
import { fromNow } from "./context.js"

const MINUTE = 60_000

/** Parallel callers of the race test. */
const CALLERS = 20

/**
 * retireVerificationTokens (optional): after storing a new e-mail sign-in token, core retires all
 * but the `keep` newest tokens (by `expires`) of the address, so only a few links work at once.
 * Registered only when the adapter has the method (see `runBasicTests`).
 */
export function retireVerificationTokensSuite(ctx: SuiteContext): void {
  const { adapter, db, make, test } = ctx

  /**
   * Stores one token per offset (minutes from now) for `identifier`, in the given order, so that
   * the order of insertion differs from the order of expiry: an adapter that keeps the last
   * inserted instead of the latest expiring fails.
   */
  async function storeTokens(identifier: string, minutes: readonly number[]): Promise<VerificationToken[]> {
    const tokens = minutes.map((m) => make.verificationToken({ identifier, expires: fromNow(m * MINUTE) }))
    for (const token of tokens) await adapter.createVerificationToken(token)
    return tokens
  }

  const newestFirst = (tokens: readonly VerificationToken[]) => [...tokens].sort((a, b) => b.expires.getTime() - a.expires.getTime())

  /** Which of `tokens` are still stored, read directly from the store. */
  async function stored(tokens: readonly VerificationToken[]): Promise<VerificationToken[]> {
    const found = await Promise.all(tokens.map(async (t) => ((await db.verificationToken(t)) === null ? null : t)))
    return found.filter((t): t is VerificationToken => t !== null)
  }

  test("retireVerificationTokens keeps the `keep` newest by expires and answers how many it deleted", async () => {
    const identifier = make.verificationToken().identifier
    // Inserted out of expiry order; one already expired (the oldest).
    const tokens = await storeTokens(identifier, [30, -5, 50, 10, 40])
    expect(await adapter.retireVerificationTokens(identifier, 2)).toBe(3)
    const kept = newestFirst(tokens).slice(0, 2)
    expect(newestFirst(await stored(tokens))).toStrictEqual(kept)
    for (const token of kept) expect(await db.verificationToken(token)).toStrictEqual(token)
  })

  test("retireVerificationTokens with no more than `keep` tokens deletes nothing and answers 0", async () => {
    const identifier = make.verificationToken().identifier
    const tokens = await storeTokens(identifier, [10, 20, 30])
    expect(await adapter.retireVerificationTokens(identifier, 3)).toBe(0)
    expect(await adapter.retireVerificationTokens(identifier, 5)).toBe(0)
    expect(await stored(tokens)).toStrictEqual(tokens)
    expect(await adapter.retireVerificationTokens(identifier, 1)).toBe(2)
    expect(await stored(tokens)).toStrictEqual([tokens[2]])
  })

  test("retireVerificationTokens leaves the tokens of other identifiers alone (exact match, case included)", async () => {
    const identifier = make.verificationToken().identifier
    const mine = await storeTokens(identifier, [10, 20, 30])
    // Same address in capitals, a longer one it is a prefix of, and an unrelated one.
    const others = [
      ...(await storeTokens(identifier.toUpperCase(), [5, 6])),
      ...(await storeTokens(`${identifier}.org`, [7])),
      ...(await storeTokens(make.verificationToken().identifier, [8, 9])),
    ]
    expect(await adapter.retireVerificationTokens(identifier, 1)).toBe(2)
    expect(await stored(mine)).toStrictEqual([mine[2]])
    expect(await stored(others)).toStrictEqual(others)
  })

  test("retireVerificationTokens of an unknown identifier answers 0", async () => {
    const other = await storeTokens(make.verificationToken().identifier, [10, 20])
    expect(await adapter.retireVerificationTokens(`nobody-${crypto.randomUUID()}@example.com`, 1)).toBe(0)
    expect(await stored(other)).toStrictEqual(other)
  })

  test(`parallel retireVerificationTokens and createVerificationToken (${CALLERS} retirers): the \`keep\` newest are never deleted`, async () => {
    const identifier = make.verificationToken().identifier
    const keep = 3
    const early = await storeTokens(identifier, [10, 20, 30, 40, 50, 60])
    // Created while the retirers run: some newer than every early token, some older.
    const late = [70, 5, 80, 15, 90, 25].map((m) => make.verificationToken({ identifier, expires: fromNow(m * MINUTE) }))
    const retire = async () => adapter.retireVerificationTokens(identifier, keep)
    const create = (token: VerificationToken) => async () => (await adapter.createVerificationToken(token), 0)
    const calls: Array<() => Promise<number>> = Array.from({ length: CALLERS }, () => retire)
    late.forEach((token, i) => calls.splice(i * 4 + 1, 0, create(token)))
    const answers = await Promise.all(calls.map((call) => Promise.resolve().then(call)))
    const deleted = answers.reduce((sum, n) => sum + n, 0)
    const all = [...early, ...late]
    const remaining = await stored(all)
    // Each deleted token is answered by exactly one caller; the `keep` newest of all survive.
    expect(deleted).toBe(all.length - remaining.length)
    expect(remaining).toEqual(expect.arrayContaining(newestFirst(all).slice(0, keep)))
    // Once the writers are done, one more call leaves exactly the `keep` newest.
    await adapter.retireVerificationTokens(identifier, keep)
    expect(newestFirst(await stored(all))).toStrictEqual(newestFirst(all).slice(0, keep))
  })
}
