/**
 * Who the client is, for per-client rate limits: the peer address the binding handed in, or, when
 * the app declares its proxies, the right-most hop of `X-Forwarded-For` / `Forwarded` that is not
 * one of them. Keys are a normalised IPv4 address or an IPv6 /64 (one host or household usually
 * holds a whole /64). Work on hostile headers is bounded: only the last `MAX_HOPS` entries count.
 */

/** What the app declares: how many proxies stand in front of it, or their addresses / CIDR ranges. */
export type TrustedProxies = number | readonly string[]

/** A parsed address: 4 or 16 bytes. */
type Bytes = Uint8Array

interface Range {
  readonly bytes: Bytes
  readonly prefix: number
}

/** Recent peers and their keys: a server sees the same few addresses over and over. */
const peerKeys = new Map<string, string | undefined>()
const PEER_KEYS = 4096

/** `addressKey(peer)`, remembered (the cache is emptied when full: bounded, whatever peers come). */
function peerKey(peer: string): string | undefined {
  let key = peerKeys.get(peer)
  if (key === undefined && !peerKeys.has(peer)) {
    key = addressKey(peer)
    if (peerKeys.size >= PEER_KEYS) peerKeys.clear()
    peerKeys.set(peer, key)
  }
  return key
}

/** The compiled declaration (built once, at config resolution). */
export type ProxyTrust = { readonly hops: number } | { readonly ranges: readonly Range[] }

/** Entries read from the right end of a forwarding header; further left is never looked at. */
const MAX_HOPS = 64
/** A longer entry is not an address. */
const MAX_ENTRY_LENGTH = 100

function parseIPv4(text: string): Bytes | undefined {
  const parts = text.split(".")
  if (parts.length !== 4) return undefined
  const out = new Uint8Array(4)
  for (let i = 0; i < 4; i++) {
    const part = parts[i]!
    // No leading zeros ("010" reads as octal to some parsers) and no empty or signed parts.
    if (!/^(0|[1-9][0-9]{0,2})$/.test(part)) return undefined
    const n = Number(part)
    if (n > 255) return undefined
    out[i] = n
  }
  return out
}

function parseIPv6(text: string): Bytes | undefined {
  if (text.length < 2 || !/^[0-9a-fA-F:.]+$/.test(text)) return undefined
  const halves = text.split("::")
  if (halves.length > 2) return undefined
  const groups = (half: string): number[] | undefined => {
    if (half === "") return []
    const out: number[] = []
    const parts = half.split(":")
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i]!
      if (i === parts.length - 1 && part.includes(".")) {
        const v4 = parseIPv4(part)
        if (!v4) return undefined
        out.push((v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!)
      } else {
        if (!/^[0-9a-fA-F]{1,4}$/.test(part)) return undefined
        out.push(parseInt(part, 16))
      }
    }
    return out
  }
  const head = groups(halves[0]!)
  const tail = halves.length === 2 ? groups(halves[1]!) : []
  if (!head || !tail) return undefined
  // An embedded IPv4 part may only end the address.
  if (halves.length === 2 && halves[0]!.includes(".")) return undefined
  const missing = 8 - head.length - tail.length
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined
  const all = [...head, ...new Array<number>(halves.length === 2 ? missing : 0).fill(0), ...tail]
  const out = new Uint8Array(16)
  all.forEach((g, i) => {
    out[i * 2] = g >> 8
    out[i * 2 + 1] = g & 0xff
  })
  return out
}

/** IPv4-mapped IPv6 (::ffff:a.b.c.d) is the IPv4 address. */
function unmapped(bytes: Bytes): Bytes {
  if (bytes.length !== 16) return bytes
  for (let i = 0; i < 10; i++) if (bytes[i] !== 0) return bytes
  return bytes[10] === 0xff && bytes[11] === 0xff ? bytes.slice(12) : bytes
}

/** Strips brackets, a port and an IPv6 zone: "[2001:db8::1]:443", "192.0.2.1:8080", "fe80::1%eth0". */
function bareAddress(value: string): string | undefined {
  let text = value.trim()
  if (text === "" || text.length > MAX_ENTRY_LENGTH) return undefined
  if (text.startsWith("[")) {
    const end = text.indexOf("]")
    if (end < 0) return undefined
    const rest = text.slice(end + 1)
    if (rest !== "" && !/^:[0-9]{1,5}$/.test(rest)) return undefined
    text = text.slice(1, end)
  } else if (/^[0-9.]+:[0-9]{1,5}$/.test(text)) {
    text = text.slice(0, text.indexOf(":"))
  }
  const zone = text.indexOf("%")
  if (zone >= 0) text = text.slice(0, zone)
  return text
}

function parseAddress(value: string): Bytes | undefined {
  const text = bareAddress(value)
  if (text === undefined) return undefined
  const bytes = text.includes(":") ? parseIPv6(text) : parseIPv4(text)
  return bytes ? unmapped(bytes) : undefined
}

function keyOf(bytes: Bytes): string {
  if (bytes.length === 4) return bytes.join(".")
  const groups: string[] = []
  for (let i = 0; i < 8; i += 2) groups.push(((bytes[i]! << 8) | bytes[i + 1]!).toString(16))
  return `${groups.join(":")}::/64`
}

/**
 * The key form of one address: "203.0.113.7", or "2001:db8:0:1::/64" for IPv6 (the first four
 * groups in lower-case hex without leading zeros, never compressed), or undefined when it is not
 * an address. IPv4-mapped IPv6 becomes the IPv4 address.
 */
