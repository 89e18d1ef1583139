/**
 * Passkeys (WebAuthn): the callback flow of `webauthn` providers, the options route
 * (`GET webauthn-options/:provider`), their start-up checks and per-client limits.
 */
import type { Capability } from "../../kernel/types/capability.js"
import { webauthnFlow } from "./flow.js"
import { checkWebAuthnProvider } from "./check.js"
import { webauthnOptionsRoute } from "./route.js"

export const webauthn: Capability = {
  name: "webauthn",
  flows: { webauthn: { flow: webauthnFlow, limits: { callback: "passkey.perClient" }, check: checkWebAuthnProvider } },
  routes: [{ action: "webauthn-options", answers: "json", withProvider: true, GET: { handler: webauthnOptionsRoute, csrf: false, rateLimit: "passkey.perClient" } }],
}

export { webauthnOptions } from "./options.js"
export { DEFAULT_CHALLENGE_MAX_AGE } from "./challenge.js"
// What passkey management builds on: stored credential ids and names as the sign-in flow keeps them.
export { credentialIdToStored, storedIdToBase64url, transportsOf } from "./encoding.js"
export { cleanPasskeyName, MAX_PASSKEY_NAME_LENGTH } from "./names.js"
// What two-factor sign-in builds on: a passkey as the second factor of a held sign-in.
export { passkeyProviderForUser, verifyHeldSignInPasskey, verifyStepUpPasskey, type HeldPasskeyCheck } from "./second-factor.js"
