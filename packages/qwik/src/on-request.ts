/**
 * The plugin's request handler: requests under `basePath` go to core and core's response goes
 * back to the browser; every other request only gets the per-request context, so loaders can read
 * the session later (lazily, in-process).
 */
import { authResult, toResponse, wantsRedirectAsJson } from "@authlib/core/internal"
import type { AuthResult } from "@authlib/core"
import type { QRL } from "@builder.io/qwik"
import type { RequestEventCommon } from "@builder.io/qwik-city"
import { authContext, isUnderBasePath, requestOptions } from "./context.js"
import { applyCookies } from "./cookies.js"
import type { QwikAuthConfigFn } from "./env.js"

type RedirectCode = Parameters<RequestEventCommon["redirect"]>[0]
const REDIRECTS: readonly number[] = [300, 301, 302, 303, 305, 307, 308]

/**
 * Sends core's result through Qwik City: its cookies (objects) through `ev.cookie` with their
 * attributes, then the rest as core's own `Response` would carry it: redirects through
 * `ev.redirect` with core's status, anything else (pages, JSON) through `ev.send` with core's
 * status, headers and body.
 */
export function sendAuthResult(ev: RequestEventCommon, result: AuthResult): void {
  applyCookies(ev, result.cookies)
  const res = toResponse({ ...result, cookies: [] }, wantsRedirectAsJson(ev.request))
  const location = res.headers.get("location")
  if (location !== null && REDIRECTS.includes(res.status)) {
    res.headers.forEach((value, name) => {
      if (name !== "location") ev.headers.set(name, value)
    })
    throw ev.redirect(res.status as RedirectCode, location)
  }
  ev.send(res)
}

/** Builds the `onRequest` of `QwikAuth$`. */
export function createOnRequest(configQrl: QRL<QwikAuthConfigFn>): (ev: RequestEventCommon) => Promise<void> {
  return async (ev) => {
    const ctx = await authContext(ev, configQrl)
    if (!isUnderBasePath(ev.url.pathname, ctx.basePath)) return
    sendAuthResult(ev, await authResult(ev.request, ctx.config, requestOptions(ev)))
  }
}
