/**
 * Sign-out from the server (the `useSignOut` action, or `signOut(ev, input)`): CSRF token from
 * core, then core's POST /signout in-process; core clears the session (and its database record),
 * the action redirects to `redirectTo`.
 */
import type { RequestEventCommon } from "@builder.io/qwik-city"
import { requireContext, type AuthContext } from "./context.js"
import { coreCall, csrfToken, currentPage, failedCall, redirectFromAction } from "./core-calls.js"
import type { SignOutInput } from "./types.js"

/** Runs a sign-out within the request's context; ends with a redirect (see `redirectFromAction`). */
export async function runSignOut(ev: RequestEventCommon, ctx: AuthContext, input: SignOutInput): Promise<void> {
  const callbackUrl = input.redirectTo ?? currentPage(ev)
  const body = new URLSearchParams({ csrfToken: await csrfToken(ev, ctx), callbackUrl })
  const result = await coreCall(ev, ctx, "signout", { method: "POST", body })
  const location = result.redirect
  if (location === undefined) throw failedCall(`POST ${ctx.basePath}/signout`, result.status, result.json)
  // A later read in this request asks core again, through the jar: signed out when core cleared
  // the session cookie, still signed in when it refused the request (a cross-site POST).
  ctx.session = undefined
  return redirectFromAction(ev, ctx, location)
}

/**
 * Signs out from your own server code; same input and behaviour as `useSignOut`: ends with a
 * redirect, as `signIn` does.
 */
export async function signOut(ev: RequestEventCommon, input: SignOutInput = {}): Promise<void> {
  return runSignOut(ev, await requireContext(ev, "signOut"), input)
}
