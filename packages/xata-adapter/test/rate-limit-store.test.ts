/**
 * `PostgresRateLimitStore` on PGlite and through the real `@xata.io/client` against our emulation of
 * Xata's SQL endpoint (both on one PGlite: tests use keys of their own), with what the conformance
 * suite cannot see: keys are stored hashed, reads create no row, the sweep of ended windows runs at
 * most once per interval, never fails a hit, and deletes a bounded number of rows.
 */
import { createHash } from "node:crypto"
import { PGlite } from "@electric-sql/pglite"
import { afterAll, describe, expect, test } from "vitest"
import { runRateLimitStoreTests } from "@authlib/adapter-test"
import { PostgresRateLimitStore, migrate, type PGliteLike } from "../src/index.js"
import { hashRateLimitKey } from "../src/rate-limit-store.js"
import { XataClient } from "../src/xata-client.js"
import { startXataEmulation } from "./helpers/xata-emulation.js"

// One PGlite per file: starting one takes seconds.
const pglite = new PGlite()
const migrated = migrate(pglite)
const emulation = await startXataEmulation(pglite)
afterAll(async () => {
  await emulation.close()
  await pglite.close()
})

const quiet = { error: () => {} }
const LONG = 60_000
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))
const rows = async (sql: string, params: unknown[] = []) => (await pglite.query<Record<string, unknown>>(sql, params)).rows
const stored = async (key: string) => rows(`SELECT count, reset_at FROM authlib_rate_limits WHERE key = $1`, [await hashRateLimitKey(key)])

/** Polls `check` until it holds, for at most `ms`. */
async function eventually(check: () => Promise<boolean>, ms = 3000): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await sleep(25)) if (await check()) return true
  return check()
}

runRateLimitStoreTests({
  name: "PostgresRateLimitStore on PGlite",
  store: async () => (await migrated, PostgresRateLimitStore(pglite, { logger: quiet })),
})

runRateLimitStoreTests({
  name: "PostgresRateLimitStore through @xata.io/client (emulated SQL endpoint)",
  store: async () => {
    await migrated
    const xata = new XataClient({ databaseURL: emulation.databaseURL, apiKey: emulation.apiKey, branch: "main" })
    return PostgresRateLimitStore(xata, { logger: quiet })
  },
})

