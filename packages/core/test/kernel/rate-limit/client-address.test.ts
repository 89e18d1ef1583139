import { describe, expect, it } from "vitest"
import { addressKey, clientKeyOf, compileTrustedProxies, type TrustedProxies } from "../../../src/kernel/rate-limit/client-address.js"

const h = (init: Record<string, string> = {}) => new Headers(init)
const xff = (value: string) => h({ "x-forwarded-for": value })
const fwd = (value: string) => h({ forwarded: value })

/** A proxy at `proxyAddress` forwarding a request from `clientAddress`: appends to X-Forwarded-For, as nginx's $proxy_add_x_forwarded_for does. */
function viaProxy(sent: Record<string, string>, clientAddress: string): Headers {
  const headers = new Headers(sent)
  const prior = headers.get("x-forwarded-for")
  headers.set("x-forwarded-for", prior === null ? clientAddress : `${prior}, ${clientAddress}`)
  return headers
}

/** The same proxy writing RFC 7239 `Forwarded` instead (IPv6 quoted in brackets, as the RFC requires). */
function viaForwardedProxy(sent: Record<string, string>, clientAddress: string): Headers {
  const headers = new Headers(sent)
  const prior = headers.get("forwarded")
  const element = clientAddress.includes(":") ? `for="[${clientAddress}]"` : `for=${clientAddress}`
  headers.set("forwarded", prior === null ? element : `${prior}, ${element}`)
  return headers
}

/** Headers an attacker may send to be keyed as someone else or as nobody. */
const HOSTILE: Record<string, string>[] = [
  {},
  { "x-forwarded-for": "198.51.100.99" },
  { "x-forwarded-for": "1.1.1.1, 2.2.2.2" },
  { "x-forwarded-for": "198.51.100.99, 10.0.0.7, 10.0.0.8" },
  { "x-forwarded-for": "::ffff:198.51.100.99" },
  { "x-forwarded-for": "unknown" },
  { "x-forwarded-for": "" },
  { "x-forwarded-for": "," },
  { "x-forwarded-for": "198.51.100.99," },
  { "x-forwarded-for": '"' },
  { "x-forwarded-for": "x".repeat(5000) },
  { forwarded: "for=198.51.100.99" },
  { forwarded: 'for="198.51.100.99' },
  { "x-forwarded-for": "198.51.100.99", forwarded: "for=198.51.100.98" },
]

