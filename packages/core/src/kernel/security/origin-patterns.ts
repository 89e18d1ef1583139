/**
 * The origins a redirect proxy may forward an OAuth callback to (`redirectProxyAllowedOrigins`,
 * env `AUTH_REDIRECT_PROXY_ALLOWED_ORIGINS`). The callback carries the user's authorization code:
 * forwarding it anywhere else hands the code, and with it the user's account, to whoever runs that
 * origin. So the list is explicit, and a `*` stands for part of one DNS label only:
 *
 * - `https://app.example` — exactly that origin (scheme, host and port must all match);
 * - `https://*.example.app` — `https://pr-1.example.app`, never `https://a.b.example.app` or
 *   `https://example.app`;
 * - `https://myapp-*-team.vercel.app` — Vercel-style preview names.
 */

import type { OriginPattern } from "../types/origin-pattern.js"

export type { OriginPattern } from "../types/origin-pattern.js"

const SCHEME = /^(https?):\/\//

/** Characters a host label may hold; `*` is the wildcard and stands for one or more of them. */
const LABEL = /^(?:[a-z0-9-]|\*)+$/

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
}

/**
 * Compiles `source`, or returns the reason it is not a pattern. A pattern is a bare origin: a
 * scheme (`http` or `https`), a host whose labels may contain `*`, an optional port, no path.
 */
export function compileOriginPattern(source: string): OriginPattern | string {
  const text = source.trim().toLowerCase().replace(/\/$/, "")
  const scheme = SCHEME.exec(text)
  if (!scheme) return `"${source}" must start with https:// or http://`
  const rest = text.slice(scheme[0].length)
  const colon = rest.lastIndexOf(":")
  const host = colon === -1 ? rest : rest.slice(0, colon)
  const port = colon === -1 ? "" : rest.slice(colon + 1)
  if (port !== "" && !/^\d{1,5}$/.test(port)) return `"${source}" has an invalid port`
  const labels = host.split(".")
  if (host === "" || labels.some((l) => l === "" || !LABEL.test(l))) return `"${source}" must be an origin (scheme and host, no path), with "*" only inside host labels`
  // `https://*.app` or `https://*.co.uk` would match every site under a public suffix.
  if (labels.slice(-2).some((l) => l.includes("*")) || (labels.length < 3 && host.includes("*")))
    return `"${source}" puts a wildcard in the last two labels of its host: name your own domain (https://*.example.app)`
  if (!host.includes("*")) {
    // A plain origin: compare its serialised form, as `URL` writes it (default port dropped).
    const exact = URL.canParse(text) ? new URL(text).origin : undefined
    if (!exact) return `"${source}" is not a valid origin`
    return { source, test: (origin) => origin === exact }
  }
  const defaultPort = (scheme[1] === "https" && port === "443") || (scheme[1] === "http" && port === "80")
  const portPart = port === "" || defaultPort ? "" : `:${port}`
  const hostPattern = labels.map((l) => l.split("*").map(escapeRegExp).join("[a-z0-9-]+")).join("\\.")
  const regex = new RegExp(`^${escapeRegExp(scheme[1]!)}://${hostPattern}${escapeRegExp(portPart)}$`)
  return { source, test: (origin) => regex.test(origin) }
}

/** Splits the env value (commas or whitespace between entries). */
export function parseOriginList(value: string): string[] {
  return value.split(/[\s,]+/).filter((s) => s !== "")
}

/** Whether `url`'s origin is on the list. */
export function originAllowed(url: URL, patterns: readonly OriginPattern[]): boolean {
  const { origin } = url
  return patterns.some((p) => p.test(origin))
}
