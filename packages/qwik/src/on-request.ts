/**
 * The plugin's request handler: requests under `basePath` go to core and core's response goes
 * back to the browser; every other request only gets the per-request context, so loaders can read
 * the session later (lazily, in-process).
 */
import { Auth } from "@authlib/core"
import type { QRL } from "@builder.io/qwik"
import type { RequestEventCommon } from "@builder.io/qwik-city"
import { authContext, isUnderBasePath } from "./context.js"
import { applySetCookies } from "./cookies.js"
import type { QwikAuthConfigFn } from "./env.js"

type RedirectCode = Parameters<RequestEventCommon["redirect"]>[0]
const REDIRECTS: readonly number[] = [300, 301, 302, 303, 305, 307, 308]

/** Headers of core's response other than Set-Cookie (which goes through `ev.cookie`). */
function plainHeaders(res: Response): Headers {
  const headers = new Headers(res.headers)
  headers.delete("set-cookie")
  return headers
}

/**
 * Sends core's response through Qwik City: every Set-Cookie through `ev.cookie` with its
 * attributes, redirects through `ev.redirect` with core's status, anything else (pages, JSON)
 * through `ev.send` with core's status, headers and body.
 */
export function sendAuthResponse(ev: RequestEventCommon, res: Response): void {
  applySetCookies(ev, res.headers.getSetCookie())
  const location = res.headers.get("location")
  if (location !== null && REDIRECTS.includes(res.status)) {
    plainHeaders(res).forEach((value, name) => {
      if (name !== "location") ev.headers.set(name, value)
    })
    throw ev.redirect(res.status as RedirectCode, location)
  }
  ev.send(new Response(res.body, { status: res.status, headers: plainHeaders(res) }))
}

/** Builds the `onRequest` of `QwikAuth$`. */
export function createOnRequest(configQrl: QRL<QwikAuthConfigFn>): (ev: RequestEventCommon) => Promise<void> {
  return async (ev) => {
    const ctx = await authContext(ev, configQrl)
    if (!isUnderBasePath(ev.url.pathname, ctx.basePath)) return
    sendAuthResponse(ev, await Auth(ev.request, ctx.config))
  }
}
