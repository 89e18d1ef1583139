/**
 * The pending sign-in: what a first factor proved, held in an encrypted, authenticated cookie for
 * 5 minutes until the second factor is verified. Bound to its user and first factor; its id keys
 * the per-sign-in code limit. Nothing of the sign-in is stored while it is pending (the kernel's
 * `ResumableSignIn` is kept here, and stored when it completes), no session cookie exists, and
 * verifying a code ends it (the cookie is cleared with the session issued). A sign-in held to enrol
 * keeps the secret it shows here too: it belongs to this sign-in, and no other sees it.
 */
import { decode, encode, type JWT } from "@authlib/jwt"
import { clearChunked, readChunked, writeChunked } from "../../kernel/cookies/chunks.js"
import type { Cookie } from "../../kernel/cookies/serialize.js"
import { randomToken } from "../../kernel/security/random.js"
import { nowSeconds } from "../../kernel/sessions/lifetime.js"
import type { CookieOption } from "../../kernel/types/config.js"
import type { AuthRequest, Context } from "../../kernel/types/http.js"
import type { ResumableSignIn } from "../../kernel/types/sign-in.js"

/** Seconds a pending sign-in lasts. */
export const PENDING_MAX_AGE = 5 * 60

/** A pending sign-in as the cookie carries it. */
export interface PendingTwoFactor {
  /** Random: keys the per-sign-in limit. */
  id: string
  /** The stored user it signs in; absent for a new user, created when its enrolment completes. */
  userId?: string
  /** What finishing it needs (nothing of it is stored before). */
  resume: ResumableSignIn
  callbackUrl: string
  /** Whether the `signIn` event is owed once the sign-in completes. */
  event: boolean
  /** `twoFactor.required` holds a user without two factors: enrolment is the only way on. */
  enrol?: boolean
  /** A sign-in held to enrol: the TOTP secret (base32) it shows, its own until confirmed. */
  enrolment?: string
  /** When it ends (seconds since the epoch): a re-written cookie keeps it. */
  expiresAt: number
  /**
   * The first factor was an e-mail link (proof of the address): the user's count of TOTP attempts
   * then. This sign-in's TOTP codes pass the lock until as many more as the cap allows (`lockout.ts`).
   */
  emailProvenAt?: number
}

/** The cookie (its name carries the salt of its key, as the session cookie's does). */
function pendingCookie(ctx: Context, maxAge: number): CookieOption {
  const name = ctx.secure ? "__Secure-authlib.two-factor" : "authlib.two-factor"
  return { name, options: { httpOnly: true, sameSite: "lax", path: "/", secure: ctx.secure, maxAge } }
}


async function write(req: AuthRequest, ctx: Context, pending: PendingTwoFactor): Promise<Cookie[]> {
  const maxAge = Math.max(1, pending.expiresAt - nowSeconds())
  const option = pendingCookie(ctx, maxAge)
  const claims: JWT = { pending: pending as unknown as JWT[string], ...(pending.userId !== undefined ? { sub: pending.userId } : {}) }
  const sealed = await encode({ token: claims, secret: [...ctx.config.secret], salt: option.name, maxAge })
  return writeChunked(option, sealed, req.cookies)
}

/** The cookies holding a new pending sign-in (sealed with the first secret; opened with any). */
export function holdPending(req: AuthRequest, ctx: Context, pending: Omit<PendingTwoFactor, "id" | "expiresAt">): Promise<Cookie[]> {
  return write(req, ctx, { ...pending, id: randomToken(16), expiresAt: nowSeconds() + PENDING_MAX_AGE })
}

/** The cookies holding `pending` changed (an enrolment's secret), its id and end kept. */
export function rewritePending(req: AuthRequest, ctx: Context, pending: PendingTwoFactor): Promise<Cookie[]> {
  return write(req, ctx, pending)
}

/** The request's pending sign-in, or null (none, expired, tampered, or sealed with a retired secret). */
export async function readPending(req: AuthRequest, ctx: Context): Promise<PendingTwoFactor | null> {
  const option = pendingCookie(ctx, PENDING_MAX_AGE)
  const raw = readChunked(option.name, req.cookies)
  if (!raw) return null
  try {
    const claims = await decode({ token: raw, secret: [...ctx.config.secret], salt: option.name })
    const pending = claims?.pending as unknown as PendingTwoFactor | undefined
    if (!pending || typeof pending.id !== "string" || typeof pending.expiresAt !== "number" || typeof pending.resume?.result?.account?.type !== "string") return null
    if ((pending.userId !== undefined && typeof pending.userId !== "string") || pending.userId !== claims?.sub) return null
    return pending
  } catch {
    return null
  }
}

/** Expiries of the pending cookie and its chunks. */
export function clearPending(req: AuthRequest, ctx: Context): Cookie[] {
  return clearChunked(pendingCookie(ctx, PENDING_MAX_AGE), req.cookies)
}

/** The account type of the pending sign-in's first factor (`"webauthn"` for a passkey). */
export const firstFactorOf = (pending: PendingTwoFactor): string => pending.resume.result.account.type
