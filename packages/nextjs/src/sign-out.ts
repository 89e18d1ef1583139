/**
 * Server-side `signOut({ redirectTo, redirect })`: CSRF token from core, then core's POST
 * /signout in process, with the browser's `Origin` (see `sign-in.ts`); core clears the session
 * (and its database record) and the action redirects to `redirectTo`.
 */
import { csrfToken, failedCall } from "./core-calls.js"
import { coreCall } from "./internal-request.js"
import type { RequestScope } from "./scope.js"
import { defaultRedirect } from "./sign-in.js"

/** `signOut`'s options. */
export interface SignOutOptions {
  /** Where the user lands. Default: the page the action was called from (`Referer`), else `/`. */
  redirectTo?: string
  /** `false`: answer the URL instead of redirecting. Default `true`. */
  redirect?: boolean
}

/** Signs the scope's user out; resolves the URL core answered (after the cleared cookies are set). */
export async function signOutUrl(scope: RequestScope, options: SignOutOptions): Promise<string> {
  const body = new URLSearchParams({ csrfToken: await csrfToken(scope), callbackUrl: options.redirectTo ?? defaultRedirect(scope) })
  const result = await coreCall(scope, "signout", { method: "POST", body })
  if (result.redirect === undefined) throw failedCall(`POST ${scope.basePath}/signout`, result.status, result.json)
  return result.redirect
}
