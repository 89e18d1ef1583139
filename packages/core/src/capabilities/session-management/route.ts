/**
 * GET /sessions: the signed-in user's live sessions, `{ sessions: [{ id, expires, current,
 * createdAt, lastSeenAt, client, network }] }` (database sessions).
 * POST /sessions (CSRF token and Origin checked by the kernel, like every POST): `action` = `revoke` (with `id`;
 * database sessions), `revoke-others` or `revoke-all` (sign out everywhere; either strategy),
 * `csrfToken`; answers `{ revoked }` (how many stored sessions ended; `null` for JWT sessions) with
 * the request's own session cookie re-issued or cleared. See `functions.ts`.
 */
import { SessionManagementError } from "./errors.js"
import type { AuthRequest, AuthResponse, Context } from "../../kernel/types/http.js"
import { listOwnSessions, revokeOwnSession, type SessionInfo } from "./functions.js"
import { revokeAll, revokeOthers } from "./revoke.js"
import type { SubActions } from "../../kernel/types/capability.js"

export async function listSessionsRoute(req: AuthRequest, ctx: Context): Promise<AuthResponse<{ sessions: SessionInfo[] }>> {
  return { json: { sessions: await listOwnSessions(req, ctx) } }
}

/** POST /sessions, by `action`. */
export const changeSessionsActions: SubActions = {
  handlers: {
    revoke: async (req, ctx) => {
      await revokeOwnSession(req, ctx, { id: req.body.id })
      return { json: { revoked: 1 } }
    },
    "revoke-others": async (req, ctx) => {
      const { revoked, cookies } = await revokeOthers(req, ctx)
      return { json: { revoked }, cookies }
    },
    "revoke-all": async (req, ctx) => {
      const { revoked, cookies } = await revokeAll(req, ctx)
      return { json: { revoked }, cookies }
    },
  },
  refuse: () => new SessionManagementError('"action" must be "revoke", "revoke-others" or "revoke-all"', { code: "SESSION_ACTION_INVALID" }),
}
