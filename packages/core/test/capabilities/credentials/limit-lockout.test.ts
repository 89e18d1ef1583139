/**
 * The per-identifier limit must slow guessing down without becoming a lockout (OWASP): an attacker
 * on one network who keeps an identifier at its limit keeps out neither a browser the user signed
 * in with (device mark) nor a new browser on another network; many networks together stay bounded.
 */
import { describe, expect, it } from "vitest"
import { Client, config, credentials, ORIGIN, setCookies } from "../../helpers/harness.js"
import { MemoryRateLimitStore, type RateLimitOptions } from "../../../src/index.js"

const WRONG = "not-the-password"

function clock(start = Date.UTC(2026, 10, 24, 12)) {
  let now = start
  return { now: () => now, advance: (seconds: number) => void (now += seconds * 1000) }
}

/** alice / wonderland signs in (from anywhere); authorize calls are counted. */
function setup(rateLimit: RateLimitOptions = {}, origin = ORIGIN) {
  const time = clock()
  const calls: Array<Record<string, unknown>> = []
  const cfg = config({
    providers: [credentials({ authorize: (c) => (calls.push(c), c.username === "alice" && c.password === "wonderland" ? { id: "user-1", email: "alice@example.com" } : null) })],
    rateLimit: { store: new MemoryRateLimitStore({ now: time.now }), ...rateLimit },
  })
  return { cfg, time, calls, origin }
}

const signedIn = (res: Response) => res.status === 302 && res.headers.get("location") === `${ORIGIN}/`

