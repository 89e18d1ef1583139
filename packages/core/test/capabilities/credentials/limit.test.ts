/**
 * Credentials sign-in under the rate limits, through `Auth()`: attempts per identifier (counted
 * before `authorize`, cleared by a success, a growing but bounded wait), failures per client, the
 * 429 answer in its three forms, and what an attacker could try to make of it.
 */
import { describe, expect, it } from "vitest"
import { Client, config, credentials, ORIGIN, recordingLogger } from "../../helpers/harness.js"
import { Auth, MemoryRateLimitStore, raw, RateLimited, type AuthConfig, type RateLimitOptions } from "../../../src/index.js"

/** A clock the test moves. */
function clock(start = Date.UTC(2026, 10, 24, 12)) {
  let now = start
  return { now: () => now, advance: (seconds: number) => void (now += seconds * 1000) }
}

/** A config whose authorize calls are counted: alice / wonderland signs in, anything else fails. */
function counted(rateLimit: RateLimitOptions | false = {}, over: Partial<AuthConfig> = {}) {
  const calls: Array<Record<string, unknown>> = []
  const time = clock()
  const { logger, entries } = recordingLogger()
  const store = new MemoryRateLimitStore({ now: time.now })
  const cfg = config({
    logger,
    providers: [credentials({ authorize: (c) => (calls.push(c), c.username === "alice" && c.password === "wonderland" ? { id: "user-1", email: "alice@example.com" } : null) })],
    rateLimit: rateLimit === false ? false : { store, ...rateLimit },
    ...over,
  })
  return { cfg, calls, time, entries, store }
}

const WRONG = "not-the-password"

