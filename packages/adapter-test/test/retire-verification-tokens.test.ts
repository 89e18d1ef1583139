/**
 * The retireVerificationTokens cases pass on the MemoryAdapter (see memory-adapter.test.ts) and each
 * fails on an adapter whose method is wrong in the way the case is there to catch.
 */
import { describe, expect, test } from "vitest"
import type { Adapter, VerificationToken } from "@authlib/core"
import { MemoryAdapter, createMemoryStore } from "../src/index.js"
import type { MemoryStore, TestDb } from "../src/index.js"
import { createContext } from "../src/context.js"
import { retireVerificationTokensSuite } from "../src/retire-verification-tokens.js"

type Retire = (store: MemoryStore, identifier: string, keep: number) => Promise<number>

const tokensOf = (store: MemoryStore, match: (t: VerificationToken) => boolean) => [...store.verificationTokens.values()].filter(match)
const remove = (store: MemoryStore, tokens: VerificationToken[]) => {
  for (const t of tokens) store.verificationTokens.delete(store.tokenKey(t.identifier, t.token))
}

/** Wrong implementations, each named after its flaw. */
const WRONG: Record<string, Retire> = {
  "keeps the last inserted instead of the latest expiring": async (store, identifier, keep) => {
    const mine = tokensOf(store, (t) => t.identifier === identifier)
    remove(store, mine.slice(0, Math.max(0, mine.length - keep)))
    return Math.max(0, mine.length - keep)
  },
  "answers the number kept": async (store, identifier, keep) => {
    const memory = MemoryAdapter(store)
    const deleted = await memory.retireVerificationTokens(identifier, keep)
    return deleted === 0 ? 0 : tokensOf(store, (t) => t.identifier === identifier).length
  },
  "matches identifiers ignoring case": async (store, identifier, keep) => {
    const mine = tokensOf(store, (t) => t.identifier.toLowerCase() === identifier.toLowerCase())
    const retired = mine.sort((a, b) => b.expires.getTime() - a.expires.getTime()).slice(keep)
    remove(store, retired)
    return retired.length
  },
  "answers null when nothing is deleted": async (store, identifier, keep) => {
    const deleted = await MemoryAdapter(store).retireVerificationTokens(identifier, keep)
    return (deleted || null) as number
  },
  // Reads the newest, yields, then deletes every other token: a token created meanwhile is lost.
  "reads the newest, then deletes all others in a second step": async (store, identifier, keep) => {
    const newest = tokensOf(store, (t) => t.identifier === identifier)
      .sort((a, b) => b.expires.getTime() - a.expires.getTime())
      .slice(0, keep)
    await new Promise((resolve) => setImmediate(resolve))
    const retired = tokensOf(store, (t) => t.identifier === identifier && !newest.includes(t))
    remove(store, retired)
    return retired.length
  },
}

/** Registers the suite against `retire` and returns its tests, to be run by hand. */
function casesFor(retire: Retire): Map<string, () => Promise<void>> {
  const store = createMemoryStore()
  const adapter: Adapter = { ...MemoryAdapter(store), retireVerificationTokens: (identifier, keep) => retire(store, identifier, keep) }
  const db: TestDb = {
    user: (id) => store.users.get(id) ?? null,
    session: (token) => store.sessions.get(token) ?? null,
    account: () => null,
    verificationToken: ({ identifier, token }) => store.verificationTokens.get(store.tokenKey(identifier, token)) ?? null,
  }
  const cases = new Map<string, () => Promise<void>>()
  const ctx = createContext({ adapter, db }, { run: (name, fn) => cases.set(name, fn), skip: () => {} })
  retireVerificationTokensSuite(ctx)
  return cases
}

/** For each case (by the start of its name), the wrong implementation it must catch. */
const CAUGHT_BY: Record<string, string> = {
  "retireVerificationTokens keeps the `keep` newest": "keeps the last inserted instead of the latest expiring",
  "retireVerificationTokens with no more than": "answers the number kept",
  "retireVerificationTokens leaves the tokens of other identifiers alone": "matches identifiers ignoring case",
  "retireVerificationTokens of an unknown identifier": "answers null when nothing is deleted",
  "parallel retireVerificationTokens": "reads the newest, then deletes all others in a second step",
}

describe("every retireVerificationTokens case can fail", () => {
  const names = [...casesFor(WRONG["answers the number kept"]!).keys()]

  test("each case has a wrong implementation it is shown to catch", () => {
    expect(names).toHaveLength(Object.keys(CAUGHT_BY).length)
    for (const name of names) expect(Object.keys(CAUGHT_BY).some((prefix) => name.startsWith(prefix)), name).toBe(true)
  })

  for (const [prefix, flaw] of Object.entries(CAUGHT_BY)) {
    test(`fails on an adapter that ${flaw}: ${prefix} ...`, async () => {
      const cases = casesFor(WRONG[flaw]!)
      const run = [...cases].find(([name]) => name.startsWith(prefix))![1]
      await expect(run()).rejects.toThrow()
    })
  }

  test("the same cases pass on the MemoryAdapter's method", async () => {
    for (const run of casesFor((store, identifier, keep) => Promise.resolve(MemoryAdapter(store).retireVerificationTokens(identifier, keep))).values()) {
      await run()
    }
  })
})
