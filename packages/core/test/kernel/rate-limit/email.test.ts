/**
 * E-mail sign-in under the rate limits, through `Auth()`: a cooldown and an hourly cap per address,
 * a cap per client across addresses, and at most a few live links per address.
 */
import { describe, expect, it } from "vitest"
import { Client, ORIGIN } from "../../helpers/harness.js"
import { emailSetup, followLink, requestLink } from "../../capabilities/email/helpers.js"
import { MemoryRateLimitStore, type RateLimitOptions } from "../../../src/index.js"

function clock(start = Date.UTC(2026, 10, 24, 12)) {
  let now = start
  return { now: () => now, advance: (seconds: number) => void (now += seconds * 1000) }
}

function setup(rateLimit: RateLimitOptions = {}, clientAddress = "203.0.113.10") {
  const time = clock()
  const s = emailSetup({ rateLimit: { store: new MemoryRateLimitStore({ now: time.now }), ...rateLimit } })
  return { ...s, time, client: new Client(s.config, ORIGIN, clientAddress) }
}

describe("e-mail: per address", () => {
  it("a second mail within the cooldown is refused: one mail, one token, 429 with Retry-After", async () => {
    const { client, outbox, adapter } = setup()
    expect((await requestLink(client, "bob@example.com")).status).toBe(302)
    const res = await requestLink(client, "bob@example.com")
    expect(res.status).toBe(429)
    expect(Number(res.headers.get("retry-after"))).toBeLessThanOrEqual(60)
    expect(await res.text()).toContain("Too many attempts")
    expect(outbox.sent).toHaveLength(1)
    expect(adapter.tokens).toHaveLength(1)
  })

  it("30 requests in a row for one address send one mail; after the cooldown, another", async () => {
    const { client, outbox, time } = setup({ email: { perClient: false } })
    for (let i = 0; i < 30; i++) await requestLink(client, "bob@example.com")
    expect(outbox.sent).toHaveLength(1)
    time.advance(61)
    expect((await requestLink(client, "bob@example.com")).status).toBe(302)
    expect(outbox.sent).toHaveLength(2)
  })

  it("at most 5 mails per hour, even when each waits out the cooldown", async () => {
    const { client, outbox, time } = setup()
    for (let i = 0; i < 8; i++) {
      await requestLink(client, "bob@example.com")
      time.advance(61)
    }
    expect(outbox.sent).toHaveLength(5)
    time.advance(3600)
    expect((await requestLink(client, "bob@example.com")).status).toBe(302)
  })

  it("addresses that differ by case share the counter (they are one mailbox)", async () => {
    const { client, outbox } = setup()
    await requestLink(client, "bob@example.com")
    expect((await requestLink(client, "BOB@Example.COM")).status).toBe(429)
    expect(outbox.sent).toHaveLength(1)
  })

  it("from different clients, the address's limit still holds (one victim, many attackers)", async () => {
    const { config, outbox } = setup()
    for (let i = 0; i < 10; i++) await requestLink(new Client(config, ORIGIN, `198.51.100.${i}`), "bob@example.com")
    expect(outbox.sent).toHaveLength(1)
  })

  it("200 concurrent requests for one address against a limit of 10 send exactly 10 mails", async () => {
    const { client, outbox } = setup({ email: { perAddress: { limit: 10, window: 60 }, perClient: false, maxLiveTokens: false } })
    const csrfToken = await client.csrfToken()
    const results = await Promise.all(Array.from({ length: 200 }, () => client.request("/auth/signin/email", { method: "POST", form: { csrfToken, email: "bob@example.com" } })))
    expect(outbox.sent).toHaveLength(10)
    expect(results.filter((r) => r.status === 429)).toHaveLength(190)
  })

  it("the refusal looks the same for an address with an account and one without", async () => {
    const { client, adapter } = setup()
    await adapter.createUser?.({ id: "u1", email: "known@example.com", emailVerified: null })
    const answers: string[] = []
    for (const email of ["known@example.com", "unknown@example.com"]) {
      await requestLink(client, email)
      const res = await requestLink(client, email)
      answers.push(`${res.status} ${res.headers.get("retry-after")} ${await res.text()}`)
    }
    expect(answers[0]).toBe(answers[1])
  })
})

describe("e-mail: per client", () => {
  it("one client cannot mail more than 20 addresses an hour (mail bombing of many victims)", async () => {
    const { client, outbox, config } = setup()
    for (let i = 0; i < 25; i++) await requestLink(client, `victim${i}@example.com`)
    expect(outbox.sent).toHaveLength(20)
    expect((await requestLink(new Client(config, ORIGIN, "203.0.113.11"), "someone@example.com")).status).toBe(302)
  })
})

describe("e-mail: live links per address", () => {
  it("a new link retires the oldest beyond maxLiveTokens: only the 3 newest work", async () => {
    const { client, outbox, adapter, time } = setup({ email: { perAddress: false } })
    for (let i = 0; i < 5; i++) {
      await requestLink(client, "bob@example.com")
      time.advance(1)
    }
    expect(outbox.sent).toHaveLength(5)
    expect(adapter.tokens).toHaveLength(3)
    const first = await followLink(new Client(client.config), outbox.sent[0]!.url)
    expect(first.done.headers.get("location")).toContain("error=Verification")
    const last = await followLink(new Client(client.config), outbox.sent[4]!.url)
    expect(last.done.status).toBe(302)
    expect(last.done.headers.get("location")).not.toContain("error=")
  })

  it("other addresses' links are untouched, and maxLiveTokens: false keeps every link", async () => {
    const { client, adapter } = setup({ email: { perAddress: false, maxLiveTokens: false } })
    for (let i = 0; i < 5; i++) await requestLink(client, "bob@example.com")
    await requestLink(client, "carol@example.com")
    expect(adapter.tokens.filter((t) => t.identifier === "bob@example.com")).toHaveLength(5)
    expect(adapter.tokens.filter((t) => t.identifier === "carol@example.com")).toHaveLength(1)
  })
})

describe("e-mail: plus-addresses", () => {
  it("inbox+1@, inbox+2@, ... share the mailbox's allowance; the mail goes to the address as typed", async () => {
    const { client, outbox } = setup({ email: { perClient: false } })
    expect((await requestLink(client, "Inbox+1@example.com")).status).toBe(302)
    for (let i = 2; i <= 12; i++) expect((await requestLink(client, `inbox+${i}@example.com`)).status).toBe(429)
    expect((await requestLink(client, "inbox@example.com")).status).toBe(429)
    expect(outbox.sent).toHaveLength(1)
    expect(outbox.sent[0]!.identifier).toBe("inbox+1@example.com")
    // Another mailbox at the same domain has its own allowance.
    expect((await requestLink(client, "other+1@example.com")).status).toBe(302)
  })
})
