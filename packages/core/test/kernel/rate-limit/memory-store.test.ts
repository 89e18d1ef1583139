import { describe, expect, it } from "vitest"
import { DEFAULT_MEMORY_STORE_KEYS, MemoryRateLimitStore } from "../../../src/index.js"

function clock(start = 1_000_000) {
  let now = start
  return { now: () => now, advance: (ms: number) => void (now += ms) }
}

describe("MemoryRateLimitStore", () => {
  it("counts hits in a fixed window and starts a new one when it ends", () => {
    const time = clock()
    const store = new MemoryRateLimitStore({ now: time.now })
    expect(store.hit("k", 1000)).toEqual({ count: 1, resetInMs: 1000 })
    time.advance(400)
    expect(store.hit("k", 1000)).toEqual({ count: 2, resetInMs: 600 })
    time.advance(599)
    expect(store.hit("k", 1000)).toEqual({ count: 3, resetInMs: 1 })
    time.advance(1)
    expect(store.hit("k", 1000)).toEqual({ count: 1, resetInMs: 1000 })
  })

  it("cost 0 reads without opening a window; cost n adds n; reset forgets", () => {
    const store = new MemoryRateLimitStore()
    expect(store.hit("k", 1000, 0)).toEqual({ count: 0, resetInMs: 1000 })
    expect(store.size).toBe(0)
    expect(store.hit("k", 1000, 3).count).toBe(3)
    expect(store.hit("k", 1000, 0).count).toBe(3)
    store.reset("k")
    store.reset("never-seen")
    expect(store.hit("k", 1000).count).toBe(1)
  })

  it("100k distinct keys keep at most maxKeys counters, and the newest keys still count", () => {
    const store = new MemoryRateLimitStore({ maxKeys: 10_000 })
    for (let i = 0; i < 100_000; i++) store.hit(`flood:${i}`, 60_000)
    expect(store.size).toBeLessThanOrEqual(10_000)
    // Counted on (it may start above 1: its slot holds what evicted keys had, see the eviction tests).
    const held = store.hit("flood:99999", 60_000, 0).count
    expect(held).toBeGreaterThanOrEqual(1)
    expect(store.hit("flood:99999", 60_000).count).toBe(held + 1)
  })

  it("the default bound holds a flood of distinct keys, and the heap stays bounded", () => {
    const store = new MemoryRateLimitStore()
    const before = process.memoryUsage().heapUsed
    for (let i = 0; i < 200_000; i++) store.hit(`credentials.perIdentifier:60:user-${i}@example.com`, 60_000)
    expect(store.size).toBeLessThanOrEqual(DEFAULT_MEMORY_STORE_KEYS)
    // 50,000 counters are a few MB; 200,000 unbounded ones would be several times that.
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(64 * 1024 * 1024)
  })

  it("when full, ended windows go first: a live counter survives a flood that fits once those are gone", () => {
    const time = clock()
    const store = new MemoryRateLimitStore({ maxKeys: 100, now: time.now })
    store.hit("victim", 60_000, 5)
    for (let i = 0; i < 99; i++) store.hit(`short:${i}`, 10)
    time.advance(20)
    for (let i = 0; i < 99; i++) store.hit(`next:${i}`, 60_000)
    expect(store.hit("victim", 60_000, 0).count).toBe(5)
  })

  it("refuses a maxKeys that is not a positive integer", () => {
    expect(() => new MemoryRateLimitStore({ maxKeys: 0 })).toThrow(RangeError)
    expect(() => new MemoryRateLimitStore({ maxKeys: 1.5 })).toThrow(RangeError)
  })
})
