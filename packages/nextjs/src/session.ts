/**
 * The session of a request: core's own `GET {basePath}/session`, in-process, so it goes through
 * core's principal (expiry, revocation, user present) with the app's callbacks, events and sliding
 * refresh; never a decode of the cookie here. Read once per scope and shared by every later ask,
 * until a sign-in, sign-out or update changes the session cookie.
 */
import { Configuration, type Session } from "@authlib/core"
import { coreCall } from "./internal-request.js"
import type { RequestScope } from "./scope.js"

async function readSession(scope: RequestScope): Promise<Session | null> {
  const result = await coreCall(scope, "session")
  const status = result.status ?? 200
  if (status !== 200) {
    // Core has logged the cause; the page must not pass a broken configuration off as "signed out".
    throw new Configuration(`GET ${scope.basePath}/session answered ${status}`, {
      code: "SESSION_ROUTE_FAILED",
      cause: { status, body: JSON.stringify(result.json ?? result.html ?? null).slice(0, 500) },
    })
  }
  return (result.json ?? null) as Session | null
}

/** The scope's session read, started on first call and shared by every later one. */
export function sessionOf(scope: RequestScope): Promise<Session | null> {
  scope.session ??= readSession(scope)
  return scope.session
}
