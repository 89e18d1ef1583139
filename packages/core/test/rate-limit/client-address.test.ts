import { describe, expect, it } from "vitest"
import { addressKey, clientKeyOf, compileTrustedProxies } from "../../src/rate-limit/client-address.js"

const h = (init: Record<string, string> = {}) => new Headers(init)

describe("addressKey", () => {
  it.each([
    ["203.0.113.7", "203.0.113.7"],
    ["0.0.0.0", "0.0.0.0"],
    ["255.255.255.255", "255.255.255.255"],
    [" 192.0.2.1 ", "192.0.2.1"],
    ["192.0.2.1:8080", "192.0.2.1"],
    ["2001:db8:1:2:aaaa::1", "2001:db8:1:2::/64"],
    ["2001:0DB8:0001:0002:0:0:0:1", "2001:db8:1:2::/64"],
    ["2001:db8::", "2001:db8:0:0::/64"],
    ["::1", "0:0:0:0::/64"],
    ["[2001:db8::1]:443", "2001:db8:0:0::/64"],
    ["[2001:db8::1]", "2001:db8:0:0::/64"],
    ["fe80::1%eth0", "fe80:0:0:0::/64"],
    ["::ffff:203.0.113.7", "203.0.113.7"],
    ["::ffff:cb00:7107", "203.0.113.7"],
    ["64:ff9b::203.0.113.7", "64:ff9b:0:0::/64"],
  ])("%j -> %j", (input, key) => expect(addressKey(input)).toBe(key))

  it.each([
    "", " ", "1.2.3", "1.2.3.4.5", "256.1.1.1", "010.0.0.1", "127.1", "1.2.3.-4", "+1.2.3.4", "1.2.3.4/24",
    ":::", "1::2::3", "[::1", "::1]:80", "[::1]:x", "12345::", "g::1", "1:2:3:4:5:6:7:8:9", "1:2:3:4:5:6:7", "::1.2.3.4:5",
    "unknown", "_hidden", "deadbeef", "x".repeat(101),
  ])("%j is not an address", (input) => expect(addressKey(input)).toBeUndefined())
})

describe("compileTrustedProxies", () => {
  it("takes a hop count or addresses and CIDR ranges", () => {
    expect(() => compileTrustedProxies(0)).not.toThrow()
    expect(() => compileTrustedProxies(2)).not.toThrow()
    expect(() => compileTrustedProxies(["10.0.0.0/8", "192.0.2.1", "fd00::/8", "2001:db8::1", "::ffff:10.0.0.0/104"])).not.toThrow()
  })

  it.each([[-1], [1.5], [Number.NaN]])("refuses the hop count %j", (n) => {
    expect(() => compileTrustedProxies(n)).toThrow(/trustedProxies: .* is not a hop count/)
  })

  it.each(["10.0.0.0/33", "fd00::/129", "10.0.0.0/", "10.0.0/8", "example.com", "10.0.0.0/8x", "::ffff:10.0.0.0/95"])("refuses %j, naming it", (entry) => {
    expect(() => compileTrustedProxies([entry])).toThrow(new RangeError(`trustedProxies: ${JSON.stringify(entry)} is not an IP address or CIDR range`))
  })
})

