/**
 * What a session records about the client that started it, for a user telling their devices apart
 * (`listSessions`): a browser and system name from the `User-Agent` header, and the client's
 * network. Both are chosen from fixed vocabularies or rebuilt from parsed numbers, never copied
 * from the request, so a stored value is always short and display-safe whatever a client sends.
 */
import { clientKeyOf, networkOfKey } from "../rate-limit/client-address.js"
import type { AuthRequest, Context } from "../types/http.js"

/** Only the start of the header is read: every token below sits in its first few hundred characters. */
const MAX_UA_READ = 512

/** Browser families, most specific first (Edge and Opera also say "Chrome"; Chrome also says "Safari"). */
const BROWSERS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\bEdg(?:e|A|iOS)?\//, "Edge"],
  [/\bOPR\/|\bOpera\b/, "Opera"],
  [/\bSamsungBrowser\//, "Samsung Internet"],
  [/\bFirefox\/|\bFxiOS\//, "Firefox"],
  [/\bCriOS\/|(?:\b|Headless)Chrom(?:e|ium)\//, "Chrome"],
  [/\bVersion\/[\d.]+.*\bSafari\//, "Safari"],
  [/^curl\//, "curl"],
  [/\bnode(?:-fetch)?\b|\bundici\b/i, "Node.js"],
]

/** Operating systems, most specific first (Android also says "Linux"; iOS also says "Mac OS X"). */
const SYSTEMS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\bAndroid\b/, "Android"],
  [/\biPhone\b|\biPod\b/, "iOS"],
  [/\biPad\b/, "iPadOS"],
  [/\bCrOS\b/, "ChromeOS"],
  [/\bWindows\b/, "Windows"],
  [/\bMac OS X\b|\bMacintosh\b/, "macOS"],
  [/\bLinux\b|\bX11\b/, "Linux"],
]

const nameOf = (table: ReadonlyArray<readonly [RegExp, string]>, ua: string) => table.find(([pattern]) => pattern.test(ua))?.[1]

/** Recent User-Agents (their first `MAX_UA_READ` characters) and their descriptions; emptied when full, so memory stays bounded. */
const described = new Map<string, string | null>()
const DESCRIBED_MAX = 256

/**
 * "Firefox on Linux", "Chrome on Android", "Safari", "Unknown browser on Windows" or, with no usable
 * header, null. The words come from the tables above only.
 */
export function describeClient(userAgent: string | null): string | null {
  if (!userAgent) return null
  const ua = userAgent.slice(0, MAX_UA_READ)
  // A server sees the same few User-Agents over and over: their descriptions are remembered.
  const known = described.get(ua)
  if (known !== undefined) return known
  if (described.size >= DESCRIBED_MAX) described.clear()
  const description = describe(ua)
  described.set(ua, description)
  return description
}

function describe(ua: string): string | null {
  const browser = nameOf(BROWSERS, ua)
  const system = nameOf(SYSTEMS, ua)
  if (!browser && !system) return null
  return system ? `${browser ?? "Unknown browser"} on ${system}` : browser!
}

/**
 * The client's network, coarse on purpose: "203.0.113.0/24" for IPv4, "2001:db8:1:2::/64" for IPv6,
 * or null without a usable address. The address is the one rate limits key on (the peer, or the
 * right-most untrusted hop behind declared proxies).
 */
export function clientNetworkOf(req: AuthRequest, ctx: Context): string | null {
  const key = clientKeyOf(req.clientAddress, req.headers, ctx.config.rateLimit?.trust)
  if (key === undefined) return null
  // The same network the limiter keys an identifier's attempts by (an IPv4 /24, an IPv6 /64).
  return key.endsWith("/64") || dotsIn(key) === 3 ? networkOfKey(key) : null
}

/** How many `.` `key` holds (an IPv4 key holds three), without splitting it into an array per sign-in. */
function dotsIn(key: string): number {
  let dots = 0
  for (let i = key.indexOf("."); i >= 0; i = key.indexOf(".", i + 1)) dots++
  return dots
}
