/**
 * A credentials sign-in asks a store with the combined operations (`hitEach`, `resetEach`) once
 * before `authorize` and once after a success, whatever the number of rules; a store with only
 * `hit` and `reset` gets the same counts one key at a time. Round trips are counted, not timed.
 */
import { describe, expect, it } from "vitest"
import { Client, config, credentials } from "../../helpers/harness.js"
import { MemoryRateLimitStore, type RateLimitHit, type RateLimitStep, type RateLimitStore } from "../../../src/index.js"

/**
 * A memory store whose calls for credentials counters are recorded by method (the CSRF token the
 * client fetches first counts per client too); `combined: false` hides `hitEach` and `resetEach`.
 */
function recordingStore(combined: boolean) {
  const inner = new MemoryRateLimitStore()
  const calls: string[] = []
  const steps: RateLimitStep[][] = []
  const store: RateLimitStore = {
    hit: (key, windowMs, cost) => (key.startsWith("credentials.") && calls.push("hit"), inner.hit(key, windowMs, cost)),
    reset: (key) => (key.startsWith("credentials.") && calls.push("reset"), inner.reset(key)),
    ...(combined
      ? {
          hitEach: (s: readonly RateLimitStep[]): RateLimitHit[] => (calls.push("hitEach"), steps.push([...s]), inner.hitEach(s)),
          resetEach: (keys: readonly string[]) => (calls.push("resetEach"), inner.resetEach(keys)),
        }
      : {}),
  }
  return { store, calls, steps }
}

function app(store: RateLimitStore) {
  return config({
    providers: [credentials({ authorize: (c) => (c.username === "alice" && c.password === "wonderland" ? { id: "user-1", email: "alice@example.com" } : null) })],
    rateLimit: { store },
  })
}

describe("POST /auth/callback/credentials with the default limits", () => {
  it("a successful sign-in is one hitEach (client read, two identifier rules, two totals) and one resetEach", async () => {
    const { store, calls, steps } = recordingStore(true)
    const client = new Client(app(store), undefined, "203.0.113.7")
    expect((await client.signIn("alice", "wonderland")).status).toBe(302)
    expect(calls).toStrictEqual(["hitEach", "resetEach"])
    expect(steps[0]!.map((s) => [s.key.replace(/^([a-zA-Z.]+):(\d+):.*$/, "$1:$2"), s.cost, s.limit])).toStrictEqual([
      ["credentials.perClient:600", 0, 30],
      ["credentials.perIdentifier:60", 1, 5],
      ["credentials.perIdentifier:3600", 1, 20],
      ["credentials.perIdentifier:60", 1, 10],
      ["credentials.perIdentifier:3600", 1, 40],
    ])
  })

  it("a browser holding a device mark for the identifier: one hitEach of the mark's counters only, one resetEach", async () => {
    const { store, calls, steps } = recordingStore(true)
    const client = new Client(app(store), undefined, "203.0.113.7")
    await client.signIn("alice", "wonderland")
    calls.length = 0
    steps.length = 0
    expect((await client.signIn("alice", "wonderland")).status).toBe(302)
    expect(calls).toStrictEqual(["hitEach", "resetEach"])
    expect(steps[0]!.map((s) => s.key.split(":")[2])).toStrictEqual(["mark", "mark"])
  })

  it("a refusal by the identifier's counter counts nothing after it (the total stays), in the same single call", async () => {
    const { store, calls, steps } = recordingStore(true)
    const client = new Client(app(store), undefined, "203.0.113.7")
    for (let i = 0; i < 5; i++) await client.signIn("alice", "wrong")
    calls.length = 0
    expect((await client.signIn("alice", "wrong")).status).toBe(429)
    expect(calls).toStrictEqual(["hitEach"])
    const total = steps.at(-1)![3]!
    expect((await store.hit(total.key, total.windowMs, 0)).count).toBe(5)
  })

  it("a store without the combined operations gets the same counts key by key", async () => {
    const { store, calls } = recordingStore(false)
    const client = new Client(app(store), undefined, "203.0.113.7")
    expect((await client.signIn("alice", "wonderland")).status).toBe(302)
    expect(calls).toStrictEqual(["hit", "hit", "hit", "hit", "hit", "reset", "reset", "reset", "reset"])
    for (let i = 0; i < 5; i++) await client.signIn("alice", "wrong")
    expect((await client.signIn("alice", "wrong")).status).toBe(429)
  })
})
