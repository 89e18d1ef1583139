/**
 * What both strategies share when ending a user's sessions: the per-user session epoch (which ends
 * JWT sessions, see `jwt-strategy.ts`) and the adapter checks. Database sessions are deleted; JWT
 * sessions are not stored, so the epoch is their only handle.
 */
import { MissingAdapterMethods, SessionManagementError, SessionRequired } from "../errors.js"
import type { Context } from "../http/types.js"

/** Only the configuration is read, so the app-level `revokeUserSessions` needs no request. */
type HasConfig = Pick<Context, "config">

/** Whether the adapter keeps session epochs (`getUserSessionEpoch` and `incrementUserSessionEpoch`). */
export function keepsEpochs(ctx: HasConfig): boolean {
  const adapter = ctx.config.adapter
  return typeof adapter?.getUserSessionEpoch === "function" && typeof adapter.incrementUserSessionEpoch === "function"
}

/** Moves the user's epoch on (ending their JWT sessions); the new epoch, or null without such an adapter or user. */
export async function bumpEpoch(ctx: HasConfig, userId: string): Promise<number | null> {
  if (!keepsEpochs(ctx)) return null
  const epoch = await ctx.config.adapter!.incrementUserSessionEpoch!(userId)
  return typeof epoch === "number" ? epoch : null
}

/** Refuses JWT revocation without an adapter that keeps epochs: said plainly, never ignored. */
export function assertRevocable(ctx: HasConfig): void {
  if (!keepsEpochs(ctx))
    throw new SessionManagementError(
      "JWT sessions cannot be ended before they expire without an adapter that keeps session epochs (getUserSessionEpoch, incrementUserSessionEpoch)",
      { code: "REVOCATION_UNAVAILABLE" },
    )
}

/** Ending stored sessions needs `deleteSessionsByUserId`. */
export function assertDeletesSessions(ctx: HasConfig): void {
  if (typeof ctx.config.adapter?.deleteSessionsByUserId !== "function")
    throw new MissingAdapterMethods("Ending sessions needs an adapter with deleteSessionsByUserId", { code: "ADAPTER_METHODS_MISSING", cause: { missing: ["deleteSessionsByUserId"] } })
}

export const signInFirst = () => new SessionRequired("Sign in to manage your sessions", { code: "SESSION_MISSING" })
