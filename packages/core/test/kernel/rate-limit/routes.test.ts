/**
 * The generous per-client limits (OAuth starts and callbacks, CSRF mints, passkey options) and the
 * session route, which is not limited unless the app asks; the configuration checks of `rateLimit`.
 */
import { describe, expect, it } from "vitest"
import { Client, config, credentials, ORIGIN, recordingLogger } from "../../helpers/harness.js"
import { Auth, Configuration, DEFAULT_RATE_LIMITS, MemoryRateLimitStore, raw, type AuthConfig, type OAuthConfig } from "../../../src/index.js"
import { allowInsecureOAuthRequests } from "../../../src/index.js"

const oauth = {
  id: "op",
  name: "OP",
  type: "oauth",
  clientId: "client",
  clientSecret: "secret",
  [allowInsecureOAuthRequests]: true,
  authorization: { url: "http://127.0.0.1:9/auth", params: { scope: "openid" } },
  token: "http://127.0.0.1:9/token",
  userinfo: "http://127.0.0.1:9/me",
  checks: ["pkce", "state"],
} as unknown as OAuthConfig

/** OAuth starts limited to 3 per client; `csrf` limits CSRF mints (off unless given, so each test counts one thing). */
function limited(csrf: false | { limit: number; window: number } = false) {
  return config({ providers: [credentials(), oauth], rateLimit: { store: new MemoryRateLimitStore(), oauth: { perClient: { limit: 3, window: 60 } }, csrf: { perClient: csrf } } })
}

describe("per-client limits of the other routes", () => {
  it("OAuth sign-in starts: the 4th from one client is refused before any state is minted", async () => {
    const client = new Client(limited(), ORIGIN, "203.0.113.1")
    for (let i = 0; i < 3; i++) expect((await client.post("/auth/signin/op")).status).toBe(302)
    const refused = await client.post("/auth/signin/op")
    expect(refused.status).toBe(429)
    expect(refused.headers.getSetCookie().some((c) => c.includes(".state=") || c.includes("pkce"))).toBe(false)
    expect((await new Client(limited(), ORIGIN, "203.0.113.2").post("/auth/signin/op")).status).toBe(302)
  })

  it("OAuth callbacks count on the same per-client limit", async () => {
    const cfg = limited()
    const client = new Client(cfg, ORIGIN, "203.0.113.3")
    for (let i = 0; i < 3; i++) expect((await client.request("/auth/callback/op?code=x&state=y")).status).not.toBe(429)
    expect((await client.request("/auth/callback/op?code=x&state=y")).status).toBe(429)
  })

  it("CSRF mints: JSON 429 with Retry-After once a client has minted its share; a client that keeps its cookie is not charged", async () => {
    const cfg = limited({ limit: 3, window: 60 })
    const browser = new Client(cfg, ORIGIN, "203.0.113.4")
    for (let i = 0; i < 10; i++) expect((await browser.request("/auth/csrf")).status).toBe(200)
    const minter = new Client(cfg, ORIGIN, "203.0.113.5")
    for (let i = 0; i < 3; i++) expect((await minter.request("/auth/csrf", { noJar: true })).status).toBe(200)
    const res = await minter.request("/auth/csrf", { noJar: true })
    expect(res.status).toBe(429)
    expect(res.headers.get("retry-after")).toMatch(/^\d+$/)
    expect(await res.json()).toEqual({ error: "RateLimited", code: "LIMIT_REACHED", retryAfter: Number(res.headers.get("retry-after")) })
  })

  it("GET /session is not limited by default (apps poll it)", async () => {
    expect(DEFAULT_RATE_LIMITS["session.perClient"]).toEqual([])
    const client = new Client(limited(), ORIGIN, "203.0.113.6")
    for (let i = 0; i < 300; i++) expect((await client.request("/auth/session")).status).toBe(200)
  })

  it("GET /session is limited when the app sets rateLimit.session", async () => {
    const cfg = config({ rateLimit: { store: new MemoryRateLimitStore(), session: { perClient: { limit: 2, window: 60 } } } })
    const client = new Client(cfg, ORIGIN, "203.0.113.7")
    await client.request("/auth/session")
    await client.request("/auth/session")
    expect((await client.request("/auth/session")).status).toBe(429)
  })

  it("IPv6 clients share a counter per /64; IPv4-mapped addresses count as the IPv4 client", async () => {
    const cfg = limited()
    const post = (address: string) => new Client(cfg, ORIGIN, address).post("/auth/signin/op")
    await post("2001:db8:1:2::1")
    await post("2001:db8:1:2:ffff::9")
    await post("2001:db8:1:2:abcd:ef01:2345:6789")
    expect((await post("2001:db8:1:2::77")).status).toBe(429)
    expect((await post("2001:db8:1:3::1")).status).toBe(302)
    await post("192.0.2.9")
    await post("::ffff:192.0.2.9")
    await post("192.0.2.9")
    expect((await post("::ffff:c000:209")).status).toBe(429)
  })

  it("a malformed client address is no address: per-client limits are skipped, nothing breaks", async () => {
    const cfg = limited()
    for (let i = 0; i < 5; i++) expect((await new Client(cfg, ORIGIN, "not-an-ip").post("/auth/signin/op")).status).toBe(302)
  })
})

describe("rateLimit configuration", () => {
  it("bad rules, a bad store, bad proxies and a bad maxLiveTokens are reported together at start-up", async () => {
    const { logger, entries } = recordingLogger()
    const cfg = config({
      logger,
      rateLimit: {
        credentials: { perIdentifier: { limit: -1, window: 60 } },
        email: { perAddress: [{ limit: 1, window: 0 }], maxLiveTokens: 0 },
        store: { hit: () => ({ count: 1, resetInMs: 1 }) } as never,
        trustedProxies: ["10.0.0.0/33"],
      },
    })
    const res = await Auth(new Request(`${ORIGIN}/auth/session`), cfg)
    expect(res.status).toBe(500)
    const err = entries.find((e) => e.level === "error")!.message[0] as Configuration & { cause: { problems: Configuration[] } }
    const messages = err.cause.problems.map((p) => `${p.code}: ${p.message}`)
    // The groups' rules in the registry's order, the option's own settings, then each capability's (`check`).
    expect(messages).toEqual([
      expect.stringMatching(/^RATE_LIMIT_INVALID: "rateLimit.email.perAddress"/),
      expect.stringMatching(/^RATE_LIMIT_INVALID: "rateLimit.credentials.perIdentifier"/),
      expect.stringMatching(/^RATE_LIMIT_INVALID: "rateLimit.store"/),
      expect.stringMatching(/^RATE_LIMIT_INVALID: rateLimit.trustedProxies.*10\.0\.0\.0\/33/),
      expect.stringMatching(/^RATE_LIMIT_INVALID: "rateLimit.email.maxLiveTokens"/),
    ])
  })

  it("rateLimit: false in production says so once at start-up", async () => {
    const { logger, entries } = recordingLogger()
    await Auth(new Request("https://app.example/auth/session"), config({ logger, url: "https://app.example", rateLimit: false }))
    expect(entries.filter((e) => e.code === "rate-limit-off")).toHaveLength(1)
  })

  it("raw mode works with a client address (bindings pass it as the third argument)", async () => {
    const cfg = { ...limited(), raw } as AuthConfig & { raw: typeof raw }
    const result = await Auth(new Request(`${ORIGIN}/auth/csrf`), cfg, { clientAddress: "192.0.2.77" })
    expect(result.status ?? 200).toBe(200)
  })
})