describe("credentials: the identifier's limit is no lockout", () => {
  it("3 hours of 5 guesses a minute, waiting out each Retry-After, from one IPv4 address: the user gets in every time, from a browser that signed in before and from a new one elsewhere", async () => {
    const { cfg, time, calls } = setup()
    // Alice's laptop signed in yesterday: it holds a device mark. It sits in the attacker's own /24 (a cafe).
    const laptop = new Client(cfg, ORIGIN, "203.0.113.77")
    expect(signedIn(await laptop.signIn())).toBe(true)
    const attacker = new Client(cfg, ORIGIN, "203.0.113.66")
    let attackerGuesses = 0
    let attackerNext = 0
    const outcomes = { laptop: [] as boolean[], newBrowser: [] as boolean[] }
    for (let t = 0; t < 3 * 3600; t++, time.advance(1)) {
      while (attackerNext <= t) {
        const res = await attacker.signIn("alice", WRONG)
        if (res.status === 429) attackerNext = t + Number(res.headers.get("retry-after"))
        else attackerGuesses++
      }
      if (t % 300 === 150) {
        outcomes.laptop.push(signedIn(await laptop.signIn()))
        // A browser never seen before, on another network (a phone on mobile data).
        outcomes.newBrowser.push(signedIn(await new Client(cfg, ORIGIN, `198.51.100.${(t / 300) | 0}`).signIn()))
      }
    }
    expect(outcomes.laptop).toHaveLength(36)
    expect(outcomes.newBrowser).toHaveLength(36)
    expect(outcomes.laptop.every(Boolean)).toBe(true)
    expect(outcomes.newBrowser.every(Boolean)).toBe(true)
    // The attacker was still slowed to the per-network allowance: 20 an hour.
    expect(attackerGuesses).toBeLessThanOrEqual(3 * 20 + 5)
    expect(calls.filter((c) => c.password === WRONG).length).toBe(attackerGuesses)
  })

  it("guessing spread over many networks stays bounded: at most twice the limit a minute and an hour reach authorize", async () => {
    const { cfg, time, calls } = setup({ credentials: { perClient: false } })
    const perMinute: number[] = []
    for (let minute = 0; minute < 90; minute++) {
      const before = calls.length
      // 12 fresh /64s a minute, each guessing once, each spelling the identifier its own way.
      for (let n = 0; n < 12; n++) {
        const net = minute * 12 + n
        const client = new Client(cfg, ORIGIN, `2001:db8:${(net >> 8).toString(16)}:${(net & 255).toString(16)}::1`)
        await client.signIn(n % 2 ? "alice" : " ALICE", WRONG)
      }
      perMinute.push(calls.length - before)
      time.advance(60)
    }
    expect(perMinute[0]).toBe(10)
    expect(Math.max(...perMinute)).toBeLessThanOrEqual(10)
    // Per hour: twice 20; the first hour and the next half.
    expect(perMinute.slice(0, 60).reduce((a, b) => a + b)).toBeLessThanOrEqual(40)
    expect(calls.length).toBeLessThanOrEqual(80)
  }, 30_000)

  it("successful sign-ins never fill the identifier's total: 60 in a minute from 12 networks all get in", async () => {
    const { cfg } = setup()
    for (let i = 0; i < 60; i++) expect(signedIn(await new Client(cfg, ORIGIN, `192.0.${i % 12}.1`).signIn())).toBe(true)
  })

  it("a device mark counts on its own: a browser holding one is not refused while the identifier's network counters are full", async () => {
    const { cfg, calls } = setup({ credentials: { perClient: false } })
    const browser = new Client(cfg, ORIGIN, "192.0.2.10")
    expect(signedIn(await browser.signIn())).toBe(true)
    // Same network, no mark: the identifier's count there runs out.
    const stranger = new Client(cfg, ORIGIN, "192.0.2.11")
    for (let i = 0; i < 5; i++) await stranger.signIn("alice", WRONG)
    expect((await stranger.signIn()).status).toBe(429)
    // The marked browser: its own 5 (typos included), then its own refusal.
    for (let i = 0; i < 5; i++) expect((await browser.signIn("alice", WRONG)).status).toBe(302)
    expect((await browser.signIn()).status).toBe(429)
    expect(calls.length).toBe(1 + 5 + 5)
  })

  it("the mark is HttpOnly, SameSite=Lax, named like the other cookies, and only good for the identifier it was given for", async () => {
    const { cfg } = setup({ credentials: { perClient: false } })
    const browser = new Client(cfg, ORIGIN, "192.0.2.10")
    const res = await browser.signIn()
    const mark = setCookies(res).find((c) => c.name === "authlib.device-mark")!
    expect(mark).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/", maxAge: 30 * 24 * 3600 })
    expect(mark.value).not.toContain("alice")
    // For bob, alice's mark is nothing: bob's attempts from this browser use the network counter.
    for (let i = 0; i < 5; i++) await new Client(cfg, ORIGIN, "192.0.2.99").signIn("bob", WRONG)
    expect((await browser.signIn("bob", WRONG)).status).toBe(429)
    // A forged or altered mark is nothing either.
    for (let i = 0; i < 5; i++) await new Client(cfg, ORIGIN, "192.0.2.99").signIn("alice", WRONG)
    const forged = new Client(cfg, ORIGIN, "192.0.2.12")
    forged.jar.set("authlib.device-mark", mark.value.replace(/.$/, (c) => (c === "A" ? "B" : "A")))
    expect((await forged.signIn()).status).toBe(429)
    // The real one still works; a fresh mark is not set again on each sign-in.
    const again = await browser.signIn()
    expect(signedIn(again)).toBe(true)
    expect(setCookies(again).map((c) => c.name)).not.toContain("authlib.device-mark")
  })

  it("a mark made with an older secret still counts, and the next sign-in renews it with the new secret", async () => {
    const { cfg } = setup({ credentials: { perClient: false } })
    const browser = new Client(cfg, ORIGIN, "192.0.2.10")
    await browser.signIn()
    const rotated = { ...cfg, secret: ["a-brand-new-secret-0123456789-abcdefghijkl", cfg.secret as string] }
    const after = new Client(rotated, ORIGIN, "192.0.2.10")
    for (const [k, v] of browser.jar) after.jar.set(k, v)
    for (let i = 0; i < 5; i++) await new Client(rotated, ORIGIN, "192.0.2.99").signIn("alice", WRONG)
    const res = await after.signIn()
    expect(signedIn(res)).toBe(true)
    expect(setCookies(res).map((c) => c.name)).toContain("authlib.device-mark")
  })

  it("on https the mark is __Secure-authlib.device-mark and Secure", async () => {
    const { cfg } = setup()
    const res = await new Client(cfg, "https://app.example", "192.0.2.10").signIn()
    const mark = setCookies(res).find((c) => c.name.endsWith("device-mark"))
    expect(mark).toMatchObject({ name: "__Secure-authlib.device-mark", secure: true, httpOnly: true, sameSite: "Lax" })
  })
})
