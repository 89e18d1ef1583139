/**
 * The request's held sign-in: a first factor done, a session not yet issued because a capability
 * (a second-factor step) holds it back. Asked of the capabilities' `heldSignIn` hooks in registry
 * order, once per request, so a route of another capability (the passkey options of a second
 * factor) can help finish it without importing the capability that holds it.
 */
import { registry } from "../registry/installed.js"
import type { HeldSignIn } from "../types/capability.js"
import type { AuthRequest, Context } from "../types/http.js"

export type { HeldSignIn } from "../types/capability.js"

const found = new WeakMap<AuthRequest, Promise<HeldSignIn | undefined>>()

async function ask(req: AuthRequest, ctx: Context): Promise<HeldSignIn | undefined> {
  for (const hook of registry().heldSignIn) {
    const held = await hook(req, ctx)
    if (held) return held
  }
  return undefined
}

/** The sign-in held back for this request, or undefined. */
export function heldSignInOf(req: AuthRequest, ctx: Context): Promise<HeldSignIn | undefined> {
  let held = found.get(req)
  if (!held) found.set(req, (held = ask(req, ctx)))
  return held
}
