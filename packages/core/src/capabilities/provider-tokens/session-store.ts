/**
 * Provider tokens kept in the session itself (JWT sessions with `session.providerTokens`, no
 * adapter accounts): read from the principal, written by replacing the session through the issuer.
 * A strategy whose sessions keep none (database: the accounts keep them) says so in its traits,
 * reads an empty set and ignores the write.
 */
import { issue } from "../../kernel/sessions/issuer.js"
import { principalOf } from "../../kernel/sessions/principal.js"
import type { StoredProviderTokens } from "../../kernel/sessions/types.js"
import type { AuthRequest, Context, Cookie } from "../../kernel/types/http.js"

/** The request's session subject and its providers' tokens, or null without a session that may act. */
export async function readSessionTokens(req: AuthRequest, ctx: Context): Promise<{ sub: string; tokens: Readonly<Record<string, StoredProviderTokens>> } | null> {
  const principal = await principalOf(req, ctx)
  return principal && { sub: principal.userId, tokens: principal.providerTokens }
}

/** The session re-issued with `tokens` for `providerId`: the cookies to set (none without a session that may act). */
export async function writeSessionTokens(req: AuthRequest, ctx: Context, providerId: string, tokens: StoredProviderTokens): Promise<Cookie[]> {
  return (await issue(req, ctx, { kind: "replace", change: { providerTokens: { providerId, tokens } } })) ?? []
}

/**
 * Marks the request's session: a provider refused the user's refresh token, so the session reads
 * `error: "RefreshTokenError"` from now on. The cookies to set (a re-issued JWT); never throws for an
 * adapter that cannot keep the mark (the strategy logs).
 */
export async function markRefreshError(req: AuthRequest, ctx: Context): Promise<Cookie[]> {
  return (await issue(req, ctx, { kind: "replace", change: { error: "RefreshTokenError" } })) ?? []
}
