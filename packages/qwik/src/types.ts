/** Types of the binding's public surface. */
import type { Session } from "@authlib/core"

/**
 * What the server-side session getter resolves to: `data` is the session as the `session`
 * callback shapes it, or `null`; `cookie` holds the Set-Cookie header values core answered (a
 * refreshed session token, or cookies it cleared). The binding has already set them on the
 * response through `ev.cookie`; they are returned for callers that build their own response.
 */
export interface SessionResult {
  cookie: string[]
  data: Session | null
}

/** Spec section 4, `GetSessionResult`: the promise `getSession(ev)` returns. */
export type GetSessionResult = Promise<SessionResult>

/** Input of `useSignIn` / `signIn` (spec section 4). */
export interface SignInInput {
  /** The provider's id. Without it, the user is sent to the sign-in page. */
  providerId?: string
  /** Where to go after signing in. Default: the current page. */
  redirectTo?: string
  /** `redirectTo`, plus fields sent to the provider: credentials for `credentials`, `email` for e-mail. */
  options?: { redirectTo?: string; [key: string]: unknown }
  /** Extra parameters of the OAuth authorization request. */
  authorizationParams?: string | URLSearchParams | Record<string, string>
}

/** Input of `useSignOut` / `signOut` (spec section 4). */
export interface SignOutInput {
  /** Where to go after signing out. Default: the current page. */
  redirectTo?: string
}