describe("credentials: attempts per identifier", () => {
  it("the 6th attempt within a minute is refused before authorize runs: 429, Retry-After, the error page", async () => {
    const { cfg, calls } = counted({ credentials: { perClient: false } })
    const client = new Client(cfg, ORIGIN, "203.0.113.7")
    for (let i = 0; i < 5; i++) expect((await client.signIn("alice", WRONG)).status).toBe(302)
    const res = await client.signIn("alice", WRONG)
    expect(calls).toHaveLength(5)
    expect(res.status).toBe(429)
    const retryAfter = Number(res.headers.get("retry-after"))
    expect(retryAfter).toBeGreaterThan(0)
    expect(retryAfter).toBeLessThanOrEqual(60)
    expect(res.headers.get("content-type")).toContain("text/html")
    const html = await res.text()
    expect(html).toContain("Too many attempts")
    expect(html).toMatch(/try again in \d+ seconds/)
    expect(html).not.toContain("alice")
  })

  it("the right password is refused too while the identifier waits (the limit does not look at the answer)", async () => {
    const { cfg, calls } = counted({ credentials: { perClient: false } })
    const client = new Client(cfg)
    for (let i = 0; i < 5; i++) await client.signIn("alice", WRONG)
    expect((await client.signIn("alice", "wonderland")).status).toBe(429)
    expect(calls).toHaveLength(5)
  })

  it("spellings that differ by case, surrounding space or Unicode form share one counter", async () => {
    const { cfg, calls } = counted({ credentials: { perClient: false } })
    const client = new Client(cfg)
    // Full-width letters and the "ﬀ"-style compatibility forms fold under NFKC.
    for (const name of ["Alice", " alice ", "ALICE", "ａｌｉｃｅ", "alice"]) await client.signIn(name, WRONG)
    expect((await client.signIn("aLiCe", WRONG)).status).toBe(429)
    expect(calls).toHaveLength(5)
  })

  it("a successful sign-in forgets the identifier's attempts", async () => {
    const { cfg, calls } = counted({ credentials: { perClient: false } })
    const client = new Client(cfg)
    for (let i = 0; i < 4; i++) await client.signIn("alice", WRONG)
    expect((await client.signIn()).status).toBe(302)
    for (let i = 0; i < 5; i++) expect((await client.signIn("alice", WRONG)).status).toBe(302)
    expect((await client.signIn("alice", WRONG)).status).toBe(429)
    expect(calls).toHaveLength(10)
  })

  it("the wait grows with repeated failures (a minute, then up to an hour) and always ends", async () => {
    const { cfg, time } = counted({ credentials: { perClient: false } })
    const client = new Client(cfg)
    const waits: number[] = []
    let passed = 0
    // Someone guessing as fast as allowed for two hours.
    for (let minute = 0; minute < 120; minute++) {
      for (let i = 0; i < 6; i++) {
        const res = await client.signIn("alice", WRONG)
        if (res.status === 429) {
          waits.push(Number(res.headers.get("retry-after")))
          break
        }
        passed++
      }
      time.advance(60)
    }
    // First hour: 20 attempts (5 per minute for 4 minutes), then a wait up to the end of the hour.
    expect(Math.max(...waits)).toBeGreaterThan(60 * 50)
    expect(Math.max(...waits)).toBeLessThanOrEqual(3600)
    // 20 per hour: attempts refused by the minute's rule do not count against the hour's.
    expect(passed).toBe(40)
    // After the waits, the right password works: the account was slowed, never disabled.
    time.advance(3600)
    expect((await client.signIn()).status).toBe(302)
  })

  it("at a window's edge: the last millisecond still counts in the window, the next one starts a new one", async () => {
    const { cfg, time } = counted({ credentials: { perClient: false, perIdentifier: { limit: 2, window: 10 } } })
    const client = new Client(cfg)
    await client.signIn("alice", WRONG)
    await client.signIn("alice", WRONG)
    time.advance(9.999)
    const edge = await client.signIn("alice", WRONG)
    expect(edge.status).toBe(429)
    expect(edge.headers.get("retry-after")).toBe("1")
    time.advance(0.001)
    expect((await client.signIn("alice", WRONG)).status).toBe(302)
  })

  it("200 concurrent attempts for one identifier against a limit of 10 reach authorize exactly 10 times", async () => {
    const { cfg, calls } = counted({ credentials: { perClient: false, perIdentifier: { limit: 10, window: 60 } } })
    const client = new Client(cfg)
    const csrfToken = await client.csrfToken()
    const results = await Promise.all(
      Array.from({ length: 200 }, () => client.request("/auth/callback/credentials", { method: "POST", form: { csrfToken, username: "alice", password: WRONG } })),
    )
    expect(calls).toHaveLength(10)
    expect(results.filter((r) => r.status === 429)).toHaveLength(190)
  })

  it("the answer is the same whether or not the account exists", async () => {
    const { cfg } = counted({ credentials: { perClient: false } })
    const client = new Client(cfg)
    const answers: string[] = []
    for (const name of ["alice", "nobody-here"]) {
      for (let i = 0; i < 5; i++) await client.signIn(name, WRONG)
      const res = await client.signIn(name, WRONG)
      answers.push(`${res.status} ${res.headers.get("retry-after")} ${await res.text()}`)
    }
    expect(answers[0]).toBe(answers[1])
  })

  it("the log says which limit was reached, never the identifier or the address", async () => {
    const { cfg, entries } = counted({ credentials: { perClient: false } })
    const client = new Client(cfg, ORIGIN, "198.51.100.23")
    for (let i = 0; i < 6; i++) await client.signIn("alice@example.com", WRONG)
    const warning = entries.find((e) => e.code === "rate-limited")!
    expect(warning.level).toBe("warn")
    const text = JSON.stringify(warning.message)
    expect(text).toContain("credentials.perIdentifier")
    expect(text).not.toContain("alice")
    expect(text).not.toContain("198.51.100.23")
  })

  it("rateLimit.credentials.identifier picks the field to count", async () => {
    const { cfg, calls } = counted({ credentials: { perClient: false, identifier: (c) => String(c.account ?? "") } })
    const client = new Client(cfg)
    for (let i = 0; i < 5; i++) await client.post("/auth/callback/credentials", { account: "team-1", username: `user-${i}`, password: WRONG })
    expect((await client.post("/auth/callback/credentials", { account: "TEAM-1", username: "other", password: WRONG })).status).toBe(429)
    expect(calls).toHaveLength(5)
  })

  it("without an identifier field, the first declared non-password field is counted", async () => {
    const calls: unknown[] = []
    const cfg = config({
      providers: [credentials({ credentials: { badge: { label: "Badge" }, pin: { label: "PIN", type: "password" } }, authorize: (c) => (calls.push(c), null) })],
      rateLimit: { store: new MemoryRateLimitStore(), credentials: { perClient: false } },
    })
    const client = new Client(cfg)
    for (let i = 0; i < 5; i++) await client.post("/auth/callback/credentials", { badge: "B-17", pin: `${i}` })
    expect((await client.post("/auth/callback/credentials", { badge: "b-17", pin: "9" })).status).toBe(429)
    expect(calls).toHaveLength(5)
  })
})

