/**
 * OAuth 2 and OpenID Connect sign-in: the flow of `oauth` and `oidc` providers, their start-up
 * checks, their per-client limits, and RP-Initiated Logout at sign-out (`signOutAtProvider`).
 */
import type { Capability, FlowDeclaration } from "../../kernel/types/capability.js"
import { checkOAuthProvider } from "./check.js"
import { endSessionUrl } from "./end-session.js"
import { oauthFlow } from "./flow.js"

const declaration: FlowDeclaration = { flow: oauthFlow, limits: { signin: "oauth.perClient", callback: "oauth.perClient" }, check: checkOAuthProvider }

export const oauth: Capability = {
  name: "oauth",
  flows: { oauth: declaration, oidc: declaration },
  signOutRedirect: endSessionUrl,
}

export { allowInsecureOAuthRequests } from "./insecure.js"
export { clearDiscoveryCache } from "./discovery.js"
// What the refresh grant of provider tokens builds on: the same client, discovery and token mapping.
export { clientAuthOf, clientOf } from "./client.js"
export { authorizationServer } from "./discovery.js"
export { httpOptions } from "./insecure.js"
export { defaultAccount, normalizeTokens } from "./profile.js"
