/**
 * Session management: the signed-in user lists and revokes their sessions (`GET/POST sessions`),
 * the app revokes a user's sessions (`functions.ts`).
 */
import { sessionManagementErrors } from "./errors.js"
import type { Capability } from "../../kernel/types/capability.js"
import { changeSessionsActions, listSessionsRoute } from "./route.js"
import { listSessions, revokeOtherSessions, revokeSession, signOutEverywhere } from "./functions.js"

export const sessionManagement: Capability = {
  name: "session-management",
  errors: sessionManagementErrors,
  routes: [{ action: "sessions", answers: "json", GET: { handler: listSessionsRoute, csrf: false }, POST: { actions: changeSessionsActions, csrf: true } }],
}

/** Its server functions for the user of a request, by name (`revokeUserSessions`, for the app, takes no request). */
export const sessionManagementFunctions = { listSessions, revokeSession, revokeOtherSessions, signOutEverywhere }
export { SessionManagementError, SESSION_MANAGEMENT_ERROR_CODES } from "./errors.js"
