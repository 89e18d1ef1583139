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
import { Auth } from "../index.js"
import type { AuthConfig, Session } from "../kernel/types/config.js"
import { resolveConfig } from "../kernel/config/resolve.js"
import { configured } from "../registry.js"
import { Configuration } from "../kernel/errors/errors.js"
import { withEnvDefaults } from "./env.js"

export async function getSession(req: IncomingMessage, appConfig: AuthConfig, res?: ServerResponse): Promise<Session | null> {
  const config = withEnvDefaults(appConfig)
  // A broken configuration throws the error the routes log (what is missing and how to set it),
  // not a bare "answered 500".
  const { error } = resolveConfig(configured(config))
  if (error) throw error
  const basePath = normalizeBasePath(config.basePath)
  const origin = config.url ? new URL(String(config.url)).origin : `http://${req.headers.host ?? "localhost"}`
  const headers = new Headers()
  for (const name of ["cookie", "host", "x-forwarded-host", "x-forwarded-proto", "x-forwarded-for", "forwarded", "authorization"]) {
    const value = req.headers[name]
    if (typeof value === "string") headers.set(name, value)
  }
  const clientAddress = req.socket?.remoteAddress
  const response = await Auth(new Request(`${origin}${basePath}/session`, { headers }), config, clientAddress ? { clientAddress } : {})
  if (response.status !== 200) {
    throw new Configuration(`GET ${basePath}/session answered ${response.status}`, { code: "SESSION_ROUTE_FAILED", cause: { status: response.status } })
  }
  const cookies = response.headers.getSetCookie()
  if (res && cookies.length) {
    const existing = res.getHeader("set-cookie")
    const before = existing === undefined ? [] : Array.isArray(existing) ? existing.map(String) : [String(existing)]
    res.setHeader("set-cookie", [...before, ...cookies])
  }
  return (await response.json()) as Session | null
}