describe("addressKey", () => {
  it.each([
    ["203.0.113.7", "203.0.113.7"],
    ["0.0.0.0", "0.0.0.0"],
    ["255.255.255.255", "255.255.255.255"],
    [" 192.0.2.1\t", "192.0.2.1"],
    ["192.0.2.1:8080", "192.0.2.1"],
    ["192.0.2.1:65535", "192.0.2.1"],
    ["192.0.2.1:_gazonk", "192.0.2.1"],
    ["2001:db8:1:2:aaaa::1", "2001:db8:1:2::/64"],
    ["2001:0DB8:0001:0002:0:0:0:1", "2001:db8:1:2::/64"],
    ["2001:db8:0:1::5", "2001:db8:0:1::/64"],
    ["2001:db8::", "2001:db8::/64"],
    ["2001:0:0:1::", "2001:0:0:1::/64"],
    ["0:0:0:1::", "0:0:0:1::/64"],
    ["::", "::/64"],
    ["::1", "::/64"],
    ["1:2:3:4:5:6:7::", "1:2:3:4::/64"],
    ["::1:2:3:4:5:6:7", "0:1:2:3::/64"],
    ["1:2:3::5:6:7:8", "1:2:3::/64"],
    ["[2001:db8::1]:443", "2001:db8::/64"],
    ["[2001:db8::1]", "2001:db8::/64"],
    ["[fe80::1%eth0]:80", "fe80::/64"],
    ["fe80::1%eth0", "fe80::/64"],
    ["::ffff:203.0.113.7", "203.0.113.7"],
    ["::FFFF:203.0.113.7", "203.0.113.7"],
    ["0:0:0:0:0:ffff:203.0.113.7", "203.0.113.7"],
    ["::ffff:cb00:7107", "203.0.113.7"],
    ["[::ffff:203.0.113.7]:443", "203.0.113.7"],
    ["1:2:3:4:5:6:203.0.113.7", "1:2:3:4::/64"],
    // The deprecated IPv4-compatible form and NAT64 are IPv6 networks, not the IPv4 host.
    ["::203.0.113.7", "::/64"],
    ["64:ff9b::203.0.113.7", "64:ff9b::/64"],
  ])("%j -> %j", (input, key) => expect(addressKey(input)).toBe(key))

  it.each([
    "", " ", "   ", "1.2.3.4 5", "1 .2.3.4", "2001:db8:: 1",
    "1.2.3", "1.2.3.4.5", "1.2.3.4.", ".1.2.3.4", "256.1.1.1", "1.2.3.256", "010.0.0.1", "1.2.3.04", "127.1", "3232235777",
    "1.2.3.-4", "+1.2.3.4", "1.2.3.4/24", "0x7f.0.0.1", "１.2.3.4", "1.2.3.4:", "1.2.3.4:65536", "1.2.3.4:x", "1.2.3.4%eth0", "[1.2.3.4]",
    ":::", "1::2::3", "::1::", ":1::", "::1:", "1:2:3:4:5:6:7:8:9", "1:2:3:4:5:6:7", "1::2:3:4:5:6:7:8", "12345::", "g::1", "::ffff:1.2.3",
    "1.2.3.4::", "::1.2.3.4:5", "[::1", "::1]:80", "[::1]:", "[::1]:x", "[::1]:65536", "[::1]80", "fe80::1%", "%eth0",
    "deadbeef", "0xdeadbeef", "cafe:babe", "dead:beef:cafe", "unknown", "_hidden", `"192.0.2.1"`, "x".repeat(101),
  ])("%j is not an address", (input) => expect(addressKey(input)).toBeUndefined())

  it("accepts at most 100 characters, spaces included", () => {
    expect(addressKey(`${" ".repeat(91)}192.0.2.1`)).toBe("192.0.2.1")
    expect(addressKey(`${" ".repeat(92)}192.0.2.1`)).toBeUndefined()
  })

  it("one key per IPv6 /64, a different key for the next /64", () => {
    expect(addressKey("2001:db8:1:2:aaaa::1")).toBe(addressKey("2001:db8:1:2:bbbb::2"))
    expect(addressKey("2001:db8:1:2:ffff:ffff:ffff:ffff")).toBe(addressKey("2001:db8:1:2::"))
    expect(addressKey("2001:db8:1:3::1")).not.toBe(addressKey("2001:db8:1:2::1"))
  })

  it("IPv4 and its IPv4-mapped IPv6 form share a key", () => {
    expect(addressKey("::ffff:203.0.113.7")).toBe(addressKey("203.0.113.7"))
    expect(addressKey("::ffff:203.0.113.8")).not.toBe(addressKey("203.0.113.7"))
  })
})

describe("compileTrustedProxies", () => {
  it.each<TrustedProxies>([0, 1, 64, 1000, [], ["10.0.0.0/8", "192.0.2.1", "0.0.0.0/0", "fd00::/8", "2001:db8::1", "::/0", "::ffff:10.0.0.0/104", "::ffff:0:0/96", "10.1.2.3/8"]])(
    "accepts %j",
    (value) => expect(Object.isFrozen(compileTrustedProxies(value))).toBe(true),
  )

  it.each([-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])("refuses the hop count %s, naming it", (n) => {
    expect(() => compileTrustedProxies(n)).toThrow(new RangeError(`trustedProxies: ${n} is not a hop count (an integer >= 0)`))
  })

  it.each([
    "10.0.0.0/33", "fd00::/129", "10.0.0.0/", "10.0.0.0/08", "10.0.0.0/-1", "2001:db8::/+32", "10.0.0/8", "10.0.0.0/8x", "10.0.0.0/8/8",
    "example.com", "", " 10.0.0.0/8", "[::1]", "10.0.0.1:80", "fe80::1%eth0", "010.0.0.0/8", "::ffff:10.0.0.0/95", "1::2::3/64",
  ])("refuses %j, naming it", (entry) => {
    expect(() => compileTrustedProxies(["10.0.0.0/8", entry, "also-bad"])).toThrow(
      new RangeError(`trustedProxies: ${JSON.stringify(entry)} is not an IP address or CIDR range`),
    )
  })

  it("names entries and declarations of the wrong type", () => {
    expect(() => compileTrustedProxies([42 as unknown as string])).toThrow(new RangeError("trustedProxies: 42 is not an IP address or CIDR range"))
    expect(() => compileTrustedProxies([null as unknown as string])).toThrow(new RangeError("trustedProxies: null is not an IP address or CIDR range"))
    expect(() => compileTrustedProxies("10.0.0.0/8" as unknown as TrustedProxies)).toThrow(
      new RangeError('trustedProxies: "10.0.0.0/8" is neither a hop count nor a list of addresses and CIDR ranges'),
    )
  })
})

