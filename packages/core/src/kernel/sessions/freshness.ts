/**
 * Step-up: how recent and how strong the request's authentication is, asked of the principal
 * (which both strategies fill from the session's record, see `authentication.ts`).
 *
 * `requireFreshSecondFactor` is the one gate of everything that adds or removes a way in (passkey
 * add and delete, unlinking an account): for a user with two factors enabled, a second factor
 * verified within `twoFactor.freshAge`. It lives in the kernel (it reads the adapter's `twoFactor`
 * port directly) so the capabilities it guards need no import of the two-factor capability.
 */
import { ReauthenticationRequired } from "../errors/errors.js"
import { optionalPort } from "../ports/ports.js"
import type { AuthRequest, Context } from "../types/http.js"
import { requirePrincipal } from "./principal.js"
import type { Principal } from "./types.js"

/** Seconds a second factor stays fresh unless `twoFactor.freshAge` says otherwise. */
export const DEFAULT_FRESH_AGE = 600

/** What a caller asks of the request's authentication. */
export interface RecentAuthentication {
  /** At most this many seconds ago (default: any time). */
  maxAge?: number
  /** With a second factor (`amr` has `"mfa"`: a code after a first factor, or a passkey counting as two). */
  secondFactor?: boolean
}

/** Throws `ReauthenticationRequired` unless `principal`'s authentication meets `wanted`. */
export function assertRecentAuthentication(principal: Principal, wanted: RecentAuthentication): void {
  if (wanted.secondFactor && !principal.amr.includes("mfa"))
    throw new ReauthenticationRequired("Verify a second factor to continue", { code: "SECOND_FACTOR_REQUIRED" })
  if (wanted.maxAge === undefined) return
  const age = principal.authTime === null ? Infinity : Math.floor(Date.now() / 1000) - principal.authTime
  // A time in the future (clock skew between instances aside) is no reason to refuse; unknown is.
  if (!(age <= wanted.maxAge))
    throw new ReauthenticationRequired(wanted.secondFactor ? "Verify a second factor again to continue" : "Sign in again to continue", {
      code: "AUTHENTICATION_TOO_OLD",
      cause: { maxAge: wanted.maxAge },
    })
}

/** `twoFactor.freshAge` when the user has two factors on (configured, and their record enabled), else null. */
async function freshAgeFor(ctx: Context, userId: string): Promise<number | null> {
  const options = ctx.config.twoFactor
  const store = options && optionalPort(ctx.config.adapter, "twoFactor")
  return store && (await store.getTwoFactor(userId))?.enabled === true ? options.freshAge : null
}

/**
 * The request's principal (`SessionRequired` with `message` without one) and, when its user has
 * two factors enabled, a second factor verified within `twoFactor.freshAge` (else
 * `ReauthenticationRequired`). For every change to the ways a user signs in.
 */
export async function requireFreshSecondFactor(req: AuthRequest, ctx: Context, message: string): Promise<Principal> {
  const principal = await requirePrincipal(req, ctx, message)
  const maxAge = await freshAgeFor(ctx, principal.userId)
  if (maxAge !== null) assertRecentAuthentication(principal, { maxAge, secondFactor: true })
  return principal
}
