/**
 * Route protection for a subtree: export `onRequest = protectRoute()` from a `layout.tsx` (or
 * an `index.tsx`) and every page under it needs a session. A signed-out request goes to the sign-in
 * page with its own path as `callbackUrl`, so the user lands back where they were; with `when`, a
 * signed-in user who fails the condition (a role) is refused with 403, or sent to `deniedPage`.
 *
 * The sign-in page itself (and anything under `basePath`) is never protected, so a sign-in page
 * that sits under the protected layout cannot redirect to itself forever.
 */
import type { Session } from "@authlib/core"
import type { RequestEventCommon } from "@builder.io/qwik-city"
import { isUnderBasePath, requireContext } from "./context.js"
import { sessionOf } from "./session-loader.js"

export interface ProtectRouteOptions {
  /** Where signed-out users go. Default: `pages.signIn` of the config, else `{basePath}/signin`. */
  signInPage?: string
  /** A condition the session must meet (for example a role); a user who fails it is refused. */
  when?: (session: Session) => boolean | Promise<boolean>
  /** Where a signed-in user who fails `when` goes. Default: a 403 answer. */
  deniedPage?: string
}

/** An `onRequest` handler that lets only signed-in users (meeting `when`) through. */
export function protectRoute(options: ProtectRouteOptions = {}): (ev: RequestEventCommon) => Promise<void> {
  return async (ev) => {
    const ctx = await requireContext(ev, "protectRoute")
    const signInPage = options.signInPage ?? ctx.config.pages?.signIn ?? `${ctx.basePath}/signin`
    const signInPath = new URL(signInPage, ev.url).pathname
    // `//evil.example` as a path would read as another host in a callback URL.
    const path = ev.url.pathname.replace(/^\/{2,}/, "/")
    if (path === signInPath || isUnderBasePath(path, ctx.basePath)) return
    if (options.deniedPage && path === new URL(options.deniedPage, ev.url).pathname) return
    const { data: session } = await sessionOf(ev, ctx)
    if (!session) {
      const target = new URL(signInPage, ev.url)
      target.searchParams.set("callbackUrl", `${path}${ev.url.search}`)
      const location = target.origin === ev.url.origin ? `${target.pathname}${target.search}` : target.href
      throw ev.redirect(302, location)
    }
    if (options.when && !(await options.when(session))) {
      if (options.deniedPage) throw ev.redirect(302, options.deniedPage)
      throw ev.error(403, "Forbidden")
    }
  }
}