describe("clientKeyOf without declared proxies", () => {
  it("is the peer's key; forwarding headers change nothing", () => {
    for (const sent of HOSTILE) expect(clientKeyOf("203.0.113.9", h(sent), undefined)).toBe("203.0.113.9")
    expect(clientKeyOf("2001:db8:5:6::1", xff("203.0.113.1"), undefined)).toBe("2001:db8:5:6::/64")
  })

  it("is undefined without a usable peer, whatever the headers", () => {
    expect(clientKeyOf(undefined, xff("203.0.113.1"), undefined)).toBeUndefined()
    expect(clientKeyOf("garbage", xff("203.0.113.1"), undefined)).toBeUndefined()
    expect(clientKeyOf(undefined, xff("203.0.113.1"), compileTrustedProxies(0))).toBeUndefined()
  })

  it("a hop count of 0 is the same: the peer", () => {
    expect(clientKeyOf("10.0.0.3", xff("203.0.113.5"), compileTrustedProxies(0))).toBe("10.0.0.3")
  })
})

describe("clientKeyOf with a hop count", () => {
  it("is the entry N places left of the peer", () => {
    const chain = xff("6.6.6.6, 203.0.113.8, 10.0.0.1")
    expect(clientKeyOf("10.0.0.2", chain, compileTrustedProxies(1))).toBe("10.0.0.1")
    expect(clientKeyOf("10.0.0.2", chain, compileTrustedProxies(2))).toBe("203.0.113.8")
    expect(clientKeyOf("10.0.0.2", chain, compileTrustedProxies(3))).toBe("6.6.6.6")
  })

  it("is the leftmost entry when there are fewer than N, the peer when there are none", () => {
    expect(clientKeyOf("10.0.0.3", xff("203.0.113.5, 10.0.0.1"), compileTrustedProxies(5))).toBe("203.0.113.5")
    expect(clientKeyOf("10.0.0.3", h(), compileTrustedProxies(2))).toBe("10.0.0.3")
  })

  it("without a peer: the N-th entry from the right, the leftmost when fewer, undefined when none", () => {
    const chain = xff("6.6.6.6, 203.0.113.8")
    expect(clientKeyOf(undefined, chain, compileTrustedProxies(1))).toBe("203.0.113.8")
    expect(clientKeyOf(undefined, chain, compileTrustedProxies(2))).toBe("6.6.6.6")
    expect(clientKeyOf(undefined, chain, compileTrustedProxies(3))).toBe("6.6.6.6")
    expect(clientKeyOf(undefined, h(), compileTrustedProxies(1))).toBeUndefined()
  })

  it("reads several header lines as one list (joined by \", \")", () => {
    const lines = new Headers([["x-forwarded-for", "9.9.9.9"], ["x-forwarded-for", "203.0.113.66"]])
    expect(clientKeyOf("10.0.0.2", lines, compileTrustedProxies(1))).toBe("203.0.113.66")
    expect(clientKeyOf("10.0.0.2", lines, compileTrustedProxies(2))).toBe("9.9.9.9")
  })

  it("a malformed chosen entry falls back to the nearest valid one on its right, ultimately the peer", () => {
    expect(clientKeyOf("10.0.0.2", xff("1.1.1.1, junk, 203.0.113.4"), compileTrustedProxies(2))).toBe("203.0.113.4")
    expect(clientKeyOf("10.0.0.2", xff("1.1.1.1, unknown"), compileTrustedProxies(1))).toBe("10.0.0.2")
    expect(clientKeyOf("10.0.0.2", xff("1.1.1.1, 010.0.0.1"), compileTrustedProxies(1))).toBe("10.0.0.2")
    expect(clientKeyOf("10.0.0.2", xff(""), compileTrustedProxies(1))).toBe("10.0.0.2")
    expect(clientKeyOf("10.0.0.2", xff("1.1.1.1,"), compileTrustedProxies(1))).toBe("10.0.0.2")
    expect(clientKeyOf(undefined, xff("1.1.1.1, junk"), compileTrustedProxies(1))).toBeUndefined()
    expect(clientKeyOf("junk", xff("1.1.1.1, junk"), compileTrustedProxies(1))).toBeUndefined()
  })

  it("keys IPv6 entries by /64 and mapped entries as IPv4", () => {
    expect(clientKeyOf("10.0.0.2", xff("2001:db8:7:8:aaaa::1"), compileTrustedProxies(1))).toBe("2001:db8:7:8::/64")
    expect(clientKeyOf("10.0.0.2", xff("[::ffff:203.0.113.7]:5000"), compileTrustedProxies(1))).toBe("203.0.113.7")
  })
})

