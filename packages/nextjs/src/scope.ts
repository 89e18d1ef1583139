/**
 * One request as the binding sees it: the configuration for it, the incoming headers, a cookie jar
 * and where the cookies core sets go. Every in-process call to core in the request reads the jar,
 * so a CSRF cookie set by the first call is the one the next presents, and a session re-issued by
 * a sign-in is the one a later `auth()` reads. The session read is kept on the scope: one decode
 * (or one query) per request, until something changes the session.
 *
 * Two kinds of scope, same shape: `fromNextRequest` (route handlers, the proxy/middleware: the
 * cookies go on the binding's `Response`) and `fromNextHeaders` in `headers-scope.ts` (server
 * components and server actions, through `next/headers`).
 */
import type { Cookie, Session } from "@authlib/core"
import { encodeCookieValue, normalizeBasePath, parseCookiePairs } from "@authlib/core/internal"
import type { NextAuthConfig } from "./config.js"

export interface RequestScope {
  readonly config: NextAuthConfig
  /** `config.basePath` normalised as core does (`""` at the root, no trailing slash). */
  readonly basePath: string
  /** The headers of the browser's request. */
  readonly headers: Headers
  /** The origin of the in-process requests: `config.url`'s when set, else the request's. */
  readonly origin: string
  /** The request's cookies as core should see them now, in wire form. */
  readonly jar: Map<string, string>
  /** The session read of this request, once something has asked for it. */
  session?: Promise<Session | null>
  /** Where the cookies core answered go (the response), after the jar has taken them. */
  readonly emit: (cookies: readonly Cookie[]) => void
}

const asIs = (value: string): string => value

/** A jar from a `Cookie` request header, values kept in wire form (nothing decoded, so nothing encoded twice). */
export function jarOf(cookieHeader: string | null): Map<string, string> {
  return new Map(Object.entries(parseCookiePairs(cookieHeader ?? "", asIs)))
}

function expired(options: Cookie["options"]): boolean {
  if (options.maxAge !== undefined) return options.maxAge <= 0
  return options.expires !== undefined && options.expires.getTime() <= Date.now()
}

/**
 * Applies cookies core answered: to the jar (later calls in this request see them), then to the
 * response. Unless the call was the session read itself (whose cookies only refresh the session it
 * answered), the remembered session read is dropped: a later `auth()` asks core again.
 */
export function applyCookies(scope: RequestScope, cookies: readonly Cookie[] | undefined, fromSessionRead = false): void {
  if (!cookies?.length) return
  for (const cookie of cookies) {
    if (expired(cookie.options)) scope.jar.delete(cookie.name)
    else scope.jar.set(cookie.name, cookie.value ? encodeCookieValue(cookie.value) : "")
  }
  if (!fromSessionRead) scope.session = undefined
  scope.emit(cookies)
}

/** The origin for in-process requests: the configured `url`'s (so a forged `Host` changes nothing), else the request's. */
export function originOf(config: NextAuthConfig, requestOrigin: string): string {
  return config.url ? new URL(String(config.url)).origin : requestOrigin
}

/**
 * The origin Next received the request on: `Host`, with `X-Forwarded-Proto`'s scheme (which `next
 * start` sets). Not the request's URL: Next builds that from its own listening address
 * (`localhost` for a server bound to `127.0.0.1`), which is not the origin the browser used.
 */
export function requestOrigin(headers: Headers): string {
  const scheme = headers.get("x-forwarded-proto")?.split(",")[0]?.trim() === "https" ? "https" : "http"
  return `${scheme}://${headers.get("host") ?? "localhost"}`
}

/** A scope for a request the binding holds (route handler, proxy/middleware); `emit` collects for its response. */
export function fromNextRequest(request: Request, config: NextAuthConfig, emit: (cookies: readonly Cookie[]) => void): RequestScope {
  return {
    config,
    basePath: normalizeBasePath(config.basePath),
    headers: request.headers,
    origin: originOf(config, requestOrigin(request.headers)),
    jar: jarOf(request.headers.get("cookie")),
    emit,
  }
}
