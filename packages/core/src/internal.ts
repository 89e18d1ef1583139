/**
 * `@authlib/core/internal`: what authlib's own packages (bindings, providers) share with core but
 * applications should not build on. **Unstable**: anything here may change in a patch release.
 * The stable surface is the package root; `api-report.md` in this package lists both.
 *
 * @module
 */
import { forRequests } from "./registry.js"
import * as kernelResult from "./kernel/run/auth-result.js"

// Bindings reach the kernel through this entry too: each function that takes a config hands it the
// registry as the root's do (`forRequests` in `registry.ts`).
export const { authResult } = forRequests(kernelResult)
// Every server function in one typed map, bound the same way, for the bindings' one generic wrapper each.
export { serverFunctions, type ServerFunctions } from "./server-functions.js"
export { callServerFunction, errorCookies, type AnyServerFunction, type ResultSink, type ServerWork } from "./kernel/run/server-function.js"
export { isAuthPath, withCapabilities } from "./registry.js"
export type { Revocation } from "./kernel/sessions/types.js"
export { encodeCookieValue, serializeCookie } from "./kernel/cookies/serialize.js"
export { parseCookiePairs } from "./kernel/cookies/parse.js"
// A `Date`'s ISO text without a `Date` formatting call (adapters write timestamps on every session write).
export { isoText } from "./kernel/objects/date-text.js"
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