describe("Forwarded (RFC 7239), read only without X-Forwarded-For", () => {
  const one = compileTrustedProxies(1)
  const key = (value: string) => clientKeyOf("10.0.0.2", fwd(value), one)

  it.each([
    ["for=6.6.6.6, for=203.0.113.60", "203.0.113.60"],
    ["for=6.6.6.6,for=203.0.113.60;proto=https", "203.0.113.60"],
    ["For=203.0.113.61", "203.0.113.61"],
    ["FOR=203.0.113.61;PROTO=https", "203.0.113.61"],
    ['proto=http;for="192.0.2.43:47011";by=203.0.113.43', "192.0.2.43"],
    ['for="[2001:db8:cafe::17]:4711"', "2001:db8:cafe::/64"],
    ['for="[2001:db8:cafe::17]"', "2001:db8:cafe::/64"],
    ['for="_gazonk:1", for="192.0.2.44:_port"', "192.0.2.44"],
    ['for="\\192.0.2.45"', "192.0.2.45"],
    ["for=203.0.113.62 ; proto=https", "203.0.113.62"],
    [`for=203.0.113.63;host=${"a".repeat(250)}.example;proto=https;by=10.0.0.2`, "203.0.113.63"],
  ])("%j -> %j", (value, expected) => expect(key(value)).toBe(expected))

  it.each([
    "for=unknown", "for=_hidden", 'for="_hidden"', 'for="\\"quoted\\""', 'for="192.0.2.1', 'for="192.0.2.1"x', "for=", "proto=https",
    "by=203.0.113.9", "for=192.0.2.1;for=192.0.2.2", "192.0.2.1", 'for="192.0.2.1\\',
  ])("%j has no address: the peer is the client", (value) => expect(key(value)).toBe("10.0.0.2"))

  it("X-Forwarded-For wins whenever it is present, even empty", () => {
    expect(clientKeyOf("10.0.0.2", h({ forwarded: "for=1.1.1.1", "x-forwarded-for": "203.0.113.61" }), one)).toBe("203.0.113.61")
    expect(clientKeyOf("10.0.0.2", h({ forwarded: "for=1.1.1.1", "x-forwarded-for": "" }), one)).toBe("10.0.0.2")
  })

  it("counts hops in elements, in address-list mode too", () => {
    expect(clientKeyOf("10.0.0.2", fwd("for=6.6.6.6, for=203.0.113.70, for=10.0.0.1"), compileTrustedProxies(2))).toBe("203.0.113.70")
    const list = compileTrustedProxies(["10.0.0.0/8"])
    expect(clientKeyOf("10.0.0.2", fwd('for=6.6.6.6, for="[2001:db8::5]", for=10.0.0.1'), list)).toBe("2001:db8::/64")
  })
})

