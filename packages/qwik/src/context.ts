/**
 * The per-request state of the binding, kept in Qwik's `sharedMap` so the plugin's `onRequest`,
 * loaders, actions and endpoints of one request share it: the configuration (built once per
 * request) and the session (read at most once, and only when something asks for it).
 */
import type { QRL } from "@builder.io/qwik"
import type { RequestEventCommon } from "@builder.io/qwik-city"
import { cookieHeader } from "./cookies.js"
import { isAuthPath, normalizeBasePath } from "@authlib/core/internal"
import { loadConfig, type QwikAuthConfig, type QwikAuthConfigFn } from "./env.js"
import type { GetSessionResult } from "./types.js"

export interface AuthContext {
  readonly config: QwikAuthConfig
  /** `config.basePath` normalised as core does (`""` at the root, no trailing slash). */
  readonly basePath: string
  /** The session read of this request, once something has asked for it. */
  session?: GetSessionResult
}

const CONTEXT_KEY = "@authlib/qwik:context"

/** The request's context, built from `configQrl` on first use. */
export async function authContext(ev: RequestEventCommon, configQrl: QRL<QwikAuthConfigFn>): Promise<AuthContext> {
  let pending = ev.sharedMap.get(CONTEXT_KEY) as Promise<AuthContext> | undefined
  if (!pending) {
    pending = loadConfig(configQrl, ev).then((config) => ({
      config,
      basePath: normalizeBasePath(config.basePath),
    }))
    ev.sharedMap.set(CONTEXT_KEY, pending)
  }
  return pending
}

/** The request's context for the standalone helpers, which need `onRequest` to have run first. */
export async function requireContext(ev: RequestEventCommon, caller: string): Promise<AuthContext> {
  const pending = ev.sharedMap.get(CONTEXT_KEY) as Promise<AuthContext> | undefined
  if (!pending) {
    throw new Error(
      `${caller}() found no authlib configuration for this request: export onRequest from QwikAuth$ in src/routes/plugin@auth.ts`,
    )
  }
  return pending
}

/**
 * What core needs to know beyond the request: the peer address Qwik City's adapter read from the
 * socket (`ev.clientConn.ip`), for per-client rate limits. Forwarding headers are judged by core,
 * under `rateLimit.trustedProxies`, never here.
 */
export function requestOptions(ev: RequestEventCommon): { clientAddress?: string } {
  const ip = ev.clientConn?.ip
  return typeof ip === "string" && ip !== "" ? { clientAddress: ip } : {}
}

/** Whether `pathname` is authlib's under the context's (normalised) `basePath`: core's one rule. */
export const isUnderBasePath: (pathname: string, basePath: string) => boolean = isAuthPath

/**
 * Headers of the incoming request copied onto core's in-process request as they came (absent
 * stays absent), never made up:
 * - `Origin` / `Sec-Fetch-Site`: an action posted from another site reaches core with that
 *   site's values, and core's same-origin check refuses it even where Qwik City's own origin check
 *   is off or does not apply (a non-form content type);
 * - `Sec-Fetch-Mode`: a background fetch (a loader's data prefetch, a client navigation) whose
 *   session cookie reads as none leaves it in place, since a newer one may have replaced it
 *   meanwhile; a navigation clears it;
 * - `X-Forwarded-Host` / `-Proto`: core derives the app's origin (and so the `__Secure-` cookie
 *   names) from them under `trustHost`, so in-process calls see the origin the browser's own
 *   requests to `basePath` see.
 */
const FORWARDED = [
  "origin",
  "sec-fetch-site",
  "sec-fetch-mode",
  "x-forwarded-host",
  "x-forwarded-proto",
  "user-agent",
  "accept-language",
  "x-forwarded-for",
] as const

/**
 * A request for core, made in-process: `{basePath}/{action}` on the app's origin, carrying the
 * request's cookies (as updated by earlier internal calls) and the browser's own `Origin` and
 * `Sec-Fetch-Site`, so core's CSRF and origin checks judge the browser's request, not the binding.
 */
export function internalRequest(
  ev: RequestEventCommon,
  ctx: AuthContext,
  action: string,
  init: { method?: "GET" | "POST"; body?: URLSearchParams; search?: URLSearchParams } = {},
): Request {
  const url = new URL(`${ctx.basePath}/${action}`, ev.url.origin)
  if (init.search) url.search = init.search.toString()
  // `X-Auth-Return-Redirect`: a refusal core cannot express as a redirect (rate limits) comes
  // back as JSON the binding can read, not as an error page.
  const headers = new Headers({ cookie: cookieHeader(ev), accept: "application/json", "x-auth-return-redirect": "1" })
  for (const name of FORWARDED) {
    const value = ev.request.headers.get(name)
    if (value !== null) headers.set(name, value)
  }
  if (init.method === "POST") headers.set("content-type", "application/x-www-form-urlencoded")
  return new Request(url, { method: init.method ?? "GET", headers, ...(init.body ? { body: init.body } : {}) })
}
