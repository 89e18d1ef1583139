/**
 * The two-factor steps that end in a session, for Qwik server code: completing a pending sign-in
 * on the app's own `pages.twoFactor` page (a code, or a passkey), and step-up for the signed-in
 * user, plus `requireRecentAuthentication` for the app's own sensitive actions. Core's server
 * functions (the route's own checks) on the request as core sees it in this request; the cookies
 * they answer (the session, the pending sign-in cleared) are set through Qwik's cookie API, and
 * later reads in this request see the new session.
 *
 * Like core's, they check no CSRF token: use them in Qwik City actions, whose same-origin check
 * protects the POST (keep `checkOrigin` on), or behind your own protection.
 */
import {
  getPendingTwoFactor as corePending,
  requireRecentAuthentication as coreRequireRecent,
  type AuthenticationInfo,
  type PendingTwoFactorInfo,
  type RecentAuthentication,
  type StepUpResult,
} from "@authlib/core"
import { twoFactorPasskeySignInResult, twoFactorSignInResult, twoFactorStepUpResult, type TwoFactorSignInResult } from "@authlib/core/internal"
import type { RequestEventCommon } from "@builder.io/qwik-city"
import { internalRequest, requireContext, type AuthContext } from "./context.js"
import { applyCookies } from "./cookies.js"
import { redirectFromAction } from "./core-calls.js"

/** Sets what core answered and ends with the redirect to the sign-in's callback URL. */
async function completed(ev: RequestEventCommon, ctx: AuthContext, result: Promise<TwoFactorSignInResult>): Promise<void> {
  const { url, cookies } = await result
  applyCookies(ev, cookies)
  // A later session read in this request must see the new session, not a cached result.
  ctx.session = undefined
  return redirectFromAction(ev, ctx, url)
}

/**
 * Completes the pending sign-in of this request with a code (TOTP or backup), as core's
 * `{basePath}/two-factor` `action=verify` does: for the app's own `pages.twoFactor` page. On
 * success the session cookie is set, the pending one cleared, and it throws Qwik's redirect to the
 * sign-in's callback URL (for a client-side action request leaving the app, it sets it and
 * returns), as `signIn` does. A refusal sets nothing and the sign-in stays pending: core's
 * `TwoFactorError` (`CODE_INVALID`, `CODE_MISSING`, `SIGN_IN_MISSING` when none is pending or its
 * 5 minutes are over) or `RateLimited`. The `useTwoFactorSignIn` action of `QwikAuth$` wraps it.
 */
export async function completeTwoFactorSignIn(ev: RequestEventCommon, input: { code: string }): Promise<void> {
  const ctx = await requireContext(ev, "completeTwoFactorSignIn")
  return completed(ev, ctx, twoFactorSignInResult(internalRequest(ev, ctx, "two-factor"), ctx.config, { code: input.code }))
}

/**
 * Completes the pending sign-in of this request with a passkey: `data` is the assertion (JSON
 * text or object) answering options from `{basePath}/webauthn-options/:provider` fetched during
 * the pending sign-in. Ends as `completeTwoFactorSignIn`; refusals are core's
 * `WebAuthnVerificationError` (`CHALLENGE_INVALID`, `CREDENTIAL_UNKNOWN`, ...) and `TwoFactorError`.
 */
export async function completeTwoFactorSignInWithPasskey(ev: RequestEventCommon, input: { data: unknown; provider?: string }): Promise<void> {
  const ctx = await requireContext(ev, "completeTwoFactorSignInWithPasskey")
  const passkey = { data: input.data, ...(input.provider !== undefined ? { provider: input.provider } : {}) }
  return completed(ev, ctx, twoFactorPasskeySignInResult(internalRequest(ev, ctx, "two-factor"), ctx.config, passkey))
}

/**
 * Step-up: the signed-in user proves a second factor again with a code (TOTP or backup), or with a
 * passkey (`{ data, provider? }`, the assertion for options asked with `purpose=step-up`; the
 * browser helper `stepUpWithPasskey` does the whole ceremony); the session is re-issued as
 * authenticated now with two factors (its cookie set here). Resolves the new `authTime`. Throws
 * core's `SessionRequired`, `TwoFactorError` (`CODE_INVALID`, `SAME_FACTOR`...),
 * `WebAuthnVerificationError` or `RateLimited`.
 */
export async function stepUpTwoFactor(ev: RequestEventCommon, input: { code: string } | { data: unknown; provider?: string }): Promise<StepUpResult> {
  const ctx = await requireContext(ev, "stepUpTwoFactor")
  const proof = "data" in input ? { data: input.data, ...(input.provider !== undefined ? { provider: input.provider } : {}) } : { code: input.code }
  const { authTime, cookies } = await twoFactorStepUpResult(internalRequest(ev, ctx, "two-factor"), ctx.config, proof)
  applyCookies(ev, cookies)
  ctx.session = undefined
  return { authTime }
}

/**
 * Asserts the signed-in user authenticated at most `maxAge` seconds ago (default
 * `twoFactor.freshAge`, else 600) and, with `secondFactor: true`, with a second factor; resolves
 * `{ userId, authTime, amr }`. Throws core's `ReauthenticationRequired` (`AUTHENTICATION_TOO_OLD`,
 * `SECOND_FACTOR_REQUIRED`: ask for a code and call `stepUpTwoFactor`) or `SessionRequired`.
 */
export async function requireRecentAuthentication(ev: RequestEventCommon, wanted: RecentAuthentication = {}): Promise<AuthenticationInfo> {
  const ctx = await requireContext(ev, "requireRecentAuthentication")
  return coreRequireRecent(internalRequest(ev, ctx, "session"), ctx.config, wanted)
}

/**
 * What finishes the pending sign-in of this request (`accepts`: `"code"`, `"passkey"` where one of
 * the user's passkeys may finish it, never after a passkey first factor, or `"enrol"`), or `null`
 * when none is pending: for the app's own `pages.twoFactor` page, to offer what the built-in page
 * offers. Reads only.
 */
export async function getPendingTwoFactor(ev: RequestEventCommon): Promise<PendingTwoFactorInfo | null> {
  const ctx = await requireContext(ev, "getPendingTwoFactor")
  return corePending(internalRequest(ev, ctx, "two-factor"), ctx.config)
}
