/**
 * The pending sign-in: what a first factor proved, held in an encrypted, authenticated cookie for
 * 5 minutes until the second factor is verified. Bound to the user and the first factor (the
 * account it signed in with); its id keys the per-sign-in code limit. No session cookie exists
 * while it is pending, and verifying a code ends it (the cookie is cleared with the session issued).
 */
import { decode, encode, type JWT } from "@authlib/jwt"
import { clearChunked, readChunked, writeChunked } from "../../kernel/cookies/chunks.js"
import type { Cookie } from "../../kernel/cookies/serialize.js"
import { randomToken } from "../../kernel/security/random.js"
import type { CookieOption } from "../../kernel/types/config.js"
import type { AuthRequest, Context } from "../../kernel/types/http.js"
import type { NewSession } from "../../kernel/types/sign-in.js"

/** Seconds a pending sign-in lasts. */
export const PENDING_MAX_AGE = 5 * 60

/** A pending sign-in as the cookie carries it. */
export interface PendingTwoFactor {
  /** Random: keys the per-sign-in limit. */
  id: string
  userId: string
  session: NewSession
  callbackUrl: string
  /** Whether the `signIn` event is owed once the sign-in completes. */
  event: boolean
  /** `twoFactor.required` holds a user without two factors: enrolment is the only way on. */
  enrol?: boolean
  /**
   * The first factor was an e-mail link (proof of the address): the user's count of TOTP attempts
   * then. This sign-in's TOTP codes pass the lock until as many more as the cap allows (`lockout.ts`).
   */
  emailProvenAt?: number
}

/** The cookie (its name carries the salt of its key, as the session cookie's does). */
function pendingCookie(ctx: Context): CookieOption {
  const name = ctx.secure ? "__Secure-authlib.two-factor" : "authlib.two-factor"
  return { name, options: { httpOnly: true, sameSite: "lax", path: "/", secure: ctx.secure, maxAge: PENDING_MAX_AGE } }
}

/** The cookies holding `pending` (sealed with the first secret; opened with any). */
export async function holdPending(req: AuthRequest, ctx: Context, pending: Omit<PendingTwoFactor, "id">): Promise<Cookie[]> {
  const option = pendingCookie(ctx)
  const claims: JWT = { sub: pending.userId, pending: { ...pending, id: randomToken(16) } as unknown as JWT[string] }
  const sealed = await encode({ token: claims, secret: [...ctx.config.secret], salt: option.name, maxAge: PENDING_MAX_AGE })
  return writeChunked(option, sealed, req.cookies)
}

/** The request's pending sign-in, or null (none, expired, tampered, or sealed with a retired secret). */
export async function readPending(req: AuthRequest, ctx: Context): Promise<PendingTwoFactor | null> {
  const option = pendingCookie(ctx)
  const raw = readChunked(option.name, req.cookies)
  if (!raw) return null
  try {
    const claims = await decode({ token: raw, secret: [...ctx.config.secret], salt: option.name })
    const pending = claims?.pending as unknown as PendingTwoFactor | undefined
    if (!pending || typeof pending.userId !== "string" || pending.userId !== claims?.sub || typeof pending.id !== "string") return null
    return pending
  } catch {
    return null
  }
}

/** Expiries of the pending cookie and its chunks. */
export function clearPending(req: AuthRequest, ctx: Context): Cookie[] {
  return clearChunked(pendingCookie(ctx), req.cookies)
}