describe("clientKeyOf", () => {
  it("without declared proxies: the peer, forwarding headers ignored", () => {
    const spoofed = h({ "x-forwarded-for": "1.1.1.1", forwarded: "for=2.2.2.2" })
    expect(clientKeyOf("203.0.113.9", spoofed, undefined)).toBe("203.0.113.9")
    expect(clientKeyOf(undefined, spoofed, undefined)).toBeUndefined()
    expect(clientKeyOf("garbage", spoofed, undefined)).toBeUndefined()
  })

  it("one hop: the address the proxy appended, never what the client prepended", () => {
    const trust = compileTrustedProxies(1)
    expect(clientKeyOf("10.0.0.2", h({ "x-forwarded-for": "1.1.1.1, 2.2.2.2, 203.0.113.66" }), trust)).toBe("203.0.113.66")
    expect(clientKeyOf("10.0.0.2", h({ "x-forwarded-for": "203.0.113.66" }), trust)).toBe("203.0.113.66")
    // Header lines are joined by ", ": the last line's last entry is still the proxy's.
    const lines = new Headers([["x-forwarded-for", "9.9.9.9"], ["x-forwarded-for", "203.0.113.66"]])
    expect(clientKeyOf("10.0.0.2", lines, trust)).toBe("203.0.113.66")
  })

  it("hop count: fewer entries than declared gives the leftmost; zero hops is the peer", () => {
    expect(clientKeyOf("10.0.0.3", h({ "x-forwarded-for": "203.0.113.5" }), compileTrustedProxies(3))).toBe("203.0.113.5")
    expect(clientKeyOf("10.0.0.3", h(), compileTrustedProxies(2))).toBe("10.0.0.3")
    expect(clientKeyOf("10.0.0.3", h({ "x-forwarded-for": "203.0.113.5" }), compileTrustedProxies(0))).toBe("10.0.0.3")
  })

  it("two hops: the entry two places left of the peer", () => {
    const xff = h({ "x-forwarded-for": "6.6.6.6, 203.0.113.8, 10.0.0.1" })
    expect(clientKeyOf("10.0.0.2", xff, compileTrustedProxies(2))).toBe("203.0.113.8")
  })

  it("hop count without a peer: the n-th entry from the right", () => {
    const xff = h({ "x-forwarded-for": "6.6.6.6, 203.0.113.8" })
    expect(clientKeyOf(undefined, xff, compileTrustedProxies(1))).toBe("203.0.113.8")
    expect(clientKeyOf(undefined, h(), compileTrustedProxies(1))).toBeUndefined()
  })

  it("garbage where the client should be: the nearest valid hop to its right (never keyless, never someone else)", () => {
    const trust = compileTrustedProxies(1)
    expect(clientKeyOf("10.0.0.2", h({ "x-forwarded-for": "1.1.1.1, not-an-ip" }), trust)).toBe("10.0.0.2")
    expect(clientKeyOf("10.0.0.2", h({ "x-forwarded-for": "" }), trust)).toBe("10.0.0.2")
    expect(clientKeyOf("10.0.0.2", h({ "x-forwarded-for": "1.1.1.1, unknown" }), trust)).toBe("10.0.0.2")
  })

  it("ranges: the first hop from the right outside them; an untrusted peer is the client", () => {
    const trust = compileTrustedProxies(["10.0.0.0/8", "fd00::/8"])
    const xff = h({ "x-forwarded-for": "6.6.6.6, 203.0.113.44, 10.1.2.3" })
    expect(clientKeyOf("10.0.0.2", xff, trust)).toBe("203.0.113.44")
    expect(clientKeyOf("198.51.100.7", xff, trust)).toBe("198.51.100.7")
    expect(clientKeyOf("fd12::1", h({ "x-forwarded-for": "2001:db8:9:9::5" }), trust)).toBe("2001:db8:9:9::/64")
    expect(clientKeyOf(undefined, xff, trust)).toBeUndefined()
  })

  it("ranges: every hop trusted -> the leftmost; garbage behind a trusted hop -> that hop", () => {
    const trust = compileTrustedProxies(["10.0.0.0/8"])
    expect(clientKeyOf("10.0.0.2", h({ "x-forwarded-for": "10.9.9.9" }), trust)).toBe("10.9.9.9")
    expect(clientKeyOf("10.0.0.2", h({ "x-forwarded-for": "junk, 10.9.9.9" }), trust)).toBe("10.9.9.9")
  })

  it("CIDR boundaries are exact", () => {
    const v4 = compileTrustedProxies(["10.0.0.0/8", "192.168.1.128/25"])
    const client = (peer: string) => clientKeyOf(peer, h({ "x-forwarded-for": "203.0.113.1" }), v4)
    expect(client("10.255.255.255")).toBe("203.0.113.1")
    expect(client("11.0.0.0")).toBe("11.0.0.0")
    expect(client("9.255.255.255")).toBe("9.255.255.255")
    expect(client("192.168.1.128")).toBe("203.0.113.1")
    expect(client("192.168.1.127")).toBe("192.168.1.127")
    const v6 = compileTrustedProxies(["2001:db8::/32", "::ffff:172.16.0.0/108"])
    const client6 = (peer: string) => clientKeyOf(peer, h({ "x-forwarded-for": "203.0.113.1" }), v6)
    expect(client6("2001:db8:ffff:ffff::1")).toBe("203.0.113.1")
    expect(client6("2001:db9::1")).toBe("2001:db9:0:0::/64")
    // A mapped range is the IPv4 range (addresses are compared unmapped).
    expect(client6("172.31.255.255")).toBe("203.0.113.1")
    expect(client6("::ffff:172.32.0.0")).toBe("172.32.0.0")
  })

  it("Forwarded (RFC 7239) without X-Forwarded-For: for= of each element, quoted, bracketed, any case", () => {
    const trust = compileTrustedProxies(1)
    const fwd = (value: string) => clientKeyOf("10.0.0.2", h({ forwarded: value }), trust)
    expect(fwd("for=6.6.6.6, For=203.0.113.60;proto=https")).toBe("203.0.113.60")
    expect(fwd('for="[2001:db8:cafe::17]:4711"')).toBe("2001:db8:cafe:0::/64")
    expect(fwd('proto=http;for="192.0.2.43:47011";by=203.0.113.43')).toBe("192.0.2.43")
    expect(fwd('for="\\"quoted\\""')).toBe("10.0.0.2")
    expect(fwd("for=unknown")).toBe("10.0.0.2")
    expect(fwd("for=_hidden")).toBe("10.0.0.2")
    // X-Forwarded-For wins when both are present.
    expect(clientKeyOf("10.0.0.2", h({ forwarded: "for=1.1.1.1", "x-forwarded-for": "203.0.113.61" }), trust)).toBe("203.0.113.61")
  })

  it("a 1 MB header is read from its end only, fast, and keyed by the declared rule", () => {
    const trust = compileTrustedProxies(1)
    const huge = `${"6.6.6.6, ".repeat(110_000)}203.0.113.70`
    const hugeForwarded = `${"for=6.6.6.6, ".repeat(80_000)}for=203.0.113.71`
    const oneLong = `${"9".repeat(1_000_000)}, 203.0.113.72`
    const started = performance.now()
    expect(clientKeyOf("10.0.0.2", h({ "x-forwarded-for": huge }), trust)).toBe("203.0.113.70")
    expect(clientKeyOf("10.0.0.2", h({ forwarded: hugeForwarded }), trust)).toBe("203.0.113.71")
    expect(clientKeyOf("10.0.0.2", h({ "x-forwarded-for": oneLong }), compileTrustedProxies(2))).toBe("203.0.113.72")
    expect(clientKeyOf("10.0.0.2", h({ "x-forwarded-for": huge }), compileTrustedProxies(["10.0.0.0/8", "6.0.0.0/8"]))).toBe("203.0.113.70")
    expect(performance.now() - started).toBeLessThan(1000)
  })
})
