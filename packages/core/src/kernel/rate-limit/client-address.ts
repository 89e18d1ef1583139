/**
 * Who the client is, for per-client rate limits. A Web `Request` carries no peer address, so the
 * binding hands in the socket's; `X-Forwarded-For` (or, without it, RFC 7239 `Forwarded`) counts
 * only when the app declares the proxies in front of it, because any client can send those headers.
 *
 * A key is a dotted-quad IPv4 address or the /64 network of an IPv6 address in RFC 5952 text
 * ("2001:db8::/64", the form `ip -6 route` and firewalls print): one host or household is usually
 * given a whole /64, so keying single IPv6 addresses would hand each client 2^64 fresh counters.
 *
 * Hostile headers cost bounded work: proxies append on the right, so entries are read from the
 * right end, at most `MAX_HOPS` of them, and an over-long entry is malformed without being copied.
 */
import type { Cidr, ProxyTrust, TrustedProxies } from "../types/rate-limit.js"

export type { ProxyTrust, TrustedProxies } from "../types/rate-limit.js"

/** An address: 4 bytes (IPv4, including IPv4-mapped IPv6) or 16 bytes (IPv6). */
type Bytes = Uint8Array

/** Entries read from the right end of a forwarding header; anything further left is never read. */
const MAX_HOPS = 64
/** The longest address text, with brackets, port and zone, is far shorter. */
const MAX_ENTRY_LENGTH = 100
/** A `Forwarded` element also holds `by`, `proto` and `host` (up to 253 characters): room for all. */
const MAX_ELEMENT_LENGTH = 1024

const OCTET = /^(?:0|[1-9][0-9]{0,2})$/
const HEXTET = /^[0-9a-fA-F]{1,4}$/
const PORT = /^(?:[0-9]{1,5}|_[0-9A-Za-z._-]+)$/
const ZONE = /^[0-9A-Za-z._~-]+$/
const PREFIX = /^(?:0|[1-9][0-9]{0,2})$/

function parseIPv4(text: string): Bytes | undefined {
  const parts = text.split(".")
  if (parts.length !== 4) return undefined
  const out = new Uint8Array(4)
  for (let i = 0; i < 4; i++) {
    const part = parts[i]!
    // "010" is octal to inet_aton and decimal elsewhere: text that parsers read differently is no key.
    if (!OCTET.test(part) || Number(part) > 255) return undefined
    out[i] = Number(part)
  }
  return out
}

/** The 16-bit groups on one side of "::"; `dotted`: the last one may be an embedded IPv4 address. */
function hextets(text: string, dotted: boolean): number[] | undefined {
  if (text === "") return []
  const parts = text.split(":")
  const out: number[] = []
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!
    const v4 = dotted && i === parts.length - 1 && part.includes(".") ? parseIPv4(part) : undefined
    if (v4) out.push((v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!)
    else if (HEXTET.test(part)) out.push(parseInt(part, 16))
    else return undefined
  }
  return out
}

function parseIPv6(text: string): Bytes | undefined {
  const gap = text.indexOf("::")
  if (gap >= 0 && text.indexOf("::", gap + 1) >= 0) return undefined
  const head = hextets(gap < 0 ? text : text.slice(0, gap), gap < 0)
  const tail = gap < 0 ? [] : hextets(text.slice(gap + 2), true)
  if (!head || !tail) return undefined
  const zeros = 8 - head.length - tail.length
  // Without "::" all eight groups are written; "::" stands for at least one zero group.
  if (gap < 0 ? zeros !== 0 : zeros < 1) return undefined
  const out = new Uint8Array(16)
  const put = (group: number, at: number) => {
    out[at * 2] = group >> 8
    out[at * 2 + 1] = group & 0xff
  }
  head.forEach(put)
  tail.forEach((group, i) => put(group, 8 - tail.length + i))
  return out
}

/** A zone ("fe80::1%eth0") names the sender's interface, not the host: it is dropped. */
function parseZonedIPv6(text: string): Bytes | undefined {
  const zone = text.indexOf("%")
  if (zone < 0) return parseIPv6(text)
  return ZONE.test(text.slice(zone + 1)) ? parseIPv6(text.slice(0, zone)) : undefined
}