describe("PostgresRateLimitStore on PGlite", () => {
  test("a key is stored as its hex SHA-256, never in clear", async () => {
    await migrated
    const key = `signin:email:ada.${crypto.randomUUID()}@example.com`
    await PostgresRateLimitStore(pglite, { logger: quiet }).hit(key, LONG)
    const hash = createHash("sha256").update(key).digest("hex")
    expect(await hashRateLimitKey(key)).toBe(hash)
    expect(await rows(`SELECT key, count FROM authlib_rate_limits WHERE key = $1`, [hash])).toStrictEqual([{ key: hash, count: 1 }])
    const local = key.split(":")[2]!.split("@")[0]!
    expect(await rows(`SELECT key FROM authlib_rate_limits WHERE strpos(key || count::text || reset_at::text, $1) > 0`, [local])).toStrictEqual([])
  })

  test("a read (cost 0) of an unknown key creates no row; a hit creates one", async () => {
    await migrated
    const store = PostgresRateLimitStore(pglite, { logger: quiet })
    const key = `read:${crypto.randomUUID()}`
    expect(await store.hit(key, LONG, 0)).toStrictEqual({ count: 0, resetInMs: LONG })
    expect(await stored(key)).toStrictEqual([])
    await store.hit(key, LONG, 2)
    expect(await stored(key)).toMatchObject([{ count: 2 }])
  })

  test("ended windows are swept by the first hit after the interval, at most once per interval, open ones kept", async () => {
    await migrated
    let sweeps = 0
    const counting: PGliteLike = {
      query: (sql, params) => ((sweeps += sql.includes("WITH swept") ? 1 : 0), pglite.query(sql, params)),
      exec: (sql) => pglite.exec(sql),
      waitReady: pglite.waitReady,
    }
    // An interval long enough that a loaded machine (CI runs two suites at once) cannot pass it by
    // accident between the hits that must fall inside it.
    const store = PostgresRateLimitStore(counting, { sweepIntervalMs: 1_500, logger: quiet })
    const [open, ended] = [`open:${crypto.randomUUID()}`, `ended:${crypto.randomUUID()}`]
    await store.hit(open, LONG) // the store's first hit: sweeps, and the interval starts (at the latest) now
    const started = Date.now()
    await store.hit(ended, 100)
    await sleep(200)
    await store.hit(open, LONG) // within the interval: no sweep
    await sleep(50)
    expect(sweeps).toBe(1)
    expect(await stored(ended)).toHaveLength(1)
    await sleep(Math.max(0, 1_550 - (Date.now() - started)))
    await store.hit(open, LONG) // the interval has passed: this hit starts a sweep
    expect(sweeps).toBe(2)
    expect(await eventually(async () => (await stored(ended)).length === 0)).toBe(true)
    expect(await stored(open)).toMatchObject([{ count: 3 }])
  })

  test("sweep() deletes at most sweepLimit ended windows per call", async () => {
    await migrated
    const store = PostgresRateLimitStore(pglite, { sweepLimit: 2, logger: quiet })
    const hashes = await Promise.all(Array.from({ length: 5 }, () => hashRateLimitKey(crypto.randomUUID())))
    for (const hash of hashes) {
      await rows(`INSERT INTO authlib_rate_limits (key, count, reset_at) VALUES ($1, 3, now() - interval '1 minute')`, [hash])
    }
    const left = async () => (await rows(`SELECT key FROM authlib_rate_limits WHERE key = ANY($1)`, [hashes])).length
    expect(await store.sweep()).toBe(2)
    expect(await left()).toBeLessThanOrEqual(3)
    while ((await store.sweep()) > 0);
    expect(await left()).toBe(0)
  })

  test("a failed sweep is logged and never fails the hit that started it", async () => {
    await migrated
    const failing: PGliteLike = {
      query: (sql, params) => (sql.includes("WITH swept") ? Promise.reject(new Error("sweep refused")) : pglite.query(sql, params)),
      exec: (sql) => pglite.exec(sql),
      waitReady: pglite.waitReady,
    }
    let report: (args: unknown[]) => void = () => {}
    const logged = new Promise<unknown[]>((resolve) => (report = resolve))
    const store = PostgresRateLimitStore(failing, { logger: { error: (...args) => report(args) } })
    expect(await store.hit(`failing:${crypto.randomUUID()}`, LONG)).toStrictEqual({ count: 1, resetInMs: LONG })
    const [code, error] = await logged
    expect(code).toBe("XataAdapterError")
    expect(error).toMatchObject({ type: "XataAdapterError", code: "QUERY_FAILED", message: "sweep refused" })
  })

  test("bad arguments are INVALID_INPUT before any query; a missing table is SCHEMA_MISSING", async () => {
    await migrated
    const store = PostgresRateLimitStore(pglite, { logger: quiet })
    for (const [windowMs, cost] of [[0, 1], [Number.NaN, 1], [2 ** 31, 1], [1000, -1], [1000, 1.5]] as const) {
      await expect(store.hit("k", windowMs, cost)).rejects.toMatchObject({ type: "XataAdapterError", code: "INVALID_INPUT" })
    }
    expect(() => PostgresRateLimitStore(pglite, { sweepIntervalMs: 0 })).toThrow(expect.objectContaining({ code: "INVALID_INPUT" }))
    const renamed: PGliteLike = {
      query: (sql, params) => pglite.query(sql.replaceAll("authlib_rate_limits", "authlib_rate_limits_missing"), params),
      exec: (sql) => pglite.exec(sql),
      waitReady: pglite.waitReady,
    }
    await expect(PostgresRateLimitStore(renamed, { logger: quiet }).hit("k", LONG)).rejects.toMatchObject({
      code: "SCHEMA_MISSING",
      message: /run migrate\(\)/,
    })
  })
})
