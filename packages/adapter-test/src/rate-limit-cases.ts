/**
 * The cases of the rate-limit store suite, as plain functions of a store, so that this package's
 * own tests can run each of them against a store broken on purpose and see it fail.
 */
import { expect } from "vitest"
import type { RateLimitHit, RateLimitStore } from "@authlib/core"

/** One case: its test name and what it runs against a store. */
export interface RateLimitCase {
  name: string
  run(store: RateLimitStore): Promise<void>
}

/** A window long enough never to end during a test. */
const LONG = 60_000
/** Hits of the concurrency tests, as the contract's issue names them. */
const CONCURRENT_HITS = 200

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/** A key no other test (or earlier run on the same store) uses, shaped like core's. */
const freshKey = (label: string) => `test:${label}:${crypto.randomUUID()}`

/** Starts `count` calls at once (none waits for another) and resolves with their answers in call order. */
function together<T>(count: number, call: (index: number) => PromiseLike<T> | T): Promise<T[]> {
  return Promise.all(Array.from({ length: count }, (_, i) => Promise.resolve().then(() => call(i))))
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i + 1)
const sortedCounts = (hits: readonly RateLimitHit[]) => hits.map((h) => h.count).sort((a, b) => a - b)

/** A hit that opened a window of `windowMs` just now: `resetInMs` close to the whole window. */
function expectFreshWindow(hit: RateLimitHit, count: number, windowMs: number): void {
  expect(hit.count).toBe(count)
  expect(hit.resetInMs).toBeGreaterThan(windowMs * 0.75)
  expect(hit.resetInMs).toBeLessThanOrEqual(windowMs)
}

function countingCases(): RateLimitCase[] {
  return [
    {
      name: "the first hit of a key counts 1 and its window ends within windowMs",
      async run(store) {
        expectFreshWindow(await store.hit(freshKey("first"), LONG), 1, LONG)
        expectFreshWindow(await store.hit(freshKey("first-short"), 1000), 1, 1000)
      },
    },
    {
      name: "counts grow by one per hit within a window",
      async run(store) {
        const key = freshKey("grow")
        const counts: number[] = []
        for (let i = 0; i < 5; i++) {
          const hit = await store.hit(key, LONG)
          expect(hit.resetInMs).toBeGreaterThan(0)
          expect(hit.resetInMs).toBeLessThanOrEqual(LONG)
          counts.push(hit.count)
        }
        expect(counts).toStrictEqual([1, 2, 3, 4, 5])
      },
    },
    {
      name: "a hit inside a window does not move its end (fixed windows)",
      async run(store) {
        const key = freshKey("fixed")
        const first = await store.hit(key, LONG)
        await sleep(150)
        const second = await store.hit(key, LONG)
        expect(second.count).toBe(2)
        expect(second.resetInMs).toBeLessThanOrEqual(first.resetInMs - 100)
      },
    },
    {
      name: "cost > 1 adds that many hits",
      async run(store) {
        const key = freshKey("cost")
        expectFreshWindow(await store.hit(key, LONG, 5), 5, LONG)
        expect((await store.hit(key, LONG)).count).toBe(6)
        expect((await store.hit(key, LONG, 3)).count).toBe(9)
        expect((await store.hit(key, LONG, 0)).count).toBe(9)
      },
    },
  ]
}

function keyCases(): RateLimitCase[] {
  return [
    {
      name: "keys are independent (512 characters, its prefixes, non-ASCII and quotes)",
      async run(store) {
        const base = freshKey("keys")
        const long = base.padEnd(512, "k")
        const keys = [
          base,
          `${base}:`,
          base.toUpperCase(),
          long,
          long.slice(0, 511),
          long.slice(0, 256),
          `${base}:'ö"\\ 日本語 🔑 %_*; DROP TABLE x; --`,
          `${base}:\u00e9`, // é composed
          `${base}:e\u0301`, // é decomposed: another string, another key
        ]
        expect(long).toHaveLength(512)
        // Key i gets i + 1 hits, interleaved with the others.
        for (let round = 0; round < keys.length; round++) {
          for (let i = round; i < keys.length; i++) expect((await store.hit(keys[i]!, LONG)).count).toBe(round + 1)
        }
        for (const [i, key] of keys.entries()) expect((await store.hit(key, LONG, 0)).count).toBe(i + 1)
      },
    },
    {
      name: "reset forgets the key's count and window, and only that key's",
      async run(store) {
        const key = freshKey("reset")
        const other = freshKey("reset-other")
        for (let i = 0; i < 3; i++) await store.hit(key, LONG)
        await store.hit(other, LONG)
        await store.hit(other, LONG)
        await sleep(100)
        await store.reset(key)
        expect(await store.hit(key, LONG, 0)).toStrictEqual({ count: 0, resetInMs: LONG })
        expectFreshWindow(await store.hit(key, LONG), 1, LONG)
        expect((await store.hit(other, LONG, 0)).count).toBe(2)
      },
    },
    {
      name: "reset of an unknown key does nothing",
      async run(store) {
        const key = freshKey("reset-unknown")
        await store.reset(key)
        expect(await store.hit(key, LONG, 0)).toStrictEqual({ count: 0, resetInMs: LONG })
        expectFreshWindow(await store.hit(key, LONG), 1, LONG)
      },
    },
  ]
}

