/**
 * The per-request context: the application origin (the configured `url` / `WEBAUTH_URL`, else the
 * request's own, honouring `X-Forwarded-Host` / `-Proto` since `trustHost` is required), the action
 * URL prefix, the cookie set for a secure or plain origin, and the request's empty memo slots.
 */
import type { ResolvedConfig } from "../types/resolved-config.js"
import type { AuthRequest, Context } from "../types/http.js"

function firstValue(header: string | null): string | undefined {
  const value = header?.split(",")[0]?.trim()
  return value ? value : undefined
}

/** The application origin: `url` when configured, else the request's (with trusted proxy headers). */
function originOf(req: AuthRequest, config: ResolvedConfig): string {
  if (config.appUrl) return config.appUrl.origin
  const host = firstValue(req.headers.get("x-forwarded-host"))
  // Only a web scheme: `javascript` or `foo` would give the opaque origin "null", and every link
  // and redirect built on it would throw.
  const forwarded = firstValue(req.headers.get("x-forwarded-proto"))?.toLowerCase()
  const proto = forwarded === "https" || forwarded === "http" ? forwarded : undefined
  if (!host && !proto) return req.url.origin
  try {
    return new URL(`${proto ?? req.url.protocol.replace(":", "")}://${host ?? req.url.host}`).origin
  } catch {
    return req.url.origin
  }
}

export function contextOf(req: AuthRequest, config: ResolvedConfig): Context {
  const origin = originOf(req, config)
  const secure = config.useSecureCookies ?? origin.startsWith("https:")
  return { config, origin, actionBase: `${origin}${config.basePath}`, secure, cookies: config.cookies(secure), memo: {} }
}

