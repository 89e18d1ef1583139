/**
 * What both strategies share when ending a user's sessions: the per-user session epoch (which ends
 * JWT sessions, see `jwt-strategy.ts`) and the adapter checks. Database sessions are deleted; JWT
 * sessions are not stored, so the epoch is their only handle.
 */
import { SessionManagementError, SessionRequired } from "../errors/errors.js"
import { adapterMethods, optionalPort } from "../ports/ports.js"
import type { Adapter } from "../types/adapters.js"
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

/** Refuses JWT revocation without an adapter that keeps epochs: said plainly, never ignored. */
export function assertRevocable(ctx: HasConfig): void {
  if (!keepsEpochs(ctx))
    throw new SessionManagementError(
      "JWT sessions cannot be ended before they expire without an adapter that keeps session epochs (getUserSessionEpoch, incrementUserSessionEpoch)",
      { code: "REVOCATION_UNAVAILABLE" },
    )
}

/** Ending stored sessions needs `deleteSessionsByUserId`: the method, or `MissingAdapterMethods`. */
export function sessionDeleter(ctx: HasConfig): NonNullable<Adapter["deleteSessionsByUserId"]> {
  return adapterMethods(ctx.config.adapter, ["deleteSessionsByUserId"], "Ending sessions").deleteSessionsByUserId
}

/**
 * Refuses to end the sessions of a user the adapter does not store (`USER_UNKNOWN`): a wrong id must
 * not answer as if sessions had ended. Asked of the epoch where the adapter keeps epochs (no second
 * look-up), else of `getUser`; an adapter with neither cannot say, and the call goes on.
 */
export async function assertUserKnown(ctx: HasConfig, userId: string): Promise<void> {
  const adapter = ctx.config.adapter
  let known = true
  const port = epochs(ctx)
  if (port) known = typeof (await port.getUserSessionEpoch(userId)) === "number"
  else if (adapter?.getUser) known = (await adapter.getUser(userId)) != null
  if (!known) throw new SessionManagementError("No such user: nobody's sessions ended", { code: "USER_UNKNOWN", cause: { userId: userId.slice(0, 200) } })
}

export const signInFirst = () => new SessionRequired("Sign in to manage your sessions", { code: "SESSION_MISSING" })
