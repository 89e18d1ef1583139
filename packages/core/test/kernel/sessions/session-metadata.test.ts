/**
 * What a database session records about its client (for `listSessions`): when it started, when it
 * was last used, a display-safe client name and a coarse network. Hostile User-Agent headers
 * (huge, control characters, markup) never reach the store; adapters without session listing
 * (Auth.js adapters) are never sent the extra keys.
 */
import { describe, expect, it } from "vitest"
import { Client, config } from "../../helpers/harness.js"
import { memoryAdapter } from "../../helpers/memory-adapter.js"
import { listSessions } from "../../../src/index.js"
import { describeClient } from "../../../src/kernel/sessions/client-description.js"

const UA = {
  firefoxLinux: "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0",
  chromeWindows: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
  edgeWindows: "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.2903.70",
  safariIphone: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.6 Mobile/15E148 Safari/604.1",
  chromeIphone: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1",
  chromeAndroid: "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36",
  samsung: "Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0.0.0 Mobile Safari/537.36",
  safariMac: "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15",
  operaMac: "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36 OPR/115.0.0.0",
  chromeOs: "Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
}

describe("describeClient", () => {
  it("names the browser family and the system", () => {
    expect(describeClient(UA.firefoxLinux)).toBe("Firefox on Linux")
    expect(describeClient(UA.chromeWindows)).toBe("Chrome on Windows")
    expect(describeClient(UA.edgeWindows)).toBe("Edge on Windows")
    expect(describeClient(UA.safariIphone)).toBe("Safari on iOS")
    expect(describeClient(UA.chromeIphone)).toBe("Chrome on iOS")
    expect(describeClient(UA.chromeAndroid)).toBe("Chrome on Android")
    expect(describeClient(UA.samsung)).toBe("Samsung Internet on Android")
    expect(describeClient(UA.safariMac)).toBe("Safari on macOS")
    expect(describeClient(UA.operaMac)).toBe("Opera on macOS")
    expect(describeClient(UA.chromeOs)).toBe("Chrome on ChromeOS")
    expect(describeClient("curl/8.5.0")).toBe("curl")
    expect(describeClient("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.0.0 Safari/537.36")).toBe("Chrome on Linux")
    expect(describeClient("node")).toBe("Node.js")
  })

  it("answers null for no header or one it cannot read, and only ever words of its own", () => {
    expect(describeClient(null)).toBeNull()
    expect(describeClient("")).toBeNull()
    expect(describeClient("<script>alert(1)</script>")).toBeNull()
    const hostile = ["Firefox/1\u0000\u001b[31m<img src=x onerror=alert(1)>", `Windows ${"\u202e".repeat(50)}`, `${"A".repeat(100_000)} Firefox/128.0`]
    for (const ua of hostile) {
      const name = describeClient(ua)
      if (name !== null) expect(name).toMatch(/^[A-Za-z .]{1,40}$/)
    }
    expect(describeClient(hostile[0]!)).toBe("Firefox")
    expect(describeClient(hostile[1]!)).toBe("Unknown browser on Windows")
    // Past the first 512 characters nothing is read.
    expect(describeClient(hostile[2]!)).toBeNull()
  })
})

function setup(over: Parameters<typeof config>[0] = {}) {
  const adapter = memoryAdapter()
  const cfg = config({ adapter, session: { strategy: "database" }, ...over })
  return { adapter, cfg }
}

const requestOf = (client: Client) => new Request("http://localhost:3000/account", { headers: { cookie: [...client.jar].map(([k, v]) => `${k}=${v}`).join("; ") } })

async function signIn(client: Client, userAgent: string) {
  const csrfToken = await client.csrfToken()
  const res = await client.request("/auth/callback/credentials", {
    method: "POST",
    form: { csrfToken, username: "alice", password: "wonderland" },
    headers: { "user-agent": userAgent },
  })
  expect(res.status).toBe(302)
}