/** IPv4-mapped IPv6 (::ffff:a.b.c.d) is the IPv4 host: one client, one key, whichever stack it used. */
function unmapped(bytes: Bytes): Bytes {
  if (bytes.length === 4 || bytes[10] !== 0xff || bytes[11] !== 0xff) return bytes
  for (let i = 0; i < 10; i++) if (bytes[i] !== 0) return bytes
  return bytes.subarray(12)
}

/** Space and tab only: what HTTP puts around list entries. */
function trimOws(text: string): string {
  let start = 0
  let end = text.length
  while (start < end && (text[start] === " " || text[start] === "\t")) start++
  while (end > start && (text[end - 1] === " " || text[end - 1] === "\t")) end--
  return text.slice(start, end)
}

const isPort = (text: string) => PORT.test(text) && (text[0] === "_" || Number(text) <= 65535)

/** One address as sockets and headers write it: "192.0.2.1", "192.0.2.1:8080", "[2001:db8::1]:443", "fe80::1%eth0". */
function parseAddress(value: string): Bytes | undefined {
  if (value.length > MAX_ENTRY_LENGTH) return undefined
  const text = trimOws(value)
  let bytes: Bytes | undefined
  if (text.startsWith("[")) {
    // Brackets are how IPv6 carries a port (RFC 3986), so only IPv6 goes inside them.
    const close = text.indexOf("]")
    const rest = close < 0 ? "" : text.slice(close + 1)
    if (close < 0 || (rest !== "" && !(rest[0] === ":" && isPort(rest.slice(1))))) return undefined
    bytes = parseZonedIPv6(text.slice(1, close))
  } else {
    const colon = text.indexOf(":")
    // A single colon is never IPv6 (that needs at least two): it is IPv4 with a port.
    if (colon < 0) bytes = parseIPv4(text)
    else if (text.indexOf(":", colon + 1) >= 0) bytes = parseZonedIPv6(text)
    else if (isPort(text.slice(colon + 1))) bytes = parseIPv4(text.slice(0, colon))
  }
  return bytes && unmapped(bytes)
}

function keyOf(bytes: Bytes): string {
  if (bytes.length === 4) return `${bytes[0]}.${bytes[1]}.${bytes[2]}.${bytes[3]}`
  const groups: string[] = []
  for (let i = 0; i < 8; i += 2) groups.push(((bytes[i]! << 8) | bytes[i + 1]!).toString(16))
  // RFC 5952 text of the network: its four zero groups after /64 are a longer zero run than any
  // among the first four, so "::" replaces them together with the zero groups just before them.
  while (groups.length > 0 && groups[groups.length - 1] === "0") groups.pop()
  return `${groups.join(":")}::/64`
}

/**
 * The rate-limit key of one address: "203.0.113.7" for IPv4 (IPv4-mapped IPv6 included), or the
 * /64 network for IPv6 in RFC 5952 text ("2001:db8:1:2::/64", "2001:db8::/64", "::/64").
 * Accepts brackets, a port (digits up to 65535, or RFC 7239's obfuscated `_name`), an IPv6 zone
 * (dropped) and surrounding spaces. Undefined when malformed, including IPv4 that some parser would
 * read differently ("010.0.0.1", "127.1") and text over 100 characters.
 */
export function addressKey(value: string): string | undefined {
  const bytes = parseAddress(value)
  return bytes ? keyOf(bytes) : undefined
}

/** Recent peers and their keys: a server sees the same addresses over and over (the limiter's budget). */
const peerKeys = new Map<string, string | undefined>()
const PEER_KEYS = 4096

/** `addressKey(peer)`, remembered; emptied when full, so memory stays bounded whatever peers come. */
function peerKey(peer: string): string | undefined {
  const known = peerKeys.get(peer)
  if (known !== undefined || peerKeys.has(peer)) return known
  const key = addressKey(peer)
  if (peer.length > MAX_ENTRY_LENGTH) return key
  if (peerKeys.size >= PEER_KEYS) peerKeys.clear()
  peerKeys.set(peer, key)
  return key
}

/** Recent client keys and their networks (bounded like `peerKeys`). */
const networks = new Map<string, string>()

/**
 * The network of a client key (see {@link addressKey}): "203.0.113.0/24" for an IPv4 key; an IPv6
 * key is its /64 already. What the per-identifier limits keep apart (one household, office or
 * cloud subnet is one network), and what a session records as the client's network.
 */
