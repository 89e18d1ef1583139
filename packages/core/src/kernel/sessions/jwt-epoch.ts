/**
 * Revocation of JWT sessions (`revokeUserSessions`, signing out everywhere): with an adapter that
 * keeps session epochs, a token carries its user's epoch at issue (claim `sessionEpoch`) and is
 * refused once the user's epoch has moved past it. Checked when the token is re-issued, or on every
 * read with `session.checkRevocation: "every-request"`. A token without the claim counts as epoch 0
 * (issued before the user's first revocation, or before this feature); a user the adapter does not
 * know (a credentials user that is not stored) cannot be revoked. Kept apart from `jwt-strategy.ts`
 * because the principal's answer depends on it: it is the kernel's check, whoever moves the epoch.
 */
import type { JWT } from "@authlib/jwt"
import type { Context } from "../types/http.js"
import { epochs, keepsEpochs } from "./revocation.js"

export const EPOCH_CLAIM = "sessionEpoch"

/** The user's current epoch, or null (no such adapter, no subject, or a user it does not know). */
async function currentEpoch(token: JWT, ctx: Context): Promise<number | null> {
  const port = epochs(ctx)
  if (!port || typeof token.sub !== "string") return null
  const epoch = await port.getUserSessionEpoch(token.sub)
  return typeof epoch === "number" ? epoch : null
}

/** `token` with its user's current epoch, when there is one. */
export async function withEpoch(token: JWT, ctx: Context): Promise<JWT> {
  const epoch = await currentEpoch(token, ctx)
  return epoch === null ? token : { ...token, [EPOCH_CLAIM]: epoch }
}

export type EpochCheck = { ok: true; epoch: number | null } | { ok: false; reason: string }

/**
 * `token` against its user's epoch: refused when revoked (lower), in the future (higher: no token
 * of ours says that) or malformed; a missing claim is epoch 0. A user the adapter does not know
 * passes only without the claim (a token that had one belongs to a deleted user).
 */
export async function checkEpoch(token: JWT, ctx: Context): Promise<EpochCheck> {
  const claim = token[EPOCH_CLAIM]
  const current = await currentEpoch(token, ctx)
  if (current === null) return claim === undefined || !keepsEpochs(ctx) ? { ok: true, epoch: null } : { ok: false, reason: "its user is gone" }
  const issuedUnder = claim === undefined ? 0 : claim
  if (typeof issuedUnder !== "number" || !Number.isSafeInteger(issuedUnder) || issuedUnder < 0) return { ok: false, reason: "its epoch claim is malformed" }
  if (issuedUnder > current) return { ok: false, reason: "its epoch claim is in the future" }
  if (issuedUnder < current) return { ok: false, reason: "it was revoked" }
  return { ok: true, epoch: current }
}

/** Logs why a token was refused: revocation is expected (debug), a malformed or future claim is not (a bug, or a restored database). */
export function logRefusal(ctx: Context, reason: string, sub: unknown): void {
  const level = reason === "it was revoked" ? "debug" : "warn"
  ctx.config.logger[level]("session-revoked", { reason: `a JWT session was refused: ${reason}`, sub })
}
