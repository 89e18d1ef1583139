/**
 * The demo's embedded defaults are for one machine: the inbox shows every magic link it received,
 * the Demo IdP and the mail server listen on loopback only, and `trustHost` lets the request's
 * Host header choose the origin of the links core writes. This module holds the rules that keep
 * that safe when someone starts the demo with `HOST=0.0.0.0`:
 *
 * - without `WEBAUTH_URL`, the app must listen on loopback (`startupProblem`), and answers only
 *   requests whose Host is a loopback name and that carry no `X-Forwarded-Host`/`-Proto`
 *   (`hostProblem`): a page on another site that resolves its name to 127.0.0.1 (DNS rebinding)
 *   or a forged Host can never pick where a sign-in link points;
 * - with `WEBAUTH_URL`, core takes every origin from it, and the inbox is still only shown to a
 *   browser on this machine talking to the app directly (`isLocalRequest`).
 */

type Headers = { get(name: string): string | null }

const LOOPBACK_NAMES = new Set(["localhost", "127.0.0.1", "[::1]", "::1"])

/** Whether `host` (a host name or IP, `HOST` or a URL's hostname) means this machine only. */
export function isLoopbackHost(host: string): boolean {
  const name = host.trim().toLowerCase()
  return LOOPBACK_NAMES.has(name) || name.endsWith(".localhost") || /^127(\.\d{1,3}){3}$/.test(name)
}

/** Whether a socket's remote address is loopback (IPv4, IPv6 or IPv4-mapped IPv6). */
export function isLoopbackAddress(ip: string | undefined): boolean {
  if (!ip) return false
  const address = ip.toLowerCase().replace(/^::ffff:/, "")
  return address === "::1" || /^127(\.\d{1,3}){3}$/.test(address)
}

/** The host name of a `Host` header value (without the port), or undefined when malformed. */
export function hostNameOf(hostHeader: string | null): string | undefined {
  if (!hostHeader) return undefined
  try {
    return new URL(`http://${hostHeader}`).hostname
  } catch {
    return undefined
  }
}

/** The port `PORT` names (3000 when unset or empty; 0 picks a free one), or undefined when it names none. */
export function listenPort(value: string | undefined): number | undefined {
  if (value === undefined || value === "") return 3000
  return /^\d{1,5}$/.test(value) && Number(value) <= 65535 ? Number(value) : undefined
}

/**
 * Why the demo must not start with this environment, or undefined when it may: a `PORT` that is no
 * port number, or `WEBAUTH_URL` unset (origins then come from the Host header: acceptable only
 * when nobody else can connect) on a non-loopback `HOST`.
 */
export function startupProblem(env: { HOST?: string | undefined; WEBAUTH_URL?: string | undefined; PORT?: string | undefined }): string | undefined {
  if (listenPort(env.PORT) === undefined) return `PORT must be a port number (1 to 65535), not "${env.PORT}"`
  const host = env.HOST || "127.0.0.1"
  if (env.WEBAUTH_URL) {
    try {
      new URL(env.WEBAUTH_URL)
      return undefined
    } catch {
      return `WEBAUTH_URL is not a URL: "${env.WEBAUTH_URL}"`
    }
  }
  if (isLoopbackHost(host)) return undefined
  return (
    `HOST=${host} would let other machines reach the demo, whose sign-in links would take their origin from ` +
    `the Host header. Set WEBAUTH_URL to the URL they use (for example WEBAUTH_URL=http://192.168.1.20:3000), ` +
    `or keep HOST=127.0.0.1 and reach the demo through an SSH tunnel (ssh -L 3000:127.0.0.1:3000 ...).`
  )
}

/**
 * Why a request must be refused while origins come from the Host header (no `WEBAUTH_URL`), or
 * undefined. Only loopback names are accepted, and no proxy headers core would honour.
 */
export function hostProblem(headers: Headers): string | undefined {
  const name = hostNameOf(headers.get("host"))
  if (!name || !isLoopbackHost(name)) return "This demo only answers to localhost and 127.0.0.1 unless WEBAUTH_URL is set."
  if (headers.get("x-forwarded-host") !== null || headers.get("x-forwarded-proto") !== null) {
    return "This demo takes no X-Forwarded-Host/-Proto unless WEBAUTH_URL is set."
  }
  return undefined
}

/**
 * Whether a request comes from a browser on this machine, talking to the app directly: a loopback
 * peer, a loopback Host, and no proxy in between (a local reverse proxy would forward others).
 */
export function isLocalRequest(ip: string | undefined, headers: Headers): boolean {
  const name = hostNameOf(headers.get("host"))
  const proxied = ["forwarded", "x-forwarded-for", "x-forwarded-host", "x-real-ip"].some((h) => headers.get(h) !== null)
  return isLoopbackAddress(ip) && name !== undefined && isLoopbackHost(name) && !proxied
}