describe("clientKeyOf with trusted addresses and ranges", () => {
  const trust = compileTrustedProxies(["10.0.0.0/8", "fd00::/8", "192.0.2.50"])

  it("walks left from the peer: the first hop outside the list is the client", () => {
    const chain = xff("6.6.6.6, 203.0.113.44, 10.1.2.3, 192.0.2.50")
    expect(clientKeyOf("10.0.0.2", chain, trust)).toBe("203.0.113.44")
    expect(clientKeyOf("fd12::1", xff("2001:db8:9:9::5"), trust)).toBe("2001:db8:9:9::/64")
    expect(clientKeyOf("10.0.0.2", xff("6.6.6.6, 192.0.2.51, 10.1.2.3"), trust)).toBe("192.0.2.51")
  })

  it("an untrusted peer is the client, whatever the headers say", () => {
    for (const sent of HOSTILE) expect(clientKeyOf("198.51.100.7", h(sent), trust)).toBe("198.51.100.7")
    expect(clientKeyOf("2001:db8:1:1::9", xff("10.0.0.1"), trust)).toBe("2001:db8:1:1::/64")
  })

  it("every hop trusted: the leftmost; garbage behind a trusted hop: that hop", () => {
    expect(clientKeyOf("10.0.0.2", xff("10.9.9.9"), trust)).toBe("10.9.9.9")
    expect(clientKeyOf("10.0.0.2", h(), trust)).toBe("10.0.0.2")
    expect(clientKeyOf("10.0.0.2", xff("203.0.113.1, junk, 10.9.9.9"), trust)).toBe("10.9.9.9")
    expect(clientKeyOf("10.0.0.2", xff("203.0.113.1, unknown"), trust)).toBe("10.0.0.2")
  })

  it("is undefined without a peer or with a malformed one (a trusted chain needs its nearest hop)", () => {
    expect(clientKeyOf(undefined, xff("203.0.113.1, 10.0.0.1"), trust)).toBeUndefined()
    expect(clientKeyOf("junk", xff("203.0.113.1"), trust)).toBeUndefined()
  })

  it("an empty list trusts nobody: the peer", () => {
    expect(clientKeyOf("10.0.0.2", xff("203.0.113.1"), compileTrustedProxies([]))).toBe("10.0.0.2")
  })

  // Whether `range` holds `address`: as the peer, a trusted address lets the forwarded entry through.
  it.each([
    ["10.0.0.0/8", "10.0.0.0", true], ["10.0.0.0/8", "10.255.255.255", true], ["10.0.0.0/8", "11.0.0.0", false], ["10.0.0.0/8", "9.255.255.255", false],
    ["10.1.2.3/8", "10.200.0.1", true], ["192.168.1.128/25", "192.168.1.128", true], ["192.168.1.128/25", "192.168.1.255", true],
    ["192.168.1.128/25", "192.168.1.127", false], ["172.16.0.0/12", "172.31.255.255", true], ["172.16.0.0/12", "172.32.0.0", false],
    ["192.0.2.7", "192.0.2.7", true], ["192.0.2.7", "192.0.2.8", false], ["192.0.2.7/32", "192.0.2.6", false], ["0.0.0.0/0", "255.255.255.255", true],
    ["fd00::/8", "fd00::1", true], ["fd00::/8", "fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", true], ["fd00::/8", "fe00::", false], ["fd00::/8", "fcff::1", false],
    ["2001:db8::/32", "2001:db8:ffff:ffff::1", true], ["2001:db8::/32", "2001:db9::1", false], ["2001:db8::/32", "2001:db7:ffff::1", false],
    ["2001:db8::/33", "2001:db8:7fff::1", true], ["2001:db8::/33", "2001:db8:8000::1", false],
    ["::1", "::1", true], ["::1", "::2", false], ["::/0", "2001:db8::1", true], ["::/0", "10.0.0.1", false], ["::/0", "::ffff:10.0.0.1", false],
    ["0.0.0.0/0", "::ffff:10.0.0.1", true], ["0.0.0.0/0", "::1", false],
    ["::ffff:172.16.0.0/108", "172.31.255.255", true], ["::ffff:172.16.0.0/108", "::ffff:172.31.255.255", true], ["::ffff:172.16.0.0/108", "172.32.0.0", false],
    ["::ffff:0:0/96", "198.51.100.1", true],
  ] as const)("%s holds %s: %s", (range, address, inside) => {
    const key = clientKeyOf(address, xff("203.0.113.1"), compileTrustedProxies([range]))
    expect(key).toBe(inside ? "203.0.113.1" : addressKey(address))
  })
})

