/**
 * "Who is this request, and may it act now": the one answer every privileged path asks for
 * (passkey registration and management, account linking, linked accounts, provider tokens, session
 * management, the ID token of a sign-out at the provider). The strategy resolves it with every check
 * it has, whatever `session.checkRevocation` says for plain reads:
 * - JWT: the token decodes and has not expired, its epoch is the user's current one (revocation),
 *   and, where an adapter can say, its user is still stored;
 * - database: the stored session exists, has not expired, and its user exists.
 *
 * `GET /session` does not come here: a read may skip the epoch look-up (`"on-reissue"`), an action
 * that changes what can sign in may not. Nothing outside the strategies decodes a session cookie.
 */
import { SessionRequired } from "../errors/errors.js"
import type { AuthRequest, Context } from "../types/http.js"
import { sessionStrategy } from "./strategy.js"
import type { Principal } from "./types.js"

export type { Principal } from "./types.js"

/**
 * The request's principal, or `null` when it carries no session that may act (none, expired, revoked, user gone).
 * Resolved once per request (kept in `ctx.memo`): a route and the issuer asking twice get the same answer for one look-up.
 */
export function principalOf(req: AuthRequest, ctx: Context): Promise<Principal | null> {
  return (ctx.memo.principal ??= sessionStrategy(ctx.config).principal(req, ctx))
}

/** The request's principal; `SessionRequired` (`SESSION_MISSING`) with `message` when there is none. */
export async function requirePrincipal(req: AuthRequest, ctx: Context, message: string): Promise<Principal> {
  const principal = await principalOf(req, ctx)
  if (!principal) throw new SessionRequired(message, { code: "SESSION_MISSING" })
  return principal
}
