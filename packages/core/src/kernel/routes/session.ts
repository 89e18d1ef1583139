/**
 * GET /session: the session as the `session` callback shapes it, or `null`.
 * POST /session: update (CSRF-checked and limited by the kernel, see `index.ts`); `data` from the body reaches the `jwt` callback
 * (`trigger: "update"`, `session`) or the `session` callback (`newSession`, `trigger: "update"`).
 */
import type { AuthRequest, AuthResponse, Context } from "../types/http.js"
import { sessionStrategy } from "../sessions/strategy.js"
import type { Session } from "../types/config.js"

export async function getSession(req: AuthRequest, ctx: Context): Promise<AuthResponse<Session | null>> {
  return sessionStrategy(ctx.config).read(req, ctx)
}

export async function updateSession(req: AuthRequest, ctx: Context): Promise<AuthResponse<Session | null>> {
  return sessionStrategy(ctx.config).read(req, ctx, { data: req.body.data })
}
