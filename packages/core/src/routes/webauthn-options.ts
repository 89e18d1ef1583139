/**
 * GET /webauthn-options/:provider: the passkey options and challenge cookie (see
 * `flows/webauthn/options.ts`). The route knows the session; the flow does not.
 */
import { InvalidProvider } from "../errors.js"
import type { FlowContext } from "../flows/types.js"
import { webauthnOptions } from "../flows/webauthn/index.js"
import type { AuthRequest, AuthResponse, Context } from "../http/types.js"
import { providerOf } from "../providers/lookup.js"
import type { WebAuthnConfig } from "../providers/types.js"
import { principalOf } from "../sessions/principal.js"
import { limitClient } from "../rate-limit/limiter.js"

export async function webauthnOptionsRoute(req: AuthRequest, ctx: Context): Promise<AuthResponse> {
  const provider = providerOf(req.action, req.providerId, ctx.config)
  if (provider.type !== "webauthn")
    throw new InvalidProvider(`Provider "${provider.id}" is not a passkey provider`, { code: "FLOW_UNAVAILABLE", cause: { provider: provider.id } })
  await limitClient(req, ctx, "passkey.perClient")
  const flowCtx: FlowContext<WebAuthnConfig> = { ...ctx, provider: provider as WebAuthnConfig, callbackUrl: ctx.origin }
  return webauthnOptions(req, flowCtx, (await principalOf(req, ctx))?.userId)
}
