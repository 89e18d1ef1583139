/**
 * Requests for core, made in-process: `{basePath}/{action}` on the app's origin, with the request's
 * cookies as the jar holds them now and the browser's own headers core judges by:
 *
 * - `Origin` / `Sec-Fetch-Site`: a server action posted from another site reaches core with that
 *   site's values, and core's same-origin check refuses the sign-in or sign-out POST, whatever
 *   Next's own server-action check did;
 * - `Sec-Fetch-Mode`: a background fetch (a prefetch, a client navigation) whose session cookie
 *   reads as none leaves it in place (a newer one may have replaced it meanwhile); a navigation clears it;
 * - `X-Forwarded-Host` / `-Proto` / `-For`: core derives the app's origin (and so the `__Secure-`
 *   cookie names) from them under `trustHost`, as it does for the browser's own requests;
 * - `User-Agent`, `Accept-Language`: what session listings and e-mails show.
 *
 * Absent stays absent: nothing is made up.
 */
import type { AuthResult } from "@authlib/core"
import { authResult } from "@authlib/core/internal"
import type { RequestScope } from "./scope.js"
import { applyCookies } from "./scope.js"

const FORWARDED = ["origin", "sec-fetch-site", "sec-fetch-mode", "x-forwarded-host", "x-forwarded-proto", "x-forwarded-for", "user-agent", "accept-language"] as const

export interface InternalInit {
  method?: "GET" | "POST"
  /** A form body, or a JSON one (POST /session takes `{ csrfToken, data }`). */
  body?: URLSearchParams | Record<string, unknown>
  search?: URLSearchParams
}

/** The request core sees for `action` in this scope. */
export function internalRequest(scope: RequestScope, action: string, init: InternalInit = {}): Request {
  const url = new URL(`${scope.basePath}/${action}`, scope.origin)
  if (init.search) url.search = init.search.toString()
  const cookie = [...scope.jar].map(([name, value]) => `${name}=${value}`).join("; ")
  // `X-Auth-Return-Redirect`: a refusal core cannot express as a redirect (a rate limit) comes back
  // as JSON the binding can read, not as an error page.
  const headers = new Headers({ cookie, accept: "application/json", "x-auth-return-redirect": "1" })
  for (const name of FORWARDED) {
    const value = scope.headers.get(name)
    if (value !== null) headers.set(name, value)
  }
  let body: string | undefined
  if (init.body instanceof URLSearchParams) {
    headers.set("content-type", "application/x-www-form-urlencoded")
    body = init.body.toString()
  } else if (init.body) {
    headers.set("content-type", "application/json")
    body = JSON.stringify(init.body)
  }
  return new Request(url, { method: init.method ?? "GET", headers, ...(body !== undefined ? { body } : {}) })
}

/** One in-process call to core: its internal result, its cookies applied to the scope. */
export async function coreCall(scope: RequestScope, action: string, init: InternalInit = {}): Promise<AuthResult> {
  const result = await authResult(internalRequest(scope, action, init), scope.config)
  applyCookies(scope, result.cookies, action === "session" && (init.method ?? "GET") === "GET")
  return result
}
