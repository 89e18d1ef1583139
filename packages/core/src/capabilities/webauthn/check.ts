/** Start-up check of a passkey provider. */
import { Configuration, ExperimentalFeatureNotEnabled, type AuthError } from "../../kernel/errors/errors.js"
import { WEBAUTHN_METHODS } from "../../kernel/ports/adapter.js"
import { missingError, missingMethods } from "../../kernel/ports/ports.js"
import type { ResolvedConfig } from "../../kernel/types/resolved-config.js"
import type { ProviderConfig, WebAuthnConfig, WebAuthnRelyingParty } from "../../kernel/types/providers.js"
import { relyingPartyProblem, staticRelyingParty } from "./relying-party.js"

/**
 * A passkey provider needs `experimental.enableWebAuthn`, an adapter with the authenticator methods,
 * its WebAuthn library, and a relying party from configuration (never from request headers): `url`,
 * or `relyingParty`, or a `getRelyingParty` hook (checked per request).
 */
export function checkWebAuthnProvider(provider: ProviderConfig, resolved: ResolvedConfig): AuthError | undefined {
  const p = provider as WebAuthnConfig
  if (!resolved.experimental.enableWebAuthn)
    return new ExperimentalFeatureNotEnabled(`Provider "${p.id}" needs "experimental.enableWebAuthn: true"`, { code: "WEBAUTHN_NOT_ENABLED", cause: { provider: p.id } })
  const missing = missingMethods(resolved.adapter, WEBAUTHN_METHODS)
  if (missing.length) return missingError(missing, { what: `Passkey provider "${p.id}"`, facts: { provider: p.id } })
  if (typeof p.simpleWebAuthn !== "function")
    return new Configuration(`Passkey provider "${p.id}" has no "simpleWebAuthn" loader: build it with Passkey() from @authlib/providers/passkey`, { code: "WEBAUTHN_MODULE_MISSING", cause: { provider: p.id } })
  if (p.getRelyingParty) return undefined
  const rp = staticRelyingParty(p, resolved.appUrl)
  if (rp.id === undefined || rp.origin === undefined)
    return new Configuration(`Passkey provider "${p.id}" needs "url" (WEBAUTH_URL) or relyingParty.id and relyingParty.origin: the relying party is never taken from request headers`, { code: "RP_ID_INVALID", cause: { provider: p.id } })
  return relyingPartyProblem(p, rp as WebAuthnRelyingParty)
}