describe("credentials: failures per client", () => {
  it("30 failures across identifiers from one client: the next attempt from it is refused; another client is not", async () => {
    const { cfg, calls } = counted()
    const attacker = new Client(cfg, ORIGIN, "203.0.113.50")
    for (let i = 0; i < 30; i++) expect((await attacker.signIn(`victim-${i}`, WRONG)).status).toBe(302)
    expect((await attacker.signIn("victim-new", WRONG)).status).toBe(429)
    expect(calls).toHaveLength(30)
    const someoneElse = new Client(cfg, ORIGIN, "203.0.113.51")
    expect((await someoneElse.signIn()).status).toBe(302)
  })

  it("successful sign-ins from one address (an office behind one NAT) never count against it", async () => {
    const { cfg } = counted({ credentials: { perIdentifier: false, perClient: { limit: 3, window: 600 } } })
    for (let i = 0; i < 20; i++) expect((await new Client(cfg, ORIGIN, "192.0.2.1").signIn()).status).toBe(302)
  })

  it("a spoofed X-Forwarded-For does not move a client off its counter when no proxy is declared", async () => {
    const { cfg } = counted({ credentials: { perIdentifier: false, perClient: { limit: 3, window: 600 } } })
    const client = new Client(cfg, ORIGIN, "203.0.113.9")
    for (let i = 0; i < 3; i++) await client.signIn(`u${i}`, WRONG, {})
    const spoofed = await client.request("/auth/callback/credentials", {
      method: "POST",
      headers: { "x-forwarded-for": "198.51.100.1", forwarded: "for=198.51.100.2" },
      form: { csrfToken: await client.csrfToken(), username: "u9", password: WRONG },
    })
    expect(spoofed.status).toBe(429)
  })

  it("behind one declared proxy, the client is the address the proxy appended, whatever the client prepended", async () => {
    const { cfg } = counted({ trustedProxies: 1, credentials: { perIdentifier: false, perClient: { limit: 3, window: 600 } } })
    const proxy = new Client(cfg, ORIGIN, "10.0.0.2")
    const post = async (xff: string) =>
      proxy.request("/auth/callback/credentials", { method: "POST", headers: { "x-forwarded-for": xff }, form: { csrfToken: await proxy.csrfToken(), username: "x", password: WRONG } })
    // The attacker (203.0.113.66) rotates what it claims; the proxy appends its real address.
    for (let i = 0; i < 3; i++) expect((await post(`198.51.100.${i}, 203.0.113.66`)).status).toBe(302)
    expect((await post("192.0.2.200, 203.0.113.66")).status).toBe(429)
    // The addresses it claimed were never charged: their owners sign in freely.
    expect((await post("203.0.113.67")).status).toBe(302)
    expect((await post("198.51.100.0")).status).toBe(302)
  })

  it("behind a declared proxy, each forwarded network keeps its own counter for an identifier, though every request comes from one peer", async () => {
    const { cfg, calls } = counted({ trustedProxies: 1 })
    const proxy = new Client(cfg, ORIGIN, "10.0.0.2")
    const post = async (xff: string, password = WRONG) =>
      proxy.request("/auth/callback/credentials", { method: "POST", headers: { "x-forwarded-for": xff }, form: { csrfToken: await proxy.csrfToken(), username: "alice", password } })
    for (let i = 0; i < 5; i++) expect((await post("203.0.113.66")).status).toBe(302)
    expect((await post("203.0.113.66", "wonderland")).status).toBe(429)
    // Alice on another network, through the same proxy, is not held by the guesses from the first.
    expect((await post("198.51.100.7", "wonderland")).headers.get("location")).toBe(`${ORIGIN}/`)
    expect(calls).toHaveLength(6)
  })

  it("without any client address, per-client limits are skipped (said once in the log) and per-identifier limits still apply", async () => {
    const { cfg, entries, calls } = counted()
    const client = new Client(cfg)
    for (let i = 0; i < 40; i++) await client.signIn(`u${i}`, WRONG)
    expect(calls).toHaveLength(40)
    expect(entries.filter((e) => e.code === "rate-limit-client-unknown").length).toBeLessThanOrEqual(1)
    for (let i = 0; i < 5; i++) await client.signIn("alice", WRONG)
    expect((await client.signIn("alice", WRONG)).status).toBe(429)
  })
})

