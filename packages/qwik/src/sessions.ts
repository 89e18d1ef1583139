/**
 * The signed-in user's sessions from Qwik server code (`routeLoader$`, `routeAction$`, `server$`):
 * core's server functions on the request as core sees it in this request. Like core's they check
 * no CSRF token: use them in Qwik City actions, whose same-origin check protects the POST. Listing
 * and ending one session need database sessions (core answers `SessionManagementError` /
 * `DATABASE_SESSIONS_ONLY` for JWT sessions); ending the others or all works in both strategies
 * (JWT: with an adapter that keeps session epochs), and sets this request's own cookie.
 */
import { listSessions as coreList, revokeSession as coreRevoke, type SessionInfo } from "@authlib/core"
import { revocationResult } from "@authlib/core/internal"
import type { RequestEventCommon } from "@builder.io/qwik-city"
import { applyCookies } from "./cookies.js"
import { internalRequest, requireContext } from "./context.js"

async function coreRequest(ev: RequestEventCommon, caller: string) {
  const ctx = await requireContext(ev, caller)
  return { request: internalRequest(ev, ctx, "session"), config: ctx.config }
}

/** The user's live sessions: opaque `id`, `expires`, and `current` for this request's own. */
export async function listSessions(ev: RequestEventCommon): Promise<SessionInfo[]> {
  const { request, config } = await coreRequest(ev, "listSessions")
  return coreList(request, config)
}

/** Ends one of the user's sessions (`SessionManagementError` / `SESSION_UNKNOWN` for any other id). */
export async function revokeSession(ev: RequestEventCommon, input: { id: string }): Promise<void> {
  const { request, config } = await coreRequest(ev, "revokeSession")
  return coreRevoke(request, config, input)
}

async function revoke(ev: RequestEventCommon, caller: string, which: "others" | "all"): Promise<number | null> {
  const ctx = await requireContext(ev, caller)
  const { revoked, cookies } = await revocationResult(internalRequest(ev, ctx, "session"), ctx.config, which)
  if (cookies.length) {
    applyCookies(ev, cookies)
    // This request's session changed (re-issued or ended): read it afresh.
    ctx.session = undefined
  }
  return revoked
}

/**
 * Ends every session of the user but this request's own; resolves how many stored sessions ended
 * (`null` for JWT sessions, which are not counted; this one's cookie is re-issued).
 */
export function revokeOtherSessions(ev: RequestEventCommon): Promise<number | null> {
  return revoke(ev, "revokeOtherSessions", "others")
}

/** "Sign out everywhere": ends every session of the user, this one included (its cookie cleared). Resolves as `revokeOtherSessions`. */
export function signOutEverywhere(ev: RequestEventCommon): Promise<number | null> {
  return revoke(ev, "signOutEverywhere", "all")
}
