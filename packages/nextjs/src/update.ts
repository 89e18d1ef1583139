/**
 * `unstable_update(data)`: core's POST /session in process (CSRF token from core, the browser's
 * `Origin` carried), so `data` reaches the `jwt` callback (`trigger: "update"`) or, for database
 * sessions, the `session` callback (`newSession`). The re-issued cookie goes out with the action's
 * response; `auth()` later in the same request, and server components on the next request, see it.
 */
import type { Session } from "@authlib/core"
import { csrfToken, failedCall } from "./core-calls.js"
import { coreCall } from "./internal-request.js"
import type { RequestScope } from "./scope.js"

/** Updates the scope's session with `data`; resolves the session core answered (`null` when signed out). */
export async function updateSession(scope: RequestScope, data: unknown): Promise<Session | null> {
  const result = await coreCall(scope, "session", { method: "POST", body: { csrfToken: await csrfToken(scope), data } })
  if ((result.status ?? 200) !== 200) throw failedCall(`POST ${scope.basePath}/session`, result.status, result.json)
  const session = (result.json ?? null) as Session | null
  // What core answered is the session now: a later `auth()` in this request need not ask again.
  scope.session = Promise.resolve(session)
  return session
}
