import { describe, expect, it, vi } from "vitest"
import { MemoryRateLimitStore } from "../../../src/index.js"
import type { RateLimitStep } from "../../../src/index.js"
import { countStepsInMemory } from "../../../src/kernel/rate-limit/memory-store.js"
import { Client, config } from "../../helpers/harness.js"

function clock(start = 1_000_000) {
  let now = start
  return { now: () => now, advance: (ms: number) => void (now += ms) }
}

/** A seeded generator (mulberry32): the same sequence every run. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

describe("countStepsInMemory", () => {
  it("counts as hitEach does: the same refusals, waits and counts over 3,000 random step lists, with resets, window ends and eviction", () => {
    const timeA = clock()
    const timeB = clock()
    // A small budget per group, so eviction and the slots' owed counts take part.
    const viaHitEach = new MemoryRateLimitStore({ now: timeA.now, maxKeys: 20 })
    const viaCount = new MemoryRateLimitStore({ now: timeB.now, maxKeys: 20 })
    const next = random(38)
    const pick = (n: number) => Math.floor(next() * n)
    let refusals = 0
    for (let round = 0; round < 3000; round++) {
      const steps: RateLimitStep[] = []
      const used = new Set<string>()
      for (let i = 1 + pick(5); i > 0; i--) {
        const key = `g${pick(3)}:k${pick(40)}`
        if (used.has(key)) continue
        used.add(key)
        steps.push({ key, windowMs: [500, 2000, 10_000][pick(3)]!, cost: pick(3), limit: pick(6) })
      }
      const hits = viaHitEach.hitEach(steps)
      const over = hits.findIndex((hit, i) => (steps[i]!.cost === 0 ? hit.count >= steps[i]!.limit : hit.count > steps[i]!.limit))
      const counted = countStepsInMemory(viaCount, steps)
      expect(counted).toEqual(over < 0 ? undefined : { refused: over, waitMs: hits[over]!.resetInMs })
      if (over >= 0) refusals++
      if (next() < 0.1) {
        const key = steps[0]!.key
        viaHitEach.reset(key)
        viaCount.reset(key)
      }
      const ms = pick(400)
      timeA.advance(ms)
      timeB.advance(ms)
    }
    expect(refusals).toBeGreaterThan(100)
    // Both stores hold the same counts and windows afterwards.
    for (let g = 0; g < 3; g++) for (let k = 0; k < 40; k++) expect(viaCount.hit(`g${g}:k${k}`, 1000, 0)).toEqual(viaHitEach.hit(`g${g}:k${k}`, 1000, 0))
    expect(viaCount.size).toBe(viaHitEach.size)
  })

  it("leaves a store alone (false) unless its hitEach is the class's own: another store, a replaced method, a subclass's", () => {
    const steps: RateLimitStep[] = [{ key: "g:k", windowMs: 1000, cost: 1, limit: 5 }]
    const plain = { hit: () => ({ count: 1, resetInMs: 1 }), reset: () => {} }
    expect(countStepsInMemory(plain, steps)).toBe(false)
    const spied = new MemoryRateLimitStore()
    vi.spyOn(spied, "hitEach")
    expect(countStepsInMemory(spied, steps)).toBe(false)
    class Counting extends MemoryRateLimitStore {
      override hitEach(s: readonly RateLimitStep[]) {
        return super.hitEach(s)
      }
    }
    const sub = new Counting()
    expect(countStepsInMemory(sub, steps)).toBe(false)
    // Nothing was counted on any of them.
    expect(spied.hit("g:k", 1000, 0).count).toBe(0)
    expect(sub.hit("g:k", 1000, 0).count).toBe(0)
  })

  it("a sign-in with a replaced hitEach goes through it, and is refused as with the default path", async () => {
    const store = new MemoryRateLimitStore()
    const hitEach = vi.spyOn(store, "hitEach")
    const cfg = config({ rateLimit: { store, credentials: { perIdentifier: { limit: 2, window: 60 } } } })
    const client = new Client(cfg)
    const answers: Response[] = []
    for (let i = 0; i < 3; i++) answers.push(await client.signIn("alice", "wrong"))
    expect(hitEach).toHaveBeenCalledTimes(3)
    expect(answers.map((res) => res.status)).toEqual([302, 302, 429])
    expect(answers[2]!.headers.get("retry-after")).toBe("60")
  })
})
