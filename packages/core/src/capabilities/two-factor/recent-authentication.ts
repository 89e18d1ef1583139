/**
 * `requireRecentAuthentication`: the server function an app calls before its own sensitive action
 * (changing an e-mail address, a payout account, ...), the same check that guards the ways in.
 */
import { serverFunction } from "../../kernel/run/server-function.js"
import { assertRecentAuthentication, type RecentAuthentication } from "../../kernel/sessions/freshness.js"
import { DEFAULT_FRESH_AGE } from "./options.js"
import { requirePrincipal } from "../../kernel/sessions/principal.js"

export type { RecentAuthentication } from "../../kernel/sessions/freshness.js"

/** Who the request acts for and how they authenticated, once it passed. */
export interface AuthenticationInfo {
  userId: string
  /** Seconds since the epoch. */
  authTime: number
  /** RFC 8176 method values (`pwd`, `otp`, `fed`, `hwk`, `user`, `mfa`). */
  amr: readonly string[]
}

/**
 * Asserts that the signed-in user of `request` authenticated at most `maxAge` seconds ago
 * (default `twoFactor.freshAge`, else 600) and, with `secondFactor: true`, with a second factor
 * (`amr` has `"mfa"`: a TOTP or backup code after a first factor, or a passkey with user
 * verification counting as two) that still counts (within `twoFactor.reauthenticateAfter` of its
 * verification, when set). `secondFactor` is strict: a user without two factors enabled
 * cannot meet it by a code (check `getTwoFactorStatus` first to ask only those who can).
 * The user refreshes an authentication with `POST {basePath}/two-factor` `action=step-up` + `code`.
 * @throws SessionRequired (no valid session), ReauthenticationRequired (`AUTHENTICATION_TOO_OLD`, `SECOND_FACTOR_REQUIRED`; 403 in JSON)
 */
export const requireRecentAuthentication = serverFunction("two-factor", async (req, ctx, wanted: RecentAuthentication = {}): Promise<AuthenticationInfo> => {
  const principal = await requirePrincipal(req, ctx, "Sign in to continue")
  const maxAge = wanted.maxAge ?? ctx.config.twoFactor?.freshAge ?? DEFAULT_FRESH_AGE
  assertRecentAuthentication(ctx, principal, { ...wanted, maxAge })
  // Passed with a maxAge, so the time is known.
  return { userId: principal.userId, authTime: principal.authTime ?? 0, amr: principal.amr }
})