function readCases(windowMs: number): RateLimitCase[] {
  return [
    {
      name: "cost 0 reads the count without adding to it",
      async run(store) {
        const key = freshKey("read")
        await store.hit(key, LONG)
        const second = await store.hit(key, LONG)
        for (let i = 0; i < 3; i++) {
          const read = await store.hit(key, LONG, 0)
          expect(read.count).toBe(2)
          expect(read.resetInMs).toBeGreaterThan(0)
          expect(read.resetInMs).toBeLessThanOrEqual(second.resetInMs)
        }
        expect((await store.hit(key, LONG)).count).toBe(3)
      },
    },
    {
      name: "cost 0 on an unknown key answers { count: 0, resetInMs: windowMs } and opens no window",
      async run(store) {
        for (let attempt = 1; ; attempt++) {
          const key = freshKey("read-unknown")
          const started = Date.now()
          expect(await store.hit(key, windowMs, 0)).toStrictEqual({ count: 0, resetInMs: windowMs })
          await sleep(windowMs / 2)
          // On a loaded machine the pause can outlast the window and hide one the read opened: again.
          if (Date.now() - started >= windowMs * 0.9 && attempt < 5) continue
          expect(await store.hit(key, windowMs, 0)).toStrictEqual({ count: 0, resetInMs: windowMs })
          // Had the reads opened a window, it would now be half over.
          expectFreshWindow(await store.hit(key, windowMs), 1, windowMs)
          return
        }
      },
    },
  ]
}

function windowEndCases(windowMs: number): RateLimitCase[] {
  return [
    {
      name: "a window that has ended counts as none and the next hit starts a new one",
      async run(store) {
        const key = freshKey("ended")
        await store.hit(key, windowMs)
        expect((await store.hit(key, windowMs)).count).toBe(2)
        await sleep(windowMs + 100)
        expect(await store.hit(key, windowMs, 0)).toStrictEqual({ count: 0, resetInMs: windowMs })
        expectFreshWindow(await store.hit(key, windowMs), 1, windowMs)
        expect((await store.hit(key, windowMs)).count).toBe(2)
      },
    },
    {
      name: "concurrent hits on a key whose window has ended start exactly one new window",
      async run(store) {
        const key = freshKey("ended-concurrent")
        for (let i = 0; i < 3; i++) await store.hit(key, windowMs)
        await sleep(windowMs + 100)
        const hits = await together(50, () => store.hit(key, LONG))
        expect(sortedCounts(hits)).toStrictEqual(range(50))
      },
    },
  ]
}

function concurrencyCases(): RateLimitCase[] {
  return [
    {
      name: `${CONCURRENT_HITS} concurrent hits on one key answer the counts 1..${CONCURRENT_HITS}, each once`,
      async run(store) {
        const key = freshKey("concurrent")
        const hits = await together(CONCURRENT_HITS, () => store.hit(key, LONG))
        expect(sortedCounts(hits)).toStrictEqual(range(CONCURRENT_HITS))
        expect((await store.hit(key, LONG, 0)).count).toBe(CONCURRENT_HITS)
      },
    },
    {
      name: "concurrent hits on different keys do not interfere",
      async run(store) {
        const keys = Array.from({ length: 8 }, (_, i) => freshKey(`concurrent-${i}`))
        const perKey = CONCURRENT_HITS / keys.length
        const hits = await together(CONCURRENT_HITS, (i) => store.hit(keys[i % keys.length]!, LONG))
        for (const [k, key] of keys.entries()) {
          expect(sortedCounts(hits.filter((_, i) => i % keys.length === k)), key).toStrictEqual(range(perKey))
        }
      },
    },
  ]
}

/**
 * Every case, in the order they are registered. `windowMs` is the short window of the cases that
 * wait for a window to end (each waits about `windowMs`).
 */
export function rateLimitStoreCases(windowMs: number): RateLimitCase[] {
  return [...countingCases(), ...keyCases(), ...readCases(windowMs), ...windowEndCases(windowMs), ...concurrencyCases()]
}
