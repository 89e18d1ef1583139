/**
 * GET /webauthn-options/:provider: the passkey options and challenge cookie (see
 * `options.ts`). The route knows the session; the flow does not. `?purpose=step-up`
 * from a signed-in user binds authenticate options to a step-up of that user (two-factor's step-up
 * with a passkey); a held sign-in's options are bound to it.
 */
import { InvalidProvider } from "../../kernel/errors/errors.js"
import type { FlowContext } from "../../kernel/types/sign-in.js"
import { webauthnOptions } from "./options.js"
import type { AuthRequest, AuthResponse, Context } from "../../kernel/types/http.js"
import { providerOf } from "../../kernel/providers/lookup.js"
import type { WebAuthnConfig } from "../../kernel/types/providers.js"
import { principalOf } from "../../kernel/sessions/principal.js"
import { heldSignInOf } from "../../kernel/sign-in/held.js"
import { STEP_UP_BINDING } from "./second-factor.js"

export async function webauthnOptionsRoute(req: AuthRequest, ctx: Context): Promise<AuthResponse> {
  const provider = providerOf(req.action, req.providerId, ctx.config)
  if (provider.type !== "webauthn")
    throw new InvalidProvider(`Provider "${provider.id}" is not a passkey provider`, { code: "FLOW_UNAVAILABLE", cause: { provider: provider.id } })
  const flowCtx: FlowContext<WebAuthnConfig> = { ...ctx, provider: provider as WebAuthnConfig, callbackUrl: ctx.origin }
  const signedIn = (await principalOf(req, ctx))?.userId
  // A signed-in user stepping up asks for their own passkeys, the challenge bound to step-up.
  if (signedIn !== undefined && req.query.purpose === "step-up" && req.query.action !== "register") return webauthnOptions(req, flowCtx, signedIn, { id: STEP_UP_BINDING, userId: signedIn })
  // A sign-in held for a second factor asks for its own user's passkeys (see two-factor sign-in).
  const held = signedIn === undefined && req.query.action !== "register" ? await heldSignInOf(req, ctx) : undefined
  return webauthnOptions(req, flowCtx, signedIn, held)
}
