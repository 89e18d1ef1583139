/**
 * `PostgresRateLimitStore` on the PostgreSQL server of the test run: the conformance suite through a
 * node-postgres pool (hits really run on separate connections), and two Node processes, each with
 * its own pool and store, hitting one key of one database at the same moment, as two instances of
 * an app behind a load balancer would.
 */
import { afterAll, beforeAll, describe, expect, inject, test } from "vitest"
import { runRateLimitStoreTests } from "@authlib/adapter-test"
import { PostgresRateLimitStore, migrate } from "../src/index.js"
import { pgSchema } from "@authlib/e2e-kit/pg-schema"
import { startScript, type ChildScript } from "./helpers/child-script.js"

const url = inject("databaseUrl")

/** Starts a child script of `test/helpers/` (TypeScript through tsx, on the package's sources). */
function startChild(databaseUrl: string, key: string, hits: number): ChildScript<number[]> {
  return startScript("rate-limit-child.ts", [databaseUrl, key, String(hits)])
}

/** What an app instance of `helpers/rate-limit-auth-child.ts` reports. */
interface AuthReport {
  reached: number
  refused: number
  other: number[]
}

if (url === null) {
  test.skip("PostgreSQL server: no DATABASE_URL and no PostgreSQL binaries (see the warning above)", () => {})
} else {
  const schema = pgSchema(url, "rate_limits")
  const ready = (async () => {
    await schema.create()
    await migrate(schema.pool)
  })()
  afterAll(async () => {
    await ready
    await schema.drop()
  })

  runRateLimitStoreTests({
    name: "PostgresRateLimitStore on a PostgreSQL server (node-postgres pool)",
    store: async () => (await ready, PostgresRateLimitStore(schema.pool, { logger: { error: () => {} } })),
  })

  describe("two Node processes sharing one database", () => {
    beforeAll(() => ready)

    test("200 concurrent hits on one key from two processes: the counts 1..200 each once, exactly 10 within a limit of 10", async () => {
      const key = `signin:email:${crypto.randomUUID()}@example.com`
      const children = [startChild(schema.url, key, 100), startChild(schema.url, key, 100)]
      await Promise.all(children.map((c) => c.ready))
      for (const child of children) child.go()
      const [first, second] = await Promise.all(children.map((c) => c.result))
      const counts = [...first!, ...second!]
      expect(first).toHaveLength(100)
      expect(second).toHaveLength(100)
      expect([...counts].sort((a, b) => a - b)).toStrictEqual(Array.from({ length: 200 }, (_, i) => i + 1))
      expect(counts.filter((count) => count <= 10)).toHaveLength(10)
      const store = PostgresRateLimitStore(schema.pool, { logger: { error: () => {} } })
      expect((await store.hit(key, 60_000, 0)).count).toBe(200)
    }, 60_000)
  })

  describe("two app instances (Auth() in two Node processes) sharing the store", () => {
    beforeAll(() => ready)

    for (const mode of ["credentials", "email"] as const) {
      test(`${mode}: 200 concurrent attempts for one identifier against a limit of 10 reach ${mode === "credentials" ? "authorize" : "the mailer"} exactly 10 times`, async () => {
        const identifier = `${crypto.randomUUID()}@example.com`
        const children = [0, 1].map(() => startScript<AuthReport>("rate-limit-auth-child.ts", [schema.url, mode, identifier, "100"]))
        await Promise.all(children.map((c) => c.ready))
        for (const child of children) child.go()
        const reports = await Promise.all(children.map((c) => c.result))
        expect(reports.flatMap((r) => r.other)).toEqual([])
        expect(reports.reduce((n, r) => n + r.reached, 0)).toBe(10)
        expect(reports.reduce((n, r) => n + r.refused, 0)).toBe(190)
      }, 60_000)
    }
  })
}
