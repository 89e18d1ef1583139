/**
 * The combined-operation cases of the rate-limit store suite fail on a store whose `hitEach` or
 * `resetEach` breaks the rule each case is there for.
 */
import { describe, expect, test } from "vitest"
import { MemoryRateLimitStore, type RateLimitHit, type RateLimitStep, type RateLimitStore } from "@authlib/core"
import { rateLimitCombinedCases } from "../src/rate-limit-combined-cases.js"

const over = (step: RateLimitStep, hit: RateLimitHit) => (step.cost === 0 ? hit.count >= step.limit : hit.count > step.limit)

/** A memory store whose combined operations are replaced by `flawed`. */
function storeWith(flawed: (inner: MemoryRateLimitStore) => Partial<RateLimitStore>): RateLimitStore {
  const inner = new MemoryRateLimitStore()
  return { hit: (k, w, c) => inner.hit(k, w, c), reset: (k) => inner.reset(k), hitEach: (s) => inner.hitEach(s), resetEach: (k) => inner.resetEach(k), ...flawed(inner) }
}

const FLAWED: Record<string, RateLimitStore> = {
  "answers the hits in reverse order": storeWith((m) => ({ hitEach: (s) => m.hitEach(s).reverse() })),
  "does not stop at the first step over its limit": storeWith((m) => ({ hitEach: (s) => s.map((x) => m.hit(x.key, x.windowMs, x.cost)) })),
  "counts a read step as a hit": storeWith((m) => ({ hitEach: (s) => m.hitEach(s.map((x) => ({ ...x, cost: x.cost === 0 ? 1 : x.cost }))) })),
  "resets only the first key": storeWith((m) => ({ resetEach: (keys) => m.reset(keys[0]!) })),
  "reads every counter, yields, then writes (lost updates)": storeWith((m) => ({
    async hitEach(steps) {
      const hits: RateLimitHit[] = []
      for (const step of steps) {
        const before = m.hit(step.key, step.windowMs, 0).count
        await new Promise((resolve) => setTimeout(resolve, 1))
        m.reset(step.key)
        const hit = m.hit(step.key, step.windowMs, before + step.cost)
        hits.push(hit)
        if (over(step, hit)) break
      }
      return hits
    },
  })),
}

describe("the combined-operation cases can fail", () => {
  const cases = rateLimitCombinedCases()
  test("a correct store passes every case", async () => {
    for (const { run } of cases) await run(new MemoryRateLimitStore())
  })
  for (const [flaw, store] of Object.entries(FLAWED)) {
    test(`a store that ${flaw} fails a case`, async () => {
      const failed = await Promise.all(cases.map((c) => c.run(store).then(() => false, () => true)))
      expect(failed).toContain(true)
    })
  }
})
