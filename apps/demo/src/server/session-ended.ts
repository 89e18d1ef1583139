/**
 * "You were signed out": a browser whose session was ended elsewhere (signed out everywhere,
 * revoked from another device, or simply expired) learns so on the next page it loads, instead of
 * silently seeing the signed-out page.
 *
 * The signal needs no cookie of its own: the request carried authlib's session cookie, and that
 * cookie reads as no session (core then clears it, so the notice shows once). It is decided in the
 * layout's `onRequest`, before any action of the request runs, so a sign-out or sign-in in the same
 * request cannot pass for it.
 *
 * It tells nobody anything: any session cookie that reads as none gets the same words ("your
 * session ended"), whether it was revoked, expired, or never valid (a guessed or altered value).
 */
import { getSession } from "@authlib/qwik"
import type { RequestEvent, RequestEventBase } from "@builder.io/qwik-city"

/** authlib's session cookie (with the `__Secure-` prefix over https, and a JWT's chunks `.0`, `.1`...), not empty. */
const SESSION_COOKIE = /(?:^|;)\s*(?:__Secure-)?authlib\.session-token(?:\.\d+)?=[^;\s]/

const KEY = "demo:session-ended"

/** Notes, for this request, whether it came with a session cookie that no longer reads as a session. */
export async function noteEndedSession(ev: RequestEvent): Promise<void> {
  // A request core answered itself (`/auth/*`, through the plugin) has its answer already.
  if (ev.headersSent) return
  if (!SESSION_COOKIE.test(ev.request.headers.get("cookie") ?? "")) return
  const { data } = await getSession(ev)
  if (data === null) ev.sharedMap.set(KEY, true)
}

/** Whether this request's session ended elsewhere (see `noteEndedSession`). */
export const sessionEnded = (ev: Pick<RequestEventBase, "sharedMap">): boolean => ev.sharedMap.get(KEY) === true

/** Where a protected page sends a browser whose session ended: the sign-in page, which says so. */
export const ENDED_SIGN_IN_PAGE = "/sign-in/?signedOut=ended"

/**
 * What the page says, or null: on the page a browser with an ended session loads, and on the
 * sign-in page a protected page sent it to. The same words for every session cookie that reads as none.
 */
export function endedNotice(ev: Pick<RequestEventBase, "sharedMap" | "url">): string | null {
  const sentHere = ev.url.pathname === "/sign-in/" && ev.url.searchParams.get("signedOut") === "ended"
  return sessionEnded(ev) || sentHere ? "You were signed out: your session on this browser ended (signed out on another device, or it expired). Sign in again to continue." : null
}