export function addressKey(value: string): string | undefined {
  const bytes = parseAddress(value)
  return bytes ? keyOf(bytes) : undefined
}

function parseRange(entry: string): Range | undefined {
  const slash = entry.indexOf("/")
  const addr = slash < 0 ? entry : entry.slice(0, slash)
  const parsed = addr.includes(":") ? parseIPv6(addr.trim()) : parseIPv4(addr.trim())
  if (!parsed) return undefined
  const max = parsed.length * 8
  let prefix = max
  if (slash >= 0) {
    const text = entry.slice(slash + 1).trim()
    if (!/^[0-9]{1,3}$/.test(text)) return undefined
    prefix = Number(text)
    if (prefix > max) return undefined
  }
  // A mapped range (::ffff:10.0.0.0/104) is the IPv4 range: addresses are compared unmapped.
  const bytes = unmapped(parsed)
  if (bytes.length === 4 && parsed.length === 16) {
    if (prefix < 96) return undefined
    prefix -= 96
  }
  return { bytes, prefix }
}

function inRange(bytes: Bytes, range: Range): boolean {
  if (bytes.length !== range.bytes.length) return false
  const full = range.prefix >> 3
  for (let i = 0; i < full; i++) if (bytes[i] !== range.bytes[i]) return false
  const rest = range.prefix & 7
  if (rest === 0) return true
  const mask = (0xff << (8 - rest)) & 0xff
  return (bytes[full]! & mask) === (range.bytes[full]! & mask)
}

/**
 * Compiles `rateLimit.trustedProxies`. Throws a `RangeError` naming the bad entry: a hop count
 * must be an integer >= 0, a list entry an IPv4/IPv6 address or CIDR range.
 */
export function compileTrustedProxies(value: TrustedProxies): ProxyTrust {
  if (typeof value === "number") {
    if (!Number.isInteger(value) || value < 0) throw new RangeError(`trustedProxies: ${value} is not a hop count (an integer >= 0)`)
    return { hops: value }
  }
  if (!Array.isArray(value)) throw new RangeError("trustedProxies: must be a hop count or a list of addresses and CIDR ranges")
  const ranges = value.map((entry: unknown) => {
    const range = typeof entry === "string" ? parseRange(entry) : undefined
    if (!range) throw new RangeError(`trustedProxies: ${JSON.stringify(entry)} is not an IP address or CIDR range`)
    return range
  })
  return { ranges }
}

/** The last `MAX_HOPS` comma-separated entries of `header`, left to right, read from its end. */
function lastEntries(header: string): string[] {
  const out: string[] = []
  let end = header.length
  while (out.length < MAX_HOPS) {
    const comma = end > 0 ? header.lastIndexOf(",", end - 1) : -1
    out.push(header.slice(comma + 1, end))
    if (comma < 0) break
    end = comma
  }
  return out.reverse()
}

/** The `for=` value of one RFC 7239 element (`for=192.0.2.1;proto=https`, quoted or not). */
function forwardedFor(element: string): string {
  for (const pair of element.split(";")) {
    const eq = pair.indexOf("=")
    if (eq < 0 || pair.slice(0, eq).trim().toLowerCase() !== "for") continue
    let value = pair.slice(eq + 1).trim()
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1).replace(/\\(.)/g, "$1")
    return value
  }
  return ""
}

/**
 * The forwarded hops, left to right: `X-Forwarded-For`, or `Forwarded` without it. (Quoted commas
 * inside a `Forwarded` element are not split on correctly; such an element is not an address either
 * way, so it ends up as a malformed entry.)
 */
function forwardedHops(headers: Headers): string[] {
  const xff = headers.get("x-forwarded-for")
  if (xff !== null) return lastEntries(xff)
  const forwarded = headers.get("forwarded")
  if (forwarded !== null) return lastEntries(forwarded).map(forwardedFor)
  return []
}

/** The chosen hop, or the nearest valid one to its right when it is malformed. */
function validFrom(chain: readonly string[], index: number): string | undefined {
  for (let i = Math.max(0, index); i < chain.length; i++) {
    const key = addressKey(chain[i]!)
    if (key !== undefined) return key
  }
  return undefined
}

/**
 * The client's key, or undefined when there is no usable address. Without `trust` only the peer
 * counts and forwarding headers are ignored. With a hop count `n`, the client is `n` hops left of the
 * peer (the leftmost hop when the chain is shorter; without a peer, the chain's `n`-th entry from
 * the right). With ranges, walking left from the peer, the first hop outside them is the client (an
 * untrusted peer is the client; without a peer, nothing can be verified: undefined).
 */
export function clientKeyOf(peer: string | undefined, headers: Headers, trust: ProxyTrust | undefined): string | undefined {
  if (!trust || ("hops" in trust && trust.hops === 0)) return peer === undefined ? undefined : peerKey(peer)
  const hops = forwardedHops(headers)
  if ("hops" in trust) {
    const chain = peer === undefined ? hops : [...hops, peer]
    const index = peer === undefined ? chain.length - trust.hops : chain.length - 1 - trust.hops
    return validFrom(chain, index)
  }
  if (peer === undefined) return undefined
  const chain = [...hops, peer]
  for (let i = chain.length - 1; i >= 0; i--) {
    const bytes = parseAddress(chain[i]!)
    // Garbage where a hop should be: the hop to its right (a trusted proxy) wrote it, so that hop
    // is the last one we can vouch for.
    if (!bytes) return validFrom(chain, i + 1)
    if (!trust.ranges.some((r) => inRange(bytes, r))) return keyOf(bytes)
  }
  return validFrom(chain, 0)
}
