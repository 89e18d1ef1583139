/**
 * Which identifier a credentials attempt is counted against, seen from an attacker's side: the
 * counted value is the one `authorize` reads, whatever else the body holds, values that are not
 * strings never reach `authorize`, and an attempt without an identifier is still counted.
 */
import { describe, expect, it } from "vitest"
import { Client, config, credentials, ORIGIN } from "../../helpers/harness.js"
import { MemoryRateLimitStore, type CredentialsConfig, type RateLimitOptions } from "../../../src/index.js"

const WRONG = "not-the-password"
const REFUSED = `${ORIGIN}/auth/signin?error=CredentialsSignin&code=credentials`

/** A config whose authorize records what it saw; nothing signs in. */
function recorded(provider: Partial<CredentialsConfig> = {}, rateLimit: RateLimitOptions = {}) {
  const seen: Array<Record<string, unknown>> = []
  const cfg = config({
    providers: [credentials({ authorize: (c) => (seen.push(c as Record<string, unknown>), null), ...provider })],
    rateLimit: { store: new MemoryRateLimitStore(), credentials: { perClient: false }, ...rateLimit },
  })
  return { cfg, seen, client: new Client(cfg, ORIGIN, "203.0.113.7") }
}

describe("credentials: the counted identifier is the one authorize reads", () => {
  it("a decoy email field does not move the attempts of a provider that declares username off the victim's counter", async () => {
    const { client, seen } = recorded()
    for (let i = 0; i < 40; i++) await client.post("/auth/callback/credentials", { email: `decoy-${i}@example.com`, username: "victim", password: `guess-${i}` })
    expect(seen.length).toBe(5)
    expect(seen.every((c) => c.username === "victim")).toBe(true)
  })

  it("with several declared non-password fields, the one with a usual name counts, whatever its position and whatever else is sent", async () => {
    const { client, seen } = recorded({ credentials: { tenant: { label: "Team" }, username: { label: "User" }, password: { type: "password" } } })
    for (let i = 0; i < 10; i++) await client.post("/auth/callback/credentials", { tenant: `team-${i}`, email: `decoy-${i}@example.com`, username: "victim", password: WRONG })
    expect(seen.length).toBe(5)
  })

  it('a JSON array, object or number ("email": ["victim"]) never reaches authorize: the usual CredentialsSignin answer', async () => {
    const { client, seen } = recorded({ credentials: { email: { label: "E-mail" }, password: { type: "password" } } })
    for (const email of [["victim@example.com"], { toString: "victim@example.com" }, 12345, null, true]) {
      const csrfToken = await client.csrfToken()
      const res = await client.request("/auth/callback/credentials", { method: "POST", json: { csrfToken, email, password: WRONG } })
      expect(res.status).toBe(302)
      expect(res.headers.get("location")).toBe(REFUSED)
    }
    // A non-string in any other field is refused as well.
    const csrfToken = await client.csrfToken()
    await client.request("/auth/callback/credentials", { method: "POST", json: { csrfToken, email: "victim@example.com", password: [WRONG] } })
    expect(seen).toHaveLength(0)
  })

  it("attempts without a usable identifier are counted under the client's key, never skipped", async () => {
    const { client, seen } = recorded()
    for (let i = 0; i < 10; i++) await client.post("/auth/callback/credentials", { password: `guess-${i}` })
    for (let i = 0; i < 5; i++) await client.post("/auth/callback/credentials", { username: "   ", password: `guess-${i}` })
    expect(seen.length).toBe(5)
    // Another client has its own count.
    const other = new Client(client.config, ORIGIN, "198.51.100.9")
    expect((await other.post("/auth/callback/credentials", { password: "x" })).status).toBe(302)
    expect(seen.length).toBe(6)
  })

  it("an identifier option that answers no string counts under the client's key too", async () => {
    const { client, seen } = recorded({}, { credentials: { perClient: false, identifier: (c) => c.account as string } })
    for (let i = 0; i < 10; i++) await client.post("/auth/callback/credentials", { username: `u-${i}`, password: WRONG })
    expect(seen.length).toBe(5)
  })

  it("a provider that declares no fields: its usual identifier fields must agree, or authorize is never asked", async () => {
    const { client, seen } = recorded({ credentials: {} })
    for (let i = 0; i < 10; i++) await client.post("/auth/callback/credentials", { email: `decoy-${i}@example.com`, username: "victim", password: WRONG })
    expect(seen).toHaveLength(0)
    for (let i = 0; i < 10; i++) await client.post("/auth/callback/credentials", { username: "victim", login: i % 2 ? "VICTIM" : "victim", password: WRONG })
    expect(seen).toHaveLength(5)
  })
})
