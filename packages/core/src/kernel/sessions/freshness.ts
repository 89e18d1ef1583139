/**
 * Step-up: how recent and how strong the request's authentication is, asked of the principal
 * (which both strategies fill from the session's record, see `authentication.ts`).
 *
 * `requireFreshSecondFactor` is the one gate of everything that adds or removes a way in (passkey
 * add and delete, unlinking an account): a second factor verified as recently as the capabilities'
 * `freshness` hooks ask for the user (a capability that gives users a second factor asks it of
 * those who enabled one). It lives in the kernel so the capabilities it guards import none.
 *
 * `hasSecondFactor` is the one answer to "does this session have a second factor that still
 * counts": `"mfa"` recorded, and verified (the session's `authTime`) within the capabilities'
 * `secondFactorLifetime` hooks. Every check of a second factor asks it.
 */
import { ReauthenticationRequired } from "../errors/errors.js"
import type { AuthRequest, Context } from "../types/http.js"
import { nowSeconds } from "./lifetime.js"
import { requirePrincipal } from "./principal.js"
import type { Principal } from "./types.js"

/** What a caller asks of the request's authentication. */
export interface RecentAuthentication {
  /** At most this many seconds ago (default: any time). */
  maxAge?: number
  /** With a second factor that still counts (`hasSecondFactor`: `amr` has `"mfa"`, a code after a first factor or a passkey counting as two, verified within the capabilities' `secondFactorLifetime`). */
  secondFactor?: boolean
}

/**
 * Whether `principal`'s session has a second factor that still counts: `"mfa"` in its `amr` (a code
 * after a first factor, or a passkey counting as two) and, when a capability limits how long one
 * counts (`secondFactorLifetime`), verified no longer ago than that (its `authTime`; unknown: no).
 * The session itself stays valid either way: only what asks for a second factor asks again.
 */
export function hasSecondFactor(ctx: Context, principal: Principal): boolean {
  if (!principal.amr.includes("mfa")) return false
  const lifetime = ctx.config.registry.secondFactorLifetime(ctx.config)
  if (lifetime === null) return true
  return principal.authTime !== null && nowSeconds() - principal.authTime <= lifetime
}

/** Throws `ReauthenticationRequired` unless `principal`'s authentication meets `wanted`. */
export function assertRecentAuthentication(ctx: Context, principal: Principal, wanted: RecentAuthentication): void {
  if (wanted.secondFactor && !hasSecondFactor(ctx, principal))
    throw new ReauthenticationRequired(principal.amr.includes("mfa") ? "Verify a second factor again to continue" : "Verify a second factor to continue", { code: "SECOND_FACTOR_REQUIRED" })
  if (wanted.maxAge === undefined) return
  const age = principal.authTime === null ? Infinity : nowSeconds() - principal.authTime
  // A time in the future (clock skew between instances aside) is no reason to refuse; unknown is.
  if (!(age <= wanted.maxAge))
    throw new ReauthenticationRequired(wanted.secondFactor ? "Verify a second factor again to continue" : "Sign in again to continue", {
      code: "AUTHENTICATION_TOO_OLD",
      cause: { maxAge: wanted.maxAge },
    })
}

/** The strictest age the `freshness` hooks ask of a second factor for `userId`, or null when none asks. */
async function freshAgeFor(ctx: Context, userId: string): Promise<number | null> {
  let strictest: number | null = null
  for (const hook of ctx.config.registry.freshness) {
    const age = await hook(ctx, userId)
    if (age !== null && (strictest === null || age < strictest)) strictest = age
  }
  return strictest
}

/**
 * The request's principal (`SessionRequired` with `message` without one) and, when a capability
 * asks it for its user (`freshness`), a second factor verified that recently (else
 * `ReauthenticationRequired`). For every change to the ways a user signs in.
 */
export async function requireFreshSecondFactor(req: AuthRequest, ctx: Context, message: string): Promise<Principal> {
  const principal = await requirePrincipal(req, ctx, message)
  const maxAge = await freshAgeFor(ctx, principal.userId)
  if (maxAge !== null) assertRecentAuthentication(ctx, principal, { maxAge, secondFactor: true })
  return principal
}