describe("credentials: the 429 answer", () => {
  it("a script caller (X-Auth-Return-Redirect: 1) gets JSON with the error page's URL", async () => {
    const { cfg } = counted({ credentials: { perClient: false, perIdentifier: { limit: 0, window: 60 } } })
    const client = new Client(cfg)
    const csrfToken = await client.csrfToken()
    const res = await client.request("/auth/callback/credentials", { method: "POST", headers: { "x-auth-return-redirect": "1" }, form: { csrfToken, username: "a", password: "b" } })
    expect(res.status).toBe(429)
    expect(res.headers.get("retry-after")).toBe("60")
    expect(await res.json()).toEqual({ url: `${ORIGIN}/auth/error?error=RateLimited&code=LIMIT_REACHED`, error: "RateLimited", code: "LIMIT_REACHED", retryAfter: 60 })
  })

  it("with pages.error, the browser is sent there with error=RateLimited", async () => {
    const { cfg } = counted({ credentials: { perClient: false, perIdentifier: { limit: 0, window: 60 } } }, { pages: { error: "/oops" } })
    const res = await new Client(cfg).signIn("a", "b")
    expect(res.status).toBe(302)
    expect(res.headers.get("location")).toBe(`${ORIGIN}/oops?error=RateLimited&code=LIMIT_REACHED`)
    expect(res.headers.get("retry-after")).toBe("60")
  })

  it("raw callers (bindings) receive the RateLimited error with retryAfter", async () => {
    const { cfg } = counted({ credentials: { perClient: false, perIdentifier: { limit: 0, window: 120 } } })
    const client = new Client(cfg)
    const csrfToken = await client.csrfToken()
    const request = new Request(`${ORIGIN}/auth/callback/credentials`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: ORIGIN, cookie: [...client.jar].map(([k, v]) => `${k}=${v}`).join("; ") },
      body: new URLSearchParams({ csrfToken, username: "a", password: "b" }),
    })
    const err = await Auth(request, { ...cfg, raw }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(RateLimited)
    expect((err as RateLimited).retryAfter).toBe(120)
    expect((err as RateLimited).status).toBe(429)
  })
})

describe("credentials: a failing store", () => {
  /** A store that fails for the credentials counters only (the CSRF token before them is minted). */
  function failing(fail: () => never | Promise<never>) {
    const memory = new MemoryRateLimitStore()
    return {
      hit: (key: string, windowMs: number, cost?: number) => (key.startsWith("credentials.") ? fail() : memory.hit(key, windowMs, cost)),
      reset: (key: string) => (key.startsWith("credentials.") ? fail() : memory.reset(key)),
    }
  }
  const broken = failing(() => Promise.reject(new Error("store down")))

  it("fails closed by default: 503 error page, the error logged, authorize never called", async () => {
    const { cfg, calls, entries } = counted({ store: broken })
    const res = await new Client(cfg, ORIGIN, "192.0.2.4").signIn()
    expect(res.status).toBe(503)
    expect(res.headers.get("retry-after")).toBe("30")
    const html = await res.text()
    expect(html).toContain("Sign-in unavailable")
    expect(html).not.toContain("store down")
    expect(calls).toHaveLength(0)
    expect(entries.some((e) => e.level === "error" && String((e.message[0] as Error)?.message ?? e.message[0]).includes("store down"))).toBe(true)
  })

  it("failOpen: true lets the attempt through and logs the error", async () => {
    const { cfg, calls, entries } = counted({ store: broken, failOpen: true })
    expect((await new Client(cfg, ORIGIN, "192.0.2.4").signIn()).status).toBe(302)
    expect(calls).toHaveLength(1)
    expect(entries.some((e) => e.level === "error")).toBe(true)
  })

  it("a store that throws synchronously is a failing store too", async () => {
    const { cfg } = counted({ store: failing(() => { throw new Error("sync") }) })
    expect((await new Client(cfg, ORIGIN, "192.0.2.4").signIn()).status).toBe(503)
  })
})

describe("credentials: limits off", () => {
  it("rateLimit: false counts nothing", async () => {
    const { cfg, calls } = counted(false)
    const client = new Client(cfg, ORIGIN, "192.0.2.8")
    for (let i = 0; i < 50; i++) expect((await client.signIn("alice", WRONG)).status).toBe(302)
    expect(calls).toHaveLength(50)
  })
})
