/**
 * GET /session: the session as the `session` callback shapes it, or `null`, with the fields
 * capabilities add to it (their `sessionFields` hooks).
 * POST /session: update (CSRF-checked and limited by the kernel, see `index.ts`); `data` from the body reaches the `jwt` callback
 * (`trigger: "update"`, `session`) or the `session` callback (`newSession`, `trigger: "update"`).
 */
import type { AuthRequest, AuthResponse, Context } from "../types/http.js"
import { sessionStrategy } from "../sessions/strategy.js"
import type { Session } from "../types/config.js"

/** `answer` with the capabilities' fields merged into its session and their cookies appended; the same object without a session or anything added. */
async function withCapabilityFields(req: AuthRequest, ctx: Context, answer: AuthResponse<Session | null>): Promise<AuthResponse<Session | null>> {
  const hooks = ctx.config.registry.sessionFields
  if (answer.json === null || answer.json === undefined || hooks.length === 0) return answer
  let session = answer.json
  let cookies = answer.cookies
  let changed = false
  for (const hook of hooks) {
    const asked = hook(req, ctx)
    const added = asked instanceof Promise ? await asked : asked
    if (added === undefined) continue
    if (added.fields) session = { ...session, ...added.fields }
    if (added.cookies?.length) cookies = [...(cookies ?? []), ...added.cookies]
    changed = true
  }
  return changed ? { ...answer, json: session, cookies } : answer
}

export async function getSession(req: AuthRequest, ctx: Context): Promise<AuthResponse<Session | null>> {
  return withCapabilityFields(req, ctx, await sessionStrategy(ctx.config).read(req, ctx))
}

export async function updateSession(req: AuthRequest, ctx: Context): Promise<AuthResponse<Session | null>> {
  return withCapabilityFields(req, ctx, await sessionStrategy(ctx.config).read(req, ctx, { data: req.body.data }))
}
