/**
 * The adapter methods the passkey flow uses, as one typed handle (checked at start-up for every
 * passkey provider, see `config/validate.ts`, so the refusal here is only a safety net).
 */
import { WEBAUTHN_METHODS } from "../../kernel/ports/adapter.js"
import { adapterMethods, type AdapterMethods } from "../../kernel/ports/ports.js"
import type { WebAuthnConfig } from "../../kernel/types/providers.js"
import type { FlowContext } from "../../kernel/types/sign-in.js"

export type PasskeyStore = AdapterMethods<(typeof WEBAUTHN_METHODS)[number]>

export function passkeyStore(ctx: Pick<FlowContext<WebAuthnConfig>, "config" | "provider">): PasskeyStore {
  return adapterMethods(ctx.config.adapter, WEBAUTHN_METHODS, { what: `Passkey provider "${ctx.provider.id}"`, facts: { provider: ctx.provider.id } })
}
