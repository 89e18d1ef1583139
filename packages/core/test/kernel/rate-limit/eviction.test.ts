/**
 * A full memory store must not forget a victim's guesses: per-client traffic (fresh networks
 * asking for CSRF tokens) has its own budget, and an evicted counter comes back at least where it
 * was (eviction fails towards limiting).
 */
import { describe, expect, it } from "vitest"
import { Client, config, credentials, ORIGIN } from "../../helpers/harness.js"
import { MemoryRateLimitStore } from "../../../src/index.js"

const WRONG = "not-the-password"

describe("memory store eviction", () => {
  it("a flood of GET /csrf from fresh /64 networks does not erase a guess counter: the next guess is still refused", async () => {
    const calls: unknown[] = []
    const store = new MemoryRateLimitStore({ maxKeys: 1000 })
    const cfg = config({ providers: [credentials({ authorize: (c) => (calls.push(c), null) })], rateLimit: { store, credentials: { perClient: false } } })
    const attacker = new Client(cfg, ORIGIN, "203.0.113.66")
    for (let i = 0; i < 5; i++) await attacker.signIn("alice", WRONG)
    expect((await attacker.signIn("alice", WRONG)).status).toBe(429)
    for (let i = 0; i < 3000; i++) {
      const res = await new Client(cfg, ORIGIN, `2001:db8:${(i >> 12).toString(16)}:${(i & 0xfff).toString(16)}::1`).request("/auth/csrf")
      expect(res.status).toBe(200)
    }
    expect((await attacker.signIn("alice", WRONG)).status).toBe(429)
    expect(calls).toHaveLength(5)
  }, 30_000)

  it("a flood within one group (other identifiers) evicts a victim's open counter without forgetting its count, until its window ends", () => {
    let now = 1_000_000
    const store = new MemoryRateLimitStore({ maxKeys: 1000, now: () => now })
    const victim = "credentials.perIdentifier:60:net:203.0.113.0/24:alice"
    store.hit(victim, 60_000, 5)
    for (let i = 0; i < 5000; i++) store.hit(`credentials.perIdentifier:60:net:198.51.100.0/24:user-${i}`, 60_000)
    expect(store.size).toBeLessThanOrEqual(1000)
    expect(store.hit(victim, 60_000).count).toBeGreaterThan(5)
    // What eviction kept ends with the window: then every key starts from nothing.
    now += 60_000
    expect(store.hit(victim, 60_000).count).toBe(1)
    expect(store.hit("credentials.perIdentifier:60:net:198.51.100.0/24:someone-new", 60_000).count).toBe(1)
  })

  it("a flood of one group's keys never evicts another group's counters", () => {
    const store = new MemoryRateLimitStore({ maxKeys: 100, now: () => 1_000_000 })
    store.hit("email.perAddress:60:bob@example.com", 60_000)
    for (let i = 0; i < 1000; i++) store.hit(`csrf.perClient:60:10.0.${i >> 8}.${i & 255}`, 60_000)
    expect(store.hit("email.perAddress:60:bob@example.com", 60_000, 0)).toEqual({ count: 1, resetInMs: 60_000 })
  })
})
