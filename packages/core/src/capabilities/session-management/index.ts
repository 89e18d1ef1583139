/**
 * Session management: the signed-in user lists and revokes their sessions (`GET/POST sessions`),
 * the app revokes a user's sessions (`functions.ts`).
 */
import type { Capability } from "../../kernel/types/capability.js"
import { changeSessionsActions, listSessionsRoute } from "./route.js"

export const sessionManagement: Capability = {
  name: "session-management",
  routes: [{ action: "sessions", answers: "json", GET: { handler: listSessionsRoute, csrf: false }, POST: { actions: changeSessionsActions, csrf: true } }],
}
