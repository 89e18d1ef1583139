/**
 * GET /session: the session as the `session` callback shapes it, or `null`.
 * POST /session: update (CSRF-checked); `data` from the body reaches the `jwt` callback
 * (`trigger: "update"`, `session`) or the `session` callback (`newSession`, `trigger: "update"`).
 */
import type { AuthRequest, AuthResponse, Context } from "../http/types.js"
import { assertCsrf } from "../security/csrf.js"
import { sessionStrategy } from "../sessions/strategy.js"
import type { Session } from "../types/config.js"
import { limitClient } from "../rate-limit/limiter.js"

export async function getSession(req: AuthRequest, ctx: Context): Promise<AuthResponse<Session | null>> {
  // Not limited by default (apps poll it): a length check, no store call.
  if (ctx.config.rateLimit?.rules["session.perClient"].length) await limitClient(req, ctx, "session.perClient")
  return sessionStrategy(ctx.config).read(req, ctx)
}

export async function updateSession(req: AuthRequest, ctx: Context): Promise<AuthResponse<Session | null>> {
  await assertCsrf(req, ctx)
  await limitClient(req, ctx, "session.perClient")
  return sessionStrategy(ctx.config).read(req, ctx, { data: req.body.data })
}
