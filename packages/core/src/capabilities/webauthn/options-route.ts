/**
 * GET /webauthn-options/:provider: the passkey options and challenge cookie (see
 * `flows/webauthn/options.ts`). The route knows the session; the flow does not.
 */
import { InvalidProvider } from "../../kernel/errors/errors.js"
import type { FlowContext } from "../../kernel/types/sign-in.js"
import { webauthnOptions } from "./options.js"
import type { AuthRequest, AuthResponse, Context } from "../../kernel/types/http.js"
import { providerOf } from "../../kernel/providers/lookup.js"
import type { WebAuthnConfig } from "../../kernel/types/providers.js"
import { principalOf } from "../../kernel/sessions/principal.js"
import { heldSignInOf } from "../../kernel/sign-in/held.js"

export async function webauthnOptionsRoute(req: AuthRequest, ctx: Context): Promise<AuthResponse> {
  const provider = providerOf(req.action, req.providerId, ctx.config)
  if (provider.type !== "webauthn")
    throw new InvalidProvider(`Provider "${provider.id}" is not a passkey provider`, { code: "FLOW_UNAVAILABLE", cause: { provider: provider.id } })
  const flowCtx: FlowContext<WebAuthnConfig> = { ...ctx, provider: provider as WebAuthnConfig, callbackUrl: ctx.origin }
  const signedIn = (await principalOf(req, ctx))?.userId
  // A sign-in held for a second factor asks for its own user's passkeys (see two-factor sign-in).
  const held = signedIn === undefined && req.query.action !== "register" ? await heldSignInOf(req, ctx) : undefined
  return webauthnOptions(req, flowCtx, signedIn, held)
}
