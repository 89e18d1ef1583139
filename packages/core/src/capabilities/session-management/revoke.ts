/**
 * Ending a user's sessions, whatever the strategy: stored sessions (database) are deleted through
 * the adapter; unstored ones (JWT) end when their user's epoch moves on (`kernel/sessions/revocation.ts`),
 * the request's own going on under the new epoch through the issuer (`replace` with an `epoch` step).
 * The strategy's traits say which applies; nothing here decodes a session.
 */
import { SessionRequired } from "../../kernel/errors/errors.js"
import { SessionManagementError } from "./errors.js"
import { adapterMethods } from "../../kernel/ports/ports.js"
import { bumpEpoch, epochs, keepsEpochs } from "../../kernel/sessions/revocation.js"
import { issue } from "../../kernel/sessions/issuer.js"
import { principalOf } from "../../kernel/sessions/principal.js"
import { clearSessionCookie } from "../../kernel/sessions/session-cookie.js"
import { sessionStrategy, type Revocation } from "../../kernel/sessions/strategy.js"
import type { Adapter } from "../../kernel/types/adapters.js"
import type { AuthRequest, Context, Cookie } from "../../kernel/types/http.js"

/** Only the configuration is read, so the app-level `revokeUserSessions` needs no request. */
type HasConfig = Pick<Context, "config">

export const signInFirst = () => new SessionRequired("Sign in to manage your sessions", { code: "SESSION_MISSING" })

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

/**
 * The step of an epoch revocation, run by the strategy once the request's session passed its epoch
 * check: a session whose user the adapter keeps no epoch for cannot be revoked (revoking from a
 * session that is itself revoked must not bring it back: that one never gets here).
 */
function moveEpoch(ctx: Context) {
  return async (userId: string, current: number | null): Promise<number | null> => {
    if (current === null)
      throw new SessionManagementError("This user is not stored by the adapter, so their JWT sessions cannot be ended before they expire", { code: "REVOCATION_UNAVAILABLE" })
    return bumpEpoch(ctx, userId)
  }
}

/** JWT: the user's epoch moves on, the request's own session re-issued under it (the cookies to set). */
async function reissueUnderNewEpoch(req: AuthRequest, ctx: Context): Promise<Cookie[]> {
  assertRevocable(ctx)
  const cookies = await issue(req, ctx, { kind: "replace", change: { epoch: moveEpoch(ctx) } })
  if (!cookies) throw signInFirst()
  return cookies
}

/** Database: the request's own stored session and the adapter's `deleteSessionsByUserId`. */
async function ownStoredSession(req: AuthRequest, ctx: Context) {
  const remove = sessionDeleter(ctx)
  const current = await principalOf(req, ctx)
  if (!current?.storedSessionKey) throw signInFirst()
  return { userId: current.userId, sessionToken: current.storedSessionKey, remove }
}

/**
 * Ends every session of the request's user but its own. Rejects with `SessionRequired` without a
 * valid session, `SessionManagementError` (`REVOCATION_UNAVAILABLE`) when the sessions cannot be ended with this adapter.
 */
export async function revokeOthers(req: AuthRequest, ctx: Context): Promise<Revocation> {
  if (!sessionStrategy(ctx.config).traits.storesSessions) return { revoked: null, cookies: await reissueUnderNewEpoch(req, ctx) }
  const { userId, sessionToken, remove } = await ownStoredSession(req, ctx)
  return { revoked: await remove(userId, sessionToken), cookies: [] }
}

/**
 * Ends every session of the request's user, its own included (its cookie cleared). JWT: as
 * `revokeOthers`, the re-issued token dropped for the cleared cookie. Database: the epoch moves on
 * too, for JWT sessions issued before a switch of strategy. Rejects as `revokeOthers`.
 */
export async function revokeAll(req: AuthRequest, ctx: Context): Promise<Revocation> {
  if (!sessionStrategy(ctx.config).traits.storesSessions) {
    await reissueUnderNewEpoch(req, ctx)
    return { revoked: null, cookies: clearSessionCookie(req, ctx) }
  }
  const { userId, remove } = await ownStoredSession(req, ctx)
  const revoked = await remove(userId)
  await bumpEpoch(ctx, userId)
  return { revoked, cookies: clearSessionCookie(req, ctx) }
}
