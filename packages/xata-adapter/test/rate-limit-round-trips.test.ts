/**
 * Round trips of `PostgresRateLimitStore` on a credentials sign-in with the default limits, counted
 * on the way out of the process, on the PostgreSQL server of the test run: one statement per hit,
 * and two per sign-in (the client's read, the identifier's counters and totals before `authorize`;
 * their reset after a success), where one per counter made nine.
 */
import { describe, expect, inject, test } from "vitest"
import { Auth, type AuthConfig } from "@authlib/core"
import { PostgresRateLimitStore } from "../src/index.js"
import { recordedSchema } from "./helpers/recorded-schema.js"

const ORIGIN = "http://localhost:3000"
const url = inject("databaseUrl")

describe.skipIf(url === null)("PostgresRateLimitStore round trips", () => {
  const { statements, client, schema } = recordedSchema(url!, "rate_limit_round_trips")

  const config = (): AuthConfig => ({
    secret: "test-secret-0123456789-abcdefghijklmnopqrstuvwxyz",
    trustHost: true,
    logger: { warn: () => {}, debug: () => {} },
    rateLimit: { store: PostgresRateLimitStore(client, { sweepIntervalMs: 3_600_000 }) },
    providers: [{ id: "credentials", name: "Credentials", type: "credentials", credentials: { username: {}, password: {} }, authorize: async (c) => (c.password === "right" ? { id: "ada", name: "Ada" } : null) }],
  })

  async function signIn(cfg: AuthConfig, password: string, cookie = "") {
    const address = { clientAddress: "203.0.113.7" }
    const csrf = await Auth(new Request(`${ORIGIN}/auth/csrf`), cfg, address)
    const { csrfToken } = (await csrf.json()) as { csrfToken: string }
    const jar = [cookie, ...csrf.headers.getSetCookie().map((c) => c.split(";")[0]!)].filter(Boolean).join("; ")
    statements.length = 0
    const res = await Auth(
      new Request(`${ORIGIN}/auth/callback/credentials`, {
        method: "POST",
        headers: { cookie: jar, origin: ORIGIN, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ csrfToken, username: `ada-${crypto.randomUUID()}`, password }),
      }),
      cfg,
      address,
    )
    return res
  }

  test("a successful sign-in: two statements (counters before authorize, their reset after)", async () => {
    const res = await signIn(config(), "right")
    expect(res.status).toBe(302)
    expect(statements).toHaveLength(2)
    expect(statements[0]).toMatch(/INSERT INTO authlib_rate_limits/)
    expect(statements[1]).toMatch(/DELETE FROM authlib_rate_limits/)
  })

  test("a failed sign-in: two statements (counters before authorize, the client's failure after)", async () => {
    const res = await signIn(config(), "wrong")
    expect(res.status).toBe(302)
    expect(res.headers.get("location")).toContain("error=CredentialsSignin")
    expect(statements).toHaveLength(2)
  })

  test("a single hit is one statement", async () => {
    const store = PostgresRateLimitStore(client, { sweepIntervalMs: 3_600_000 })
    // The first hit of a store object also starts its first sweep, in the background.
    await store.hit(`test:${crypto.randomUUID()}`, 60_000)
    await store.sweep()
    statements.length = 0
    await store.hit(`test:${crypto.randomUUID()}`, 60_000)
    expect(statements).toHaveLength(1)
  })
})
