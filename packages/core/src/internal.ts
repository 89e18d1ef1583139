/**
 * `@authlib/core/internal`: what authlib's own packages (bindings, providers) share with core but
 * applications should not build on. **Unstable**: anything here may change in a patch release.
 * The stable surface is the package root; `api-report.md` in this package lists both.
 *
 * @module
 */
export { authResult } from "./auth-result.js"
export { accessTokenResult, refreshErrorCookies } from "./access-token.js"
export { revocationResult } from "./session-functions.js"
export type { Revocation } from "./sessions/types.js"
export type { AccessTokenResult } from "./access-token.js"
export { encodeCookieValue, serializeCookie } from "./cookies/serialize.js"
export { toResponse, wantsRedirectAsJson } from "./http/to-response.js"
export { defaultCookies } from "./cookies/names.js"
export { DEFAULT_BASE_PATH, isAuthPath, normalizeBasePath } from "./config/base-path.js"
export type { AuthAction, AuthRequest, AuthResponse, Context } from "./http/types.js"
export type { Flow, FlowContext, FlowOutcome, SignInResult } from "./flows/types.js"
// Two-factor sign-in's building blocks: the conformance suite of @authlib/adapter-test enrols with them.
export { base32Encode } from "./capabilities/two-factor/base32.js"
export { createTotpKey } from "./capabilities/two-factor/totp.js"
export { sealTotpKey } from "./capabilities/two-factor/secret-box.js"
export { generateBackupCodes, hashBackupCode, normalizeBackupCode } from "./capabilities/two-factor/backup-codes.js"
