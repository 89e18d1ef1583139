/**
 * OAuth 2 and OpenID Connect sign-in: the sign-in type of `oauth` and `oidc` providers (flow,
 * start-up checks, per-client limits, user rules, page part: `sign-in-type.ts`), and RP-Initiated Logout at sign-out (`signOutAtProvider`).
 */
import type { Capability } from "../../kernel/types/capability.js"
import { endSessionUrl } from "./end-session.js"
import { oauthSignInType } from "./sign-in-type.js"
import { OAUTH_RATE_LIMITS } from "./rate-limits.js"

export const oauth: Capability = {
  name: "oauth",
  signInTypes: { oauth: oauthSignInType, oidc: oauthSignInType },
  rateLimits: OAUTH_RATE_LIMITS,
  signOutRedirect: endSessionUrl,
}

export { allowInsecureOAuthRequests } from "./insecure.js"
export { clearDiscoveryCache } from "./discovery.js"
// What the refresh grant of provider tokens builds on: the same client, discovery and token mapping.
export { clientAuthOf, clientOf } from "./client.js"
export { authorizationServer } from "./discovery.js"
export { httpOptions } from "./insecure.js"
export { defaultAccount, normalizeTokens } from "./profile.js"
