/**
 * GET /sessions: the signed-in user's live sessions, `{ sessions: [{ id, expires, current }] }`.
 * POST /sessions (CSRF token and Origin checked, like every POST): `action` = `revoke` (with `id`)
 * or `revoke-others`, `csrfToken`; answers `{ revoked }` (how many ended). Database sessions only.
 * See `session-functions.ts`.
 */
import { SessionManagementError } from "../errors.js"
import type { AuthRequest, AuthResponse, Context } from "../http/types.js"
import { listOwnSessions, revokeOwnOtherSessions, revokeOwnSession, type SessionInfo } from "../session-functions.js"
import { assertCsrf } from "../security/csrf.js"

export async function listSessionsRoute(req: AuthRequest, ctx: Context): Promise<AuthResponse<{ sessions: SessionInfo[] }>> {
  return { json: { sessions: await listOwnSessions(req, ctx) } }
}

export async function changeSessionsRoute(req: AuthRequest, ctx: Context): Promise<AuthResponse<{ revoked: number }>> {
  assertCsrf(req, ctx)
  const { action, id } = req.body
  if (action === "revoke") {
    await revokeOwnSession(req, ctx, { id })
    return { json: { revoked: 1 } }
  }
  if (action === "revoke-others") return { json: { revoked: await revokeOwnOtherSessions(req, ctx) } }
  throw new SessionManagementError('"action" must be "revoke" or "revoke-others"', { code: "SESSION_ACTION_INVALID" })
}
