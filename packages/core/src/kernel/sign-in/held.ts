/**
 * The request's held sign-in: a first factor done, a session not yet issued because a capability
 * (a second-factor step) holds it back. Asked of the capabilities' `heldSignIn` hooks in registry
 * order, once per request (the answer kept in `ctx.memo`), so a route of another capability (the
 * passkey options of a second factor) can help finish it without importing the capability that holds it.
 */
import type { HeldSignIn } from "../types/capability.js"
import type { AuthRequest, Context } from "../types/http.js"

export type { HeldSignIn } from "../types/capability.js"

async function ask(req: AuthRequest, ctx: Context): Promise<HeldSignIn | undefined> {
  for (const hook of ctx.config.registry.heldSignIn) {
    const held = await hook(req, ctx)
    if (held) return held
  }
  return undefined
}

/** The sign-in held back for this request, or undefined. */
export function heldSignInOf(req: AuthRequest, ctx: Context): Promise<HeldSignIn | undefined> {
  return (ctx.memo.heldSignIn ??= ask(req, ctx))
}
