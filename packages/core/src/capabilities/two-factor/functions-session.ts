/**
 * The two-factor actions that end in a session, as server functions: the second step of a pending
 * sign-in (a code, or a passkey) on an app's own `pages.twoFactor` page, and step-up for the
 * signed-in user. Each runs the route's own code path (`verify.ts`, `passkey.ts`, `step-up.ts`)
 * through `serverCall`, so nothing is checked twice or differently.
 *
 * A server function cannot set cookies: the public ones answer `setCookie`, `Set-Cookie` values
 * the app's response must carry (the new session, the pending sign-in's cookie cleared); the
 * `...Result` ones (in `@authlib/core/internal`) answer the cookies as objects, for bindings that
 * set them through their framework. Like the other server functions they check no CSRF token:
 * call them from endpoints that are themselves protected (same-origin POST actions).
 */
import { serializeCookie, type Cookie } from "../../kernel/cookies/serialize.js"
import { TwoFactorError } from "./errors.js"
import { serverCall } from "../../kernel/run/server-call.js"
import type { AuthConfig } from "../../kernel/types/config.js"
import type { AuthRequest, AuthResponse, Context } from "../../kernel/types/http.js"
import { verifyPendingPasskey } from "./passkey.js"
import { stepUp, type StepUpResult } from "./step-up.js"
import { verifyPendingCode } from "./verify.js"

/** A completed sign-in as bindings get it: where to send the user, and the cookies to set. */
export interface TwoFactorSignInResult {
  /** The sign-in's callback URL (or `pages.newUser`), as the route would redirect to it. */
  url: string
  cookies: Cookie[]
}

/** A completed sign-in: where to send the user, and the `Set-Cookie` values the response must carry. */
export interface CompletedTwoFactorSignIn {
  url: string
  setCookie: string[]
}

/** What a passkey second factor takes: the assertion JSON (object or string), and optionally the passkey provider's id. */
export interface TwoFactorPasskeyInput {
  data: unknown
  provider?: string
}

/** `run` as a server function (a refusal is logged by `serverCall`, as every server function's is). */
function call<T>(request: Request, config: AuthConfig, run: (req: AuthRequest, ctx: Context) => Promise<T>): Promise<T> {
  return serverCall(request, config, "two-factor", run)
}

function signInResult(done: AuthResponse): TwoFactorSignInResult {
  // `completeSignIn` always redirects; anything else is no completed sign-in.
  if (done.redirect === undefined) throw new TwoFactorError("The sign-in could not be completed", { code: "SIGN_IN_MISSING" })
  return { url: done.redirect, cookies: done.cookies ?? [] }
}

/** `completeTwoFactorSignIn`'s work, with the cookies as objects (for bindings that set them themselves). */
export function twoFactorSignInResult(request: Request, config: AuthConfig, input: { code: string }): Promise<TwoFactorSignInResult> {
  return call(request, config, async (req, ctx) => signInResult(await verifyPendingCode(req, ctx, input.code)))
}

/** `completeTwoFactorSignInWithPasskey`'s work, with the cookies as objects. */
export function twoFactorPasskeySignInResult(request: Request, config: AuthConfig, input: TwoFactorPasskeyInput): Promise<TwoFactorSignInResult> {
  return call(request, config, async (req, ctx) => signInResult(await verifyPendingPasskey(req, ctx, { data: input.data, provider: input.provider })))
}

/** `stepUpTwoFactor`'s work, with the cookies as objects. */
export function twoFactorStepUpResult(request: Request, config: AuthConfig, input: { code: string } | TwoFactorPasskeyInput): Promise<StepUpResult & { cookies: Cookie[] }> {
  return call(request, config, (req, ctx) => stepUp(req, ctx, "data" in input ? { data: input.data, provider: input.provider } : { code: input.code }))
}

