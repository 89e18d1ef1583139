/**
 * The conformance suite of rate-limit stores (`RateLimitStore` of `@authlib/core`): what a store
 * shared by every instance of an app must do for core's limits to hold.
 */
import { beforeAll, describe, test } from "vitest"
import type { Awaitable, RateLimitStore } from "@authlib/core"
import { skipAwareRegistrar } from "./context.js"
import { rateLimitStoreCases } from "./rate-limit-cases.js"
import { rateLimitCombinedCases } from "./rate-limit-combined-cases.js"
import type { SkipTest } from "./types.js"

/** Options of `runRateLimitStoreTests`. */
export interface RateLimitStoreTestOptions {
  /** Names the store in the report: the tests are grouped under `rate-limit store: <name>`. */
  name: string
  /**
   * Returns the store under test. Called once, before the first test, so it can connect or create
   * its table first. The tests use keys of their own (random), so the store may hold other data.
   */
  store: () => Awaitable<RateLimitStore>
  /** Tests left out, each with the reason (as `skipTests` of `runBasicTests`; a name that matches no test fails the run). */
  skip?: readonly SkipTest[]
  /**
   * The short window, in milliseconds, of the tests that wait for a window to end (each of them
   * waits about this long). At least 100. Default 400.
   */
  windowMs?: number
}

/** The default short window: long enough for a database round trip, short enough to wait for. */
const DEFAULT_WINDOW_MS = 400

/**
 * Registers the rate-limit store suite with vitest: call it at the top level of a test file.
 *
 * - The first hit of a key counts 1 and opens a window of `windowMs` (`resetInMs` in
 *   `(0.75 * windowMs, windowMs]`); counts grow by one per hit, by `cost` for `cost > 1`; a hit
 *   inside a window does not move its end (fixed windows, not sliding ones).
 * - Keys are independent: a 512-character key and its 511- and 256-character prefixes, upper and
 *   lower case, non-ASCII text, quotes and SQL-like text, composed and decomposed accents.
 * - `cost` 0 reads the count without adding; on an unknown key (or one whose window has ended) it
 *   answers exactly `{ count: 0, resetInMs: windowMs }` and opens no window: the next hit opens it.
 * - `reset` forgets the key's count and window (and no other key's); resetting an unknown key does nothing.
 * - A window that has ended counts as none; concurrent hits on such a key start exactly one new window.
 * - 200 concurrent hits on one key answer the counts 1..200, each once; concurrent hits on
 *   different keys do not interfere.
 * - A store with the optional combined operations (`hitEach`, `resetEach`): steps counted in
 *   order, nothing after the first over its limit, reads that count nothing, every named key reset,
 *   exact under concurrency, and attempts and resets sharing counters never wait on each other.
 *
 * Throws at once when a `skip` entry lacks a reason or `windowMs` is below 100.
 *
 * @example
 * ```ts
 * // test/rate-limit-store.test.ts (vitest)
 * import { runRateLimitStoreTests } from "@authlib/adapter-test"
 * runRateLimitStoreTests({ name: "redis", store: async () => new RedisRateLimitStore(await connect()) })
 * ```
 */
export function runRateLimitStoreTests(options: RateLimitStoreTestOptions): void {
  const windowMs = options.windowMs ?? DEFAULT_WINDOW_MS
  if (!Number.isInteger(windowMs) || windowMs < 100) {
    throw new TypeError(`windowMs must be an integer >= 100, got ${windowMs}`)
  }
  const registry = skipAwareRegistrar(options.skip ?? [], undefined, "skip")
  describe(`rate-limit store: ${options.name}`, () => {
    let store: RateLimitStore | undefined
    beforeAll(async () => {
      store = await options.store()
    })
    for (const { name, run } of [...rateLimitStoreCases(windowMs), ...rateLimitCombinedCases()]) {
      registry.test(name, async () => {
        if (!store) throw new Error("the store getter did not run (or failed): see the error of beforeAll")
        await run(store)
      })
    }
    test("every skip entry names a test of the suite", () => registry.assertSkipsUsed())
  })
}
