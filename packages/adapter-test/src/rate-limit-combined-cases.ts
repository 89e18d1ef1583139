/**
 * The cases of the combined operations of a rate-limit store (`hitEach`, `resetEach`, optional in
 * `RateLimitStore`): what core relies on when a credentials sign-in counts its client, identifier
 * and total counters in one call. A store without them passes these cases (core then calls `hit`
 * and `reset` per key, which the other cases cover).
 */
import { expect } from "vitest"
import type { RateLimitHit, RateLimitStep, RateLimitStore } from "@authlib/core"
import type { RateLimitCase } from "./rate-limit-cases.js"

const LONG = 60_000
const CONCURRENT = 60

const freshKey = (label: string) => `test:${label}:${crypto.randomUUID()}`
const step = (key: string, limit: number, cost = 1): RateLimitStep => ({ key, windowMs: LONG, cost, limit })
const counts = (hits: readonly RateLimitHit[]) => hits.map((h) => h.count)

type Combined = Required<Pick<RateLimitStore, "hitEach" | "resetEach">> & RateLimitStore

/** The case's body, run only against a store that has both combined operations. */
function combined(name: string, run: (store: Combined) => Promise<void>): RateLimitCase {
  return {
    name: `combined operations (stores with hitEach and resetEach): ${name}`,
    async run(store) {
      if (typeof store.hitEach !== "function" || typeof store.resetEach !== "function") return
      await run(store as Combined)
    },
  }
}

export function rateLimitCombinedCases(): RateLimitCase[] {
  return [
    combined("hitEach counts each step as hit would and answers the hits in order", async (store) => {
      const [a, b] = [freshKey("each-a"), freshKey("each-b")]
      await store.hit(b, LONG)
      const hits = await store.hitEach([step(a, 10), step(b, 10, 2)])
      expect(counts(hits)).toStrictEqual([1, 3])
      for (const hit of hits) expect(hit.resetInMs).toBeGreaterThan(0)
      expect((await store.hit(a, LONG, 0)).count).toBe(1)
    }),
    combined("hitEach stops after the first step over its limit: later steps are not counted", async (store) => {
      const [a, b] = [freshKey("stop-a"), freshKey("stop-b")]
      expect(counts(await store.hitEach([step(a, 1), step(b, 5)]))).toStrictEqual([1, 1])
      expect(counts(await store.hitEach([step(a, 1), step(b, 5)]))).toStrictEqual([2])
      expect((await store.hit(b, LONG, 0)).count).toBe(1)
    }),
    combined("a read step (cost 0) counts nothing, is over at its limit, and opens no window", async (store) => {
      const [client, a] = [freshKey("read-client"), freshKey("read-a")]
      expect(counts(await store.hitEach([step(client, 2, 0), step(a, 5)]))).toStrictEqual([0, 1])
      await store.hit(client, LONG, 2)
      expect(counts(await store.hitEach([step(client, 2, 0), step(a, 5)]))).toStrictEqual([2])
      expect((await store.hit(a, LONG, 0)).count).toBe(1)
      const unknown = freshKey("read-unknown")
      expect(await store.hitEach([step(unknown, 1, 0)])).toStrictEqual([{ count: 0, resetInMs: LONG }])
      expect((await store.hit(unknown, LONG)).count).toBe(1)
    }),
    combined("resetEach forgets every key it names and no other", async (store) => {
      const [a, b, other] = [freshKey("reset-a"), freshKey("reset-b"), freshKey("reset-other")]
      await store.hitEach([step(a, 10), step(b, 10), step(other, 10)])
      await store.resetEach([a, b, freshKey("reset-unknown")])
      expect(counts(await store.hitEach([step(a, 10), step(b, 10), step(other, 10)]))).toStrictEqual([1, 1, 2])
    }),
    combined(`${CONCURRENT} concurrent hitEach through a counter of limit 10 let exactly 10 reach the next`, async (store) => {
      const [gate, total] = [freshKey("gate"), freshKey("total")]
      const answers = await Promise.all(Array.from({ length: CONCURRENT }, () => Promise.resolve().then(() => store.hitEach([step(gate, 10), step(total, 1000)]))))
      expect(answers.filter((hits) => hits.length === 2)).toHaveLength(10)
      expect(answers.flatMap((hits) => (hits.length === 2 ? [hits[1]!.count] : [])).sort((x, y) => x - y)).toStrictEqual(Array.from({ length: 10 }, (_, i) => i + 1))
      expect((await store.hit(total, LONG, 0)).count).toBe(10)
    }),
    combined("concurrent attempts and resets sharing the later counters all complete (no lock waits on each other)", async (store) => {
      const shared = [freshKey("shared-60"), freshKey("shared-3600")]
      const calls = Array.from({ length: CONCURRENT }, (_, i) => {
        const own = [freshKey(`own-${i}-60`), freshKey(`own-${i}-3600`)]
        return Promise.resolve().then(() => (i % 2 === 0 ? store.hitEach([...own, ...shared].map((key) => step(key, 1000))) : store.resetEach([...own, ...shared])))
      })
      await expect(Promise.all(calls)).resolves.toHaveLength(CONCURRENT)
    }),
  ]
}
