/** Passkeys (WebAuthn): the options route's logic and the callback flow. */
export { webauthnFlow } from "./callback.js"
export { webauthnOptions } from "./options.js"
export { relyingPartyProblem, staticRelyingParty } from "./relying-party.js"
export { DEFAULT_CHALLENGE_MAX_AGE } from "./challenge.js"