describe("session metadata (database strategy)", () => {
  it("records when, which client and which network; listSessions shows them, most recently used first", async () => {
    const { cfg, adapter } = setup()
    const laptop = new Client(cfg, undefined, "203.0.113.7")
    const phone = new Client(cfg, undefined, "2001:db8:1:2:aaaa:bbbb:cccc:dddd")
    const before = Date.now()
    await signIn(laptop, UA.firefoxLinux)
    await signIn(phone, UA.safariIphone)
    const stored = [...adapter.sessions.values()]
    expect(stored.map((s) => s.clientDescription).sort()).toEqual(["Firefox on Linux", "Safari on iOS"])
    expect(stored.map((s) => s.clientNetwork).sort()).toEqual(["2001:db8:1:2::/64", "203.0.113.0/24"])
    // The phone's session was last used an hour ago (its last sliding extension), the laptop's now.
    const phoneSession = stored.find((s) => s.clientDescription === "Safari on iOS")!
    phoneSession.createdAt = new Date(Date.now() - 3 * 3600e3)
    phoneSession.expires = new Date(Date.now() - 3600e3 + 30 * 86400e3)
    const listed = await listSessions(requestOf(laptop), cfg)
    expect(listed.map((s) => [s.client, s.network, s.current])).toEqual([
      ["Firefox on Linux", "203.0.113.0/24", true],
      ["Safari on iOS", "2001:db8:1:2::/64", false],
    ])
    expect(listed[0]!.createdAt!.getTime()).toBeGreaterThanOrEqual(before)
    expect(Math.abs(listed[0]!.lastSeenAt.getTime() - Date.now())).toBeLessThan(5_000)
    expect(Math.abs(listed[1]!.lastSeenAt.getTime() - (Date.now() - 3600e3))).toBeLessThan(5_000)
  })

  it("a User-Agent of 100 KB is refused (431, nothing stored); one of 10 KB with control characters and markup is stored as a short clean name", async () => {
    const { cfg, adapter } = setup()
    const client = new Client(cfg, undefined, "198.51.100.9")
    const csrfToken = await client.csrfToken()
    const huge = await client.request("/auth/callback/credentials", {
      method: "POST",
      form: { csrfToken, username: "alice", password: "wonderland" },
      headers: { "user-agent": `Firefox/128.0 ${"x".repeat(100_000)}` },
    })
    expect(huge.status).toBe(431)
    expect(adapter.sessions.size).toBe(0)
    await signIn(client, `Mozilla/5.0 (Windows NT 10.0\u0001) <b>Firefox/128.0</b>\u0007${"x".repeat(10_000)}`)
    const [session] = [...adapter.sessions.values()]
    expect(session!.clientDescription).toBe("Firefox on Windows")
    expect(JSON.stringify(session).length).toBeLessThan(400)
    const [listed] = await listSessions(requestOf(client), cfg)
    expect(listed).toMatchObject({ client: "Firefox on Windows", network: "198.51.100.0/24" })
  })

  it("behind declared proxies the network is the client's, not the proxy's; without an address it is unknown", async () => {
    const { cfg, adapter } = setup({ rateLimit: { trustedProxies: 1 } })
    const viaProxy = new Client(cfg, undefined, "10.0.0.2")
    const csrfToken = await viaProxy.csrfToken()
    const res = await viaProxy.request("/auth/callback/credentials", {
      method: "POST",
      form: { csrfToken, username: "alice", password: "wonderland" },
      headers: { "x-forwarded-for": "192.0.2.44", "user-agent": UA.chromeAndroid },
    })
    expect(res.status, await res.clone().text()).toBe(302)
    expect([...adapter.sessions.values()][0]).toMatchObject({ clientNetwork: "192.0.2.0/24", clientDescription: "Chrome on Android" })
    const { cfg: plain, adapter: other } = setup()
    await signIn(new Client(plain), "")
    const [session] = [...other.sessions.values()]
    expect(session).toMatchObject({ clientNetwork: null, clientDescription: null })
    const [listed] = await listSessions(requestOf(new Client(plain)), plain).catch(() => [undefined])
    expect(listed).toBeUndefined()
  })

  it("an adapter without listSessionsByUserId (an Auth.js adapter) is sent exactly Auth.js's session keys", async () => {
    const adapter = memoryAdapter()
    delete (adapter as Partial<typeof adapter>).listSessionsByUserId
    const cfg = config({ adapter, session: { strategy: "database" } })
    await signIn(new Client(cfg, undefined, "203.0.113.7"), UA.firefoxLinux)
    const created = adapter.calls.find((c) => c.method === "createSession")!.args[0] as object
    expect(Object.keys(created).sort()).toEqual(["expires", "sessionToken", "userId"])
  })
})
