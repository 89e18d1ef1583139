/**
 * The rate-limit store suite passes on a correct store, and each of its cases fails on a store
 * broken in the way that case is there to catch: no case can pass whatever the store does.
 */
import { describe, expect, test } from "vitest"
import type { RateLimitHit, RateLimitStore } from "@authlib/core"
import { runRateLimitStoreTests } from "../src/index.js"
import { rateLimitStoreCases } from "../src/rate-limit-cases.js"

const WINDOW_MS = 200

interface Counter {
  count: number
  resetAt: number
}

/** A correct fixed-window store, with the flaws below switchable one at a time. */
interface Flaws {
  /** Reads, yields, then writes: concurrent hits on one key lose updates. */
  readThenWrite?: boolean
  /** Copies the whole map, yields, writes the copy back: concurrent hits on any keys lose updates. */
  copyOnWrite?: boolean
  /** Starts a new window after a yield when the old one has ended: concurrent hits start several. */
  racyRestart?: boolean
  slidingWindow?: boolean
  neverExpires?: boolean
  ignoresCost?: boolean
  costZeroCounts?: boolean
  costZeroOpensWindow?: boolean
  /** Keeps only the first 256 characters of a key. */
  truncatesKeys?: boolean
  /** NFC-normalises and lower-cases keys. */
  foldsKeys?: boolean
  resetDoesNothing?: boolean
  resetThrowsOnUnknown?: boolean
  startsAtZero?: boolean
  reportsWholeWindow?: boolean
}

const tick = () => new Promise<void>((resolve) => setImmediate(resolve))

function mapStore(flaws: Flaws = {}): RateLimitStore {
  let counters = new Map<string, Counter>()
  const keyOf = (key: string) =>
    flaws.truncatesKeys ? key.slice(0, 256) : flaws.foldsKeys ? key.normalize("NFC").toLowerCase() : key
  return {
    async hit(rawKey, windowMs, cost = 1): Promise<RateLimitHit> {
      const key = keyOf(rawKey)
      const added = flaws.ignoresCost || (flaws.costZeroCounts && cost === 0) ? 1 : cost
      const map = flaws.copyOnWrite ? new Map(counters) : counters
      const now = Date.now()
      const current = map.get(key)
      if (flaws.readThenWrite || flaws.copyOnWrite) await tick()
      const open = current && (flaws.neverExpires || current.resetAt > now)
      if (!open && added === 0 && !flaws.costZeroOpensWindow) return { count: 0, resetInMs: windowMs }
      if (!open && flaws.racyRestart) await tick()
      const counter = open ? { ...current } : { count: flaws.startsAtZero ? -1 : 0, resetAt: now + windowMs }
      counter.count += added
      if (flaws.slidingWindow) counter.resetAt = now + windowMs
      map.set(key, counter)
      if (flaws.copyOnWrite) counters = map
      const resetInMs = flaws.reportsWholeWindow ? windowMs + 1 : Math.max(1, counter.resetAt - now)
      return { count: counter.count, resetInMs }
    },
    async reset(rawKey) {
      const key = keyOf(rawKey)
      if (flaws.resetThrowsOnUnknown && !counters.has(key)) throw new Error("no such key")
      if (!flaws.resetDoesNothing) counters.delete(key)
    },
  }
}

runRateLimitStoreTests({ name: "a correct Map store", store: () => mapStore(), windowMs: WINDOW_MS })

/** For each case, a flaw it must catch. */
const CAUGHT_BY: Record<string, Flaws> = {
  "the first hit of a key counts 1 and its window ends within windowMs": { reportsWholeWindow: true },
  "counts grow by one per hit within a window": { startsAtZero: true },
  "a hit inside a window does not move its end (fixed windows)": { slidingWindow: true },
  "cost > 1 adds that many hits": { ignoresCost: true },
  "keys are independent (512 characters, its prefixes, non-ASCII and quotes)": { truncatesKeys: true },
  "reset forgets the key's count and window, and only that key's": { resetDoesNothing: true },
  "reset of an unknown key does nothing": { resetThrowsOnUnknown: true },
  "cost 0 reads the count without adding to it": { costZeroCounts: true },
  "cost 0 on an unknown key answers { count: 0, resetInMs: windowMs } and opens no window": { costZeroOpensWindow: true },
  "a window that has ended counts as none and the next hit starts a new one": { neverExpires: true },
  "concurrent hits on a key whose window has ended start exactly one new window": { racyRestart: true },
  "200 concurrent hits on one key answer the counts 1..200, each once": { readThenWrite: true },
  "concurrent hits on different keys do not interfere": { copyOnWrite: true },
}

describe("every case of the suite can fail", () => {
  const cases = rateLimitStoreCases(WINDOW_MS)

  test("each case has a flaw it is shown to catch", () => {
    expect(cases.map((c) => c.name).sort()).toStrictEqual(Object.keys(CAUGHT_BY).sort())
  })

  for (const { name, run } of cases) {
    test(`fails on a store that ${Object.keys(CAUGHT_BY[name] ?? {}).join(", ")}: ${name}`, async () => {
      await expect(run(mapStore(CAUGHT_BY[name]))).rejects.toThrow()
    })
  }

  test("keys folded by case or Unicode normalisation are caught too", async () => {
    const keys = cases.find((c) => c.name.startsWith("keys are independent"))!
    await expect(keys.run(mapStore({ foldsKeys: true }))).rejects.toThrow()
  })
})

describe("runRateLimitStoreTests options", () => {
  const store = () => mapStore()

  test("a skip entry without a reason is rejected at run time", () => {
    expect(() => runRateLimitStoreTests({ name: "x", store, skip: [{ name: "reset of an unknown key does nothing", reason: "" }] })).toThrow(
      /skip: "reset of an unknown key does nothing" needs a non-empty reason/,
    )
  })

  test("a window below 100 ms is rejected", () => {
    expect(() => runRateLimitStoreTests({ name: "x", store, windowMs: 50 })).toThrow(/windowMs must be an integer >= 100/)
  })
})

// A skipped case is listed as skipped with its reason; the check that every entry names a test passes.
runRateLimitStoreTests({
  name: "a correct Map store, one case skipped",
  store: () => mapStore(),
  windowMs: WINDOW_MS,
  skip: [{ name: "concurrent hits on different keys do not interfere", reason: "shown to run above" }],
})
