/**
 * Passkeys (WebAuthn): the sign-in type of `webauthn` providers (flow, start-up checks, per-client
 * limits, user rules, page part: `sign-in-type.ts`) and the options route (`GET webauthn-options/:provider`).
 */
import type { Capability } from "../../kernel/types/capability.js"
import { webauthnOptionsRoute } from "./route.js"
import { webauthnSignInType } from "./sign-in-type.js"
import { webauthnErrors } from "./errors.js"
import { PASSKEY_RATE_LIMITS } from "./rate-limits.js"

export const webauthn: Capability = {
  name: "webauthn",
  signInTypes: { webauthn: webauthnSignInType },
  rateLimits: PASSKEY_RATE_LIMITS,
  errors: webauthnErrors,
  warnings: (config) =>
    config.experimental.enableWebAuthn
      ? [{ key: "experimental-webauthn", message: "WebAuthn is an experimental feature. It may change or be removed without notice. Do not use it in production." }]
      : [],
  routes: [{ action: "webauthn-options", answers: "json", withProvider: true, GET: { handler: webauthnOptionsRoute, csrf: false, rateLimit: "passkey.perClient" } }],
}

export { webauthnOptions } from "./options.js"
export { DEFAULT_CHALLENGE_MAX_AGE } from "./challenge.js"
// What passkey management builds on: stored credential ids and names as the sign-in flow keeps them.
export { credentialIdToStored, storedIdToBase64url, transportsOf } from "./encoding.js"
export { cleanPasskeyName, MAX_PASSKEY_NAME_LENGTH } from "./names.js"
// What two-factor sign-in builds on: a passkey as the second factor of a held sign-in.
export { passkeyProviderForUser, verifyHeldSignInPasskey, verifyStepUpPasskey, type HeldPasskeyCheck } from "./second-factor.js"
export { WebAuthnVerificationError, WEBAUTHN_ERROR_CODES } from "./errors.js"
