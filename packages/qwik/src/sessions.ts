/**
 * The signed-in user's sessions from Qwik server code (`routeLoader$`, `routeAction$`, `server$`):
 * core's server functions on the request as core sees it in this request. Like core's they check
 * no CSRF token: use them in Qwik City actions, whose same-origin check protects the POST. Database
 * sessions only (core answers `SessionManagementError` / `DATABASE_SESSIONS_ONLY` for JWT sessions).
 */
import { listSessions as coreList, revokeOtherSessions as coreRevokeOthers, revokeSession as coreRevoke, type SessionInfo } from "@authlib/core"
import type { RequestEventCommon } from "@builder.io/qwik-city"
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

/** Ends every session of the user but this request's own; resolves how many ended. */
export async function revokeOtherSessions(ev: RequestEventCommon): Promise<number> {
  const { request, config } = await coreRequest(ev, "revokeOtherSessions")
  return coreRevokeOthers(request, config)
}