export function networkOfKey(key: string): string {
  if (key.endsWith("/64")) return key
  // A server sees the same clients over and over: their networks are remembered like their keys.
  let network = networks.get(key)
  if (network === undefined) {
    network = `${key.slice(0, key.lastIndexOf("."))}.0/24`
    if (networks.size >= PEER_KEYS) networks.clear()
    networks.set(key, network)
  }
  return network
}

function parseCidr(entry: string): Cidr | undefined {
  const slash = entry.indexOf("/")
  const text = slash < 0 ? entry : entry.slice(0, slash)
  // A range is written as a plain address: no brackets, port, zone or spaces.
  const parsed = text.includes(":") ? parseIPv6(text) : parseIPv4(text)
  if (!parsed) return undefined
  let prefix = parsed.length * 8
  if (slash >= 0) {
    const bits = entry.slice(slash + 1)
    if (!PREFIX.test(bits) || Number(bits) > prefix) return undefined
    prefix = Number(bits)
  }
  const bytes = unmapped(parsed)
  if (bytes.length === parsed.length) return { bytes, prefix }
  // Addresses are matched unmapped, so ::ffff:a.b.c.d/n can only ever meet IPv4: it is a.b.c.d/(n - 96).
  // Below /96 the range would reach outside the mapped block, which no IPv4 range expresses.
  return prefix >= 96 ? { bytes, prefix: prefix - 96 } : undefined
}

/** Whether `range` holds `bytes`; IPv6 ranges never hold IPv4 addresses (mapped ones included). */
function contains(range: Cidr, bytes: Bytes): boolean {
  if (bytes.length !== range.bytes.length) return false
  const whole = range.prefix >> 3
  for (let i = 0; i < whole; i++) if (bytes[i] !== range.bytes[i]) return false
  const bits = range.prefix & 7
  return bits === 0 || ((bytes[whole]! ^ range.bytes[whole]!) & (0xff00 >> bits) & 0xff) === 0
}

/** How a bad entry is named in an error: strings quoted, anything else by value or type. */
function describe(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value)
  if (typeof value === "function" || (typeof value === "object" && value !== null)) return `a ${typeof value}`
  return String(value)
}

/**
 * Compiles `trustedProxies` once, at config resolution. A hop count must be an integer >= 0; list
 * entries are IPv4 or IPv6 addresses or CIDR ranges (IPv4 /0-/32, IPv6 /0-/128; host bits past the
 * prefix are ignored). An IPv4-mapped range `::ffff:a.b.c.d/n` (n >= 96) is the IPv4 range
 * `a.b.c.d/(n - 96)`; IPv6 ranges such as `::/0` never match IPv4 clients. Hop counts above 64 act
 * as 64 (only the last 64 entries of a header are read).
 *
 * @throws RangeError naming the bad value, e.g. `trustedProxies: "10.0.0.0/33" is not an IP address or CIDR range`.
 */
export function compileTrustedProxies(value: TrustedProxies): ProxyTrust {
  if (typeof value === "number") {
    if (!Number.isInteger(value) || value < 0) throw new RangeError(`trustedProxies: ${value} is not a hop count (an integer >= 0)`)
    return Object.freeze({ hops: value, ranges: Object.freeze([]) })
  }
  if (!Array.isArray(value)) throw new RangeError(`trustedProxies: ${describe(value)} is neither a hop count nor a list of addresses and CIDR ranges`)
  const ranges = (value as readonly unknown[]).map((entry) => {
    const range = typeof entry === "string" ? parseCidr(entry) : undefined
    if (!range) throw new RangeError(`trustedProxies: ${describe(entry)} is not an IP address or CIDR range`)
    return range
  })
  return Object.freeze({ hops: undefined, ranges: Object.freeze(ranges) })
}

/**
 * Up to `limit` comma-separated entries of `header`, nearest hop first. Only the tail that holds
 * them is scanned; an entry longer than `maxLength` comes back as "" (malformed) without a copy.
 * Quotes are deliberately not honoured: an unterminated quote sent by a client must not swallow
 * the entries its proxies append after it, and no address contains a comma.
 */
