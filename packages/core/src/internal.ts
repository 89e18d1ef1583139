/**
 * `@authlib/core/internal`: what authlib's own packages (bindings, providers) share with core but
 * applications should not build on. **Unstable**: anything here may change in a patch release.
 * The stable surface is the package root; `api-report.md` in this package lists both.
 *
 * @module
 */
import { forRequests } from "./registry.js"
import * as kernelResult from "./kernel/run/auth-result.js"
import * as providerTokenFunctions from "./capabilities/provider-tokens/functions.js"
import * as sessionManagementFunctions from "./capabilities/session-management/functions.js"
import * as twoFactorSessionFunctions from "./capabilities/two-factor/functions-session.js"
import * as twoFactorFunctions from "./capabilities/two-factor/functions.js"

// Bindings reach the kernel through this entry too: each function that takes a config hands it the
// registry as the root's do (`forRequests` in `registry.ts`).
export const { authResult } = forRequests(kernelResult)
export const { accessTokenResult } = forRequests(providerTokenFunctions)
export { refreshErrorCookies } from "./capabilities/provider-tokens/functions.js"
export const { revocationResult } = forRequests(sessionManagementFunctions)
export const { twoFactorPasskeySignInResult, twoFactorSignInResult, twoFactorStepUpResult } = forRequests(twoFactorSessionFunctions)
export const { totpConfirmationResult } = forRequests(twoFactorFunctions)
export { isAuthPath, withCapabilities } from "./registry.js"
export type { TwoFactorSignInResult } from "./capabilities/two-factor/functions-session.js"
export type { Revocation } from "./kernel/sessions/types.js"
export type { AccessTokenResult } from "./capabilities/provider-tokens/functions.js"
export { encodeCookieValue, serializeCookie } from "./kernel/cookies/serialize.js"
export { parseCookiePairs } from "./kernel/cookies/parse.js"
export { toResponse, wantsRedirectAsJson } from "./kernel/http/to-response.js"
export { defaultCookies } from "./kernel/cookies/names.js"
export { DEFAULT_BASE_PATH, normalizeBasePath } from "./kernel/config/base-path.js"
export type { AuthAction, AuthRequest, AuthResponse, Context } from "./kernel/types/http.js"
export type { Flow, FlowContext, FlowOutcome, SignInResult } from "./kernel/types/sign-in.js"
// Two-factor sign-in's building blocks: the conformance suite of @authlib/adapter-test enrols with them.
export { base32Encode } from "./capabilities/two-factor/base32.js"
export { createTotpKey } from "./capabilities/two-factor/totp.js"
export { sealTotpKey } from "./capabilities/two-factor/secret-box.js"
export { generateBackupCodes, hashBackupCode, normalizeBackupCode } from "./capabilities/two-factor/backup-codes.js"
