/**
 * The per-user session epoch, over the adapter's `sessionEpochs` port: what ends JWT sessions
 * (`jwt-epoch.ts` checks a token against it). Whoever ends sessions moves it on: the session-management
 * capability (revoking), the pre-hijacking clean-up (`sign-in/unverified-links.ts`). Database
 * sessions are deleted instead; JWT sessions are not stored, so the epoch is their only handle.
 */
import { optionalPort } from "../ports/ports.js"
import type { Context } from "../types/http.js"

/** Only the configuration is read, so the app-level `revokeUserSessions` needs no request. */
type HasConfig = Pick<Context, "config">

/** The adapter's session-epoch port, when it keeps epochs (`getUserSessionEpoch` and `incrementUserSessionEpoch`). */
export const epochs = (ctx: HasConfig) => optionalPort(ctx.config, "sessionEpochs")

/** Whether the adapter keeps session epochs. */
export function keepsEpochs(ctx: HasConfig): boolean {
  return epochs(ctx) !== undefined
}

/** Moves the user's epoch on (ending their JWT sessions); the new epoch, or null without such an adapter or user. */
export async function bumpEpoch(ctx: HasConfig, userId: string): Promise<number | null> {
  const port = epochs(ctx)
  if (!port) return null
  const epoch = await port.incrementUserSessionEpoch(userId)
  return typeof epoch === "number" ? epoch : null
}