function entriesFromRight(header: string, limit: number, maxLength: number): string[] {
  const out: string[] = []
  let end = header.length
  while (out.length < limit && end >= 0) {
    const comma = end > 0 ? header.lastIndexOf(",", end - 1) : -1
    out.push(end - comma - 1 > maxLength ? "" : header.slice(comma + 1, end))
    end = comma
  }
  return out
}

/** RFC 7239 quoted-string: a backslash escapes the next character; the closing quote ends the value. */
function unquote(value: string): string {
  if (value[0] !== '"') return value
  let out = ""
  for (let i = 1; i < value.length; i++) {
    if (value[i] === '"') return i === value.length - 1 ? out : ""
    if (value[i] === "\\") i++
    out += value[i] ?? ""
  }
  return ""
}

/** The `for=` value of one `Forwarded` element ("" without exactly one: an ambiguous element is no address). */
function forwardedFor(element: string): string {
  let found: string | undefined
  for (const pair of element.split(";")) {
    const eq = pair.indexOf("=")
    if (eq < 0 || trimOws(pair.slice(0, eq)).toLowerCase() !== "for") continue
    if (found !== undefined) return ""
    found = unquote(trimOws(pair.slice(eq + 1)))
  }
  return found ?? ""
}

/** Up to `limit` forwarded hops, nearest first: `X-Forwarded-For`, or `Forwarded` when there is none. */
function forwardedEntries(headers: Headers, limit: number): string[] {
  const xff = headers.get("x-forwarded-for")
  if (xff !== null) return entriesFromRight(xff, limit, MAX_ENTRY_LENGTH)
  const forwarded = headers.get("forwarded")
  return forwarded === null ? [] : entriesFromRight(forwarded, limit, MAX_ELEMENT_LENGTH).map(forwardedFor)
}

/**
 * N proxies: the client is the N-th forwarded entry from the right (the same element whether or
 * not the peer, the last proxy, is known), or the leftmost when there are fewer. A malformed one
 * falls back toward the peer: those entries were written by the proxies the app trusts.
 */
function byHopCount(peer: string | undefined, headers: Headers, hops: number): string | undefined {
  const entries = forwardedEntries(headers, Math.min(hops, MAX_HOPS))
  for (let i = entries.length - 1; i >= 0; i--) {
    const key = addressKey(entries[i]!)
    if (key !== undefined) return key
  }
  return peer === undefined ? undefined : peerKey(peer)
}

/**
 * From the peer leftwards while the hop is a trusted proxy: the first untrusted hop is the client.
 * Garbage, or the end of what is read, stops at the farthest trusted hop, the last one vouched for.
 */
function byRanges(peer: string, headers: Headers, ranges: readonly Cidr[]): string | undefined {
  const trusted = (bytes: Bytes) => ranges.some((range) => contains(range, bytes))
  let nearest = parseAddress(peer)
  if (!nearest) return undefined
  // An untrusted peer is the client: its headers are not even read.
  if (!trusted(nearest)) return keyOf(nearest)
  for (const entry of forwardedEntries(headers, MAX_HOPS)) {
    const bytes = parseAddress(entry)
    if (!bytes) break
    if (!trusted(bytes)) return keyOf(bytes)
    nearest = bytes
  }
  return keyOf(nearest)
}

/**
 * The client's rate-limit key (see {@link addressKey} for its form), or undefined when there is no
 * usable address. Without `trust`, or with a hop count of 0, only the peer counts and forwarding
 * headers are ignored. With a hop count N, the client is the entry N places left of the peer, the
 * leftmost when there are fewer. With ranges, the first hop left of the peer outside them is the
 * client; without a peer nothing can be verified: undefined. A malformed chosen entry falls back
 * to the nearest valid one on its right, so a client can neither go keyless nor pick another's key.
 *
 * `X-Forwarded-For` wins over `Forwarded` whenever it is present, so the proxies must write (or
 * strip) `X-Forwarded-For`; entries beyond the last 64 of a header are never read.
 */
export function clientKeyOf(peer: string | undefined, headers: Headers, trust: ProxyTrust | undefined): string | undefined {
  if (trust === undefined || trust.hops === 0) return peer === undefined ? undefined : peerKey(peer)
  if (trust.hops !== undefined) return byHopCount(peer, headers, trust.hops)
  return peer === undefined ? undefined : byRanges(peer, headers, trust.ranges)
}