describe("spoofing", () => {
  const real = "203.0.113.77"

  it("behind one declared proxy, what the client prepends is never its key", () => {
    const headers = viaProxy({ "x-forwarded-for": "1.1.1.1, 2.2.2.2" }, real)
    expect(clientKeyOf("10.0.0.2", headers, compileTrustedProxies(1))).toBe(real)
  })

  it("more hops in the header than declared change nothing", () => {
    const many = Array.from({ length: 40 }, (_, i) => `198.51.100.${i}`).join(", ")
    for (const trust of [compileTrustedProxies(1), compileTrustedProxies(["10.0.0.0/8"])]) {
      expect(clientKeyOf("10.0.0.2", viaProxy({ "x-forwarded-for": many }, real), trust)).toBe(real)
      expect(clientKeyOf("10.0.0.2", viaProxy({}, real), trust)).toBe(real)
    }
  })

  it("no header a client sends gets it another client's key, or none", () => {
    for (const trust of [compileTrustedProxies(1), compileTrustedProxies(["10.0.0.0/8"])]) {
      for (const sent of HOSTILE) expect(clientKeyOf("10.0.0.2", viaProxy(sent, real), trust), JSON.stringify(sent)).toBe(real)
    }
  })

  it("behind a proxy that writes Forwarded, what the client prepends to Forwarded is never its key", () => {
    const hostile = ["for=198.51.100.99", 'for="198.51.100.99', 'for="[2001:db8::99]", for=unknown', "for=_x;for=198.51.100.99", ",,", "for=" + "9".repeat(2000)]
    for (const trust of [compileTrustedProxies(1), compileTrustedProxies(["10.0.0.0/8"])]) {
      for (const sent of hostile) expect(clientKeyOf("10.0.0.2", viaForwardedProxy({ forwarded: sent }, real), trust), sent).toBe(real)
      expect(clientKeyOf("10.0.0.2", viaForwardedProxy({}, "2001:db8:4:4::7"), trust)).toBe("2001:db8:4:4::/64")
    }
  })

  it("behind two proxies, only the outer proxy's entry counts", () => {
    for (const sent of HOSTILE) {
      const outer = viaProxy(sent, real)
      const inner = viaProxy({ "x-forwarded-for": outer.get("x-forwarded-for")! }, "10.0.0.1")
      expect(clientKeyOf("10.0.0.2", inner, compileTrustedProxies(2)), JSON.stringify(sent)).toBe(real)
    }
  })
})

describe("bounded work on hostile headers", () => {
  const MB = 1_000_000

  it("1 MB headers are read from their end, fast, and keyed by the declared rule", () => {
    const many = `${"6.6.6.6, ".repeat(MB / 9)}203.0.113.70`
    const manyForwarded = `${"for=6.6.6.6, ".repeat(MB / 13)}for=203.0.113.71`
    const oneEntry = `${"9".repeat(MB)}, 203.0.113.72`
    const noCommas = `for=203.0.113.73${";proto=https".repeat(MB / 12)}`
    const openQuote = `"${"6.6.6.6, ".repeat(MB / 9)}`
    const cases: [Headers, TrustedProxies, string][] = [
      [xff(many), 1, "203.0.113.70"],
      [xff(many), ["10.0.0.0/8"], "203.0.113.70"],
      [fwd(manyForwarded), 1, "203.0.113.71"],
      [fwd(manyForwarded), ["10.0.0.0/8"], "203.0.113.71"],
      [xff(oneEntry), 1, "203.0.113.72"],
      [xff(oneEntry), 2, "203.0.113.72"],
      [xff(`203.0.113.72, ${"9".repeat(MB)}`), 1, "10.0.0.2"],
      [fwd(noCommas), 1, "10.0.0.2"],
      [fwd(`for="${"x".repeat(MB)}", for=203.0.113.74`), 2, "203.0.113.74"],
      [viaForwardedProxy({ forwarded: openQuote }, "203.0.113.75"), 1, "203.0.113.75"],
      [viaProxy({ "x-forwarded-for": openQuote }, "203.0.113.76"), 1, "203.0.113.76"],
    ]
    const started = performance.now()
    for (const [headers, declared, expected] of cases) expect(clientKeyOf("10.0.0.2", headers, compileTrustedProxies(declared))).toBe(expected)
    expect(performance.now() - started).toBeLessThan(1000)
  })

  it("only the last 64 entries are read: a longer trusted chain stops at its 64th hop", () => {
    const trusted = Array.from({ length: 100 }, (_, i) => `10.0.${i}.1`)
    const headers = xff(["203.0.113.80", ...trusted].join(", "))
    expect(clientKeyOf("10.0.0.2", headers, compileTrustedProxies(["10.0.0.0/8"]))).toBe("10.0.36.1")
    expect(clientKeyOf("10.0.0.2", headers, compileTrustedProxies(1000))).toBe("10.0.36.1")
    expect(clientKeyOf("10.0.0.2", headers, compileTrustedProxies(64))).toBe("10.0.36.1")
    expect(clientKeyOf("10.0.0.2", headers, compileTrustedProxies(63))).toBe("10.0.37.1")
  })
})
