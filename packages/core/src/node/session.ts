/// <reference types="node" />
/**
 * `getSession(req, config, res?)`: the session of a Node request, as `GET {basePath}/session`
 * answers it (same callbacks, events and sliding refresh). With `res`, a refreshed session cookie
 * is appended to the response. The configuration is completed from `process.env` as
 * `toNodeHandler` does. Throws the configuration's error (the one `/auth/*` logs: what is
 * missing and how to set it) when the configuration is broken; inside `toNodeHandler`'s app
 * callback that becomes a 500 answer, never a crash.
 */
import { normalizeBasePath } from "../kernel/config/base-path.js"
import type { IncomingMessage, ServerResponse } from "node:http"
import type { AuthConfig, Session } from "../kernel/types/config.js"
import { resolveConfig } from "../kernel/config/resolve.js"
import { configured } from "../registry.js"
import { Configuration } from "../kernel/errors/errors.js"
import { withEnvDefaults } from "./env.js"
import { IncomingRequest } from "../kernel/http/incoming.js"
import { answerParts } from "../kernel/http/answer.js"
import type { ResponseParts } from "../kernel/http/to-response.js"

export async function getSession(req: IncomingMessage, appConfig: AuthConfig, res?: ServerResponse): Promise<Session | null> {
  const config = withEnvDefaults(appConfig)
  // A broken configuration throws the error the routes log (what is missing and how to set it),
  // not a bare "answered 500".
  const resolved = resolveConfig(configured(config))
  if (resolved.error) throw resolved.error
  const basePath = normalizeBasePath(config.basePath)
  const origin = config.url ? new URL(String(config.url)).origin : `http://${req.headers.host ?? "localhost"}`
  const headers = new Headers()
  for (const name of ["cookie", "host", "x-forwarded-host", "x-forwarded-proto", "x-forwarded-for", "forwarded", "authorization"]) {
    const value = req.headers[name]
    if (typeof value === "string") headers.set(name, value)
  }
  const clientAddress = req.socket?.remoteAddress
  // Core's answer as parts: no `Request` or `Response` is made for a session read (kernel/http/incoming.ts).
  const { status, body, cookies } = sessionAnswer(await answerParts(new IncomingRequest(new URL(`${origin}${basePath}/session`), "GET", headers, undefined), resolved, clientAddress))
  if (status !== 200) {
    throw new Configuration(`GET ${basePath}/session answered ${status}`, { code: "SESSION_ROUTE_FAILED", cause: { status } })
  }
  if (res && cookies.length) {
    const existing = res.getHeader("set-cookie")
    const before = existing === undefined ? [] : Array.isArray(existing) ? existing.map(String) : [String(existing)]
    res.setHeader("set-cookie", [...before, ...cookies])
  }
  return JSON.parse(body) as Session | null
}

/** What `getSession` reads of the session route's answer: its status, body and `Set-Cookie` values in order. */
function sessionAnswer(parts: ResponseParts): { status: number; body: string; cookies: string[] } {
  const { headers, moreCookies } = parts
  const cookies = Array.isArray(headers)
    ? headers.flatMap(([name, value]) => (name.toLowerCase() === "set-cookie" ? [value] : []))
    : headers["set-cookie"] === undefined ? [] : [headers["set-cookie"]]
  if (moreCookies !== undefined) cookies.push(...moreCookies)
  return { status: parts.status, body: parts.body ?? "null", cookies }
}