/**
 * The second step of the pending sign-in of `request` (its `authlib.two-factor` cookie) with a
 * code, TOTP or backup: `POST {basePath}/two-factor` `action=verify` as a server function, for an
 * app's own `pages.twoFactor` page. The code is checked as every code is (counted per user and per
 * sign-in, accepted once); on success the session is issued and the `signIn` event fires.
 * Resolves the callback URL to send the user to and `setCookie`, the `Set-Cookie` values the
 * response must carry (the session, the pending cookie cleared); a refusal sets nothing and the
 * sign-in stays pending.
 *
 * @throws TwoFactorError `SIGN_IN_MISSING` (no pending sign-in, or its 5 minutes are over),
 * `CODE_MISSING`, `CODE_INVALID` (wrong, reused or spent, or a sign-in held to enrol), `TOTP_LOCKED`
 * (too many wrong TOTP codes in a row: a backup code still works), `TWO_FACTOR_OFF`.
 * @throws RateLimited after too many codes (`twoFactor.perUser`, `twoFactor.perSignIn`).
 */
export async function completeTwoFactorSignIn(request: Request, config: AuthConfig, input: { code: string }): Promise<CompletedTwoFactorSignIn> {
  const { url, cookies } = await twoFactorSignInResult(request, config, input)
  return { url, setCookie: cookies.map(serializeCookie) }
}

/**
 * The second step of the pending sign-in of `request` with a passkey: `POST {basePath}/two-factor`
 * `action=verify-passkey` as a server function. `data` answers options from
 * `GET {basePath}/webauthn-options/:provider` fetched during the pending sign-in (bound to it, the
 * pending user's passkeys only); it is verified exactly as a passkey sign-in is. Resolves as
 * `completeTwoFactorSignIn`; `setCookie` also clears the used challenge's cookie.
 *
 * @throws TwoFactorError `SIGN_IN_MISSING`, `NOT_ENABLED` (a sign-in held to enrol), `TWO_FACTOR_OFF`.
 * @throws WebAuthnVerificationError the passkey codes (`CHALLENGE_INVALID` for a challenge of
 * another sign-in, `CREDENTIAL_UNKNOWN` for another user's passkey, `SIGNATURE_INVALID`, ...).
 * @throws InvalidProvider `FLOW_UNAVAILABLE` without a passkey provider.
 */
export async function completeTwoFactorSignInWithPasskey(request: Request, config: AuthConfig, input: TwoFactorPasskeyInput): Promise<CompletedTwoFactorSignIn> {
  const { url, cookies } = await twoFactorPasskeySignInResult(request, config, input)
  return { url, setCookie: cookies.map(serializeCookie) }
}

/**
 * Step-up: the signed-in user of `request` proves a second factor again with a code (TOTP or
 * backup), or with a passkey (`{ data, provider? }`: the assertion for options from
 * `GET {basePath}/webauthn-options/:provider?action=authenticate&purpose=step-up`), and the session
 * is re-issued as authenticated now with `otp` (or `hwk`) and `mfa` (a new JWT, or a new stored
 * session with a new token): `POST {basePath}/two-factor` `action=step-up` as a server function.
 * A passkey without user verification (or not counted as two factors) does not step up a session
 * a passkey signed in (`SAME_FACTOR`). Afterwards `requireRecentAuthentication(..., { secondFactor: true })` passes for
 * `twoFactor.freshAge` seconds. Resolves the new `authTime` (seconds since the epoch) and
 * `setCookie`, which the response must carry: without it the browser keeps the old session.
 *
 * @throws SessionRequired when the request carries no valid session.
 * @throws WebAuthnVerificationError the passkey codes (`CHALLENGE_INVALID` for options not made for step-up).
 * @throws TwoFactorError `CODE_MISSING`, `CODE_INVALID` (wrong, reused, or no second factor enabled), `SAME_FACTOR`,
 * `TOTP_LOCKED` (too many wrong TOTP codes in a row), `TWO_FACTOR_OFF`.
 * @throws RateLimited after too many codes (`twoFactor.perUser`).
 */
export async function stepUpTwoFactor(request: Request, config: AuthConfig, input: { code: string } | TwoFactorPasskeyInput): Promise<StepUpResult & { setCookie: string[] }> {
  const { authTime, cookies } = await twoFactorStepUpResult(request, config, input)
  return { authTime, setCookie: cookies.map(serializeCookie) }
}
