/**
 * `@authlib/core`: Web-standard authentication. `Auth(request, config)` answers every request under
 * `basePath` (default `/auth`) with a `Response`:
 *
 * | Route | Method | Answer |
 * |---|---|---|
 * | `providers` | GET | `{ [id]: { id, name, type, signinUrl, callbackUrl } }` |
 * | `csrf` | GET | `{ csrfToken }` (+ CSRF cookie when new) |
 * | `session` | GET / POST | the session or `null`; POST updates it (CSRF) |
 * | `signin` | GET | sign-in page |
 * | `signin/:provider` | POST | starts the provider's flow (CSRF) |
 * | `callback/:provider` | GET / POST | finishes it, sets the session, redirects |
 * | `signout` | GET / POST | confirm page / signs out (CSRF) |
 * | `verify-request`, `error` | GET | pages |
 * | `webauthn-options/:provider` | GET | passkey options (+ challenge cookie) |
 * | `passkeys` | GET / POST | the signed-in user's passkeys / rename or delete one (CSRF) |
 * | `sessions` | GET / POST | the signed-in user's sessions / end one or the others (CSRF; database sessions) |
 *
 * @example
 * ```ts
 * import { Auth, setEnvDefaults } from "@authlib/core"
 * const config = { providers: [credentials], trustHost: true }
 * setEnvDefaults(process.env, config)
 * export default { fetch: (request: Request) => Auth(request, config) }
 * ```
 */
import { resolveConfig } from "./kernel/config/resolve.js"
import { configured, forApp, forRequests } from "./registry.js"
import { dispatch } from "./kernel/http/dispatch.js"
import { toResponse, wantsRedirectAsJson } from "./kernel/http/to-response.js"
import { logError } from "./kernel/errors/logger.js"
import type { AuthResponse } from "./kernel/types/http.js"
import type { raw } from "./kernel/types/raw.js"
import type { AuthConfig, AuthRequestOptions } from "./kernel/types/config.js"
import * as linkedAccountFunctions from "./capabilities/linked-accounts/functions.js"
import * as passkeyManagementFunctions from "./capabilities/passkey-management/functions.js"
import * as providerTokenFunctions from "./capabilities/provider-tokens/functions.js"
import * as sessionManagementFunctions from "./capabilities/session-management/functions.js"
import * as twoFactorFunctions from "./capabilities/two-factor/functions.js"
import * as twoFactorPendingInfo from "./capabilities/two-factor/pending-info.js"
import * as twoFactorRecentAuthentication from "./capabilities/two-factor/recent-authentication.js"
import * as twoFactorSessionFunctions from "./capabilities/two-factor/functions-session.js"
import * as twoFactorUnlock from "./capabilities/two-factor/unlock.js"

/** What `Auth` resolves to with the `raw` marker: the internal result, cookies not yet serialised. */
export type AuthResult = AuthResponse

/**
 * Handles one request. `options.clientAddress` (the peer address) enables per-client rate limits.
 * Never throws for bad input: malformed requests get a 4xx JSON answer and
 * other errors a redirect to the error page (or a JSON error on JSON routes).
 *
 * With `raw` in the config (server-side bindings), resolves the internal `AuthResult` instead and
 * throws `AuthError`s (such as `CredentialsSignin`) to the caller.
 */
export function Auth(request: Request, config: AuthConfig & { raw: typeof raw }, options?: AuthRequestOptions): Promise<AuthResult>
export function Auth(request: Request, config: AuthConfig, options?: AuthRequestOptions): Promise<Response>
export async function Auth(request: Request, config: AuthConfig, options?: AuthRequestOptions): Promise<Response | AuthResult> {
  const resolved = resolveConfig(configured(config))
  const result = await dispatch(request, resolved, options?.clientAddress)
  if (resolved.raw) return result
  try {
    return toResponse(result, wantsRedirectAsJson(request))
  } catch (err) {
    // Only a value that cannot be sent (a cookie option the platform rejects) gets here.
    logError(resolved.logger, err)
    return new Response(JSON.stringify({ error: "Configuration" }), { status: 500, headers: { "content-type": "application/json" } })
  }
}

export type {
  Account, AuthConfig, AuthRequestOptions, AuthorizationDetails, Awaitable, CallbacksOptions,
  CookieOption, CookiesOptions, DefaultSession, EventCallbacks, JWT, JWTOptions, JsonValue,
  LoggerInstance, PagesOptions, Profile, Session, SessionOptions, Theme, User
} from "./kernel/types/config.js"
export type { TwoFactorOptions } from "./capabilities/two-factor/options.js"
export type {
  Adapter, AdapterAccount, AdapterAccountType, AdapterAuthenticator, AdapterSession,
  AdapterUser, SessionMetadata, VerificationToken
} from "./kernel/types/adapters.js"
export type { AdapterTwoFactor } from "./capabilities/two-factor/adapter.js"
export type {
  AccountCallback, AppProvider, AuthorizationEndpointHandler, CommonProviderOptions,
  CredentialInput, CredentialsConfig, CredentialsProviderId, EmailConfig, EmailProviderFields,
  EmailProviderId, EmailProviderSendVerificationRequestParams, EmailProviderType, EmailUserConfig,
  EndpointHandler, OAuth2Config, OAuthChecks, OAuthClientOverrides, OAuthConfig, OAuthConfigInternal,
  OAuthProviderButtonStyles, OAuthProviderFields, OAuthProviderId, OAuthProviderType, OAuthUserConfig,
  OIDCChecks, OIDCConfig, OIDCUserConfig, ProfileCallback, Provider, ProviderConfig, ProviderType,
  ProviderUser, SimpleWebAuthnServer, TokenEndpointHandler, TokenSet, UserinfoEndpointHandler,
  WebAuthnAuthenticatorSelection, WebAuthnConfig, WebAuthnCredentialInput, WebAuthnProviderType,
  WebAuthnRelyingParty, WebAuthnUserInfo
} from "./kernel/types/providers.js"
export {
  APP_DEFINED_CODES, AccessDenied, AdapterError, AuthError, CallbackError,
  CallbackRouteError, CataloguedError, Configuration, CredentialsSignin, DuplicateProviderId,
  EmailSignInError, EventError, ExperimentalFeatureNotEnabled, InvalidCallbackUrl, InvalidCheck,
  InvalidEmailAddress, InvalidEndpoints, InvalidProvider, InvalidRequest, JWTSessionError,
  MethodNotAllowed, MissingAdapter, MissingAdapterMethods, MissingAuthorize, MissingCSRF, MissingSalt,
  MissingSecret, OAuthAccountNotLinked, OAuthCallbackCancelled, OAuthCallbackError,
  OAuthProfileParseError, OAuthSignInError, RateLimited, ReauthenticationRequired, RefreshTokenError,
  SessionRequired, SessionTokenError, SignInError, UnknownAction, UntrustedHost,
  Verification, isClientSafe
} from "./kernel/errors/errors.js"
export { TwoFactorError } from "./capabilities/two-factor/errors.js"
export { WebAuthnVerificationError } from "./capabilities/webauthn/errors.js"
export { SessionManagementError } from "./capabilities/session-management/errors.js"
export { PasskeyManagementError } from "./capabilities/passkey-management/errors.js"
export { AccountManagementError } from "./capabilities/linked-accounts/errors.js"
export { ADAPTER_PORTS, DEFAULT_RATE_LIMITS, ERROR_CODES } from "./registry.js"
export type {
  AnyAuthError, AuthErrorOptions, CallbackStep, CataloguedErrorOptions, CataloguedType, CheckName,
  ErrorCause, ErrorCode, ErrorType
} from "./kernel/errors/errors.js"
export const { listPasskeys, renamePasskey, deletePasskey } = forRequests(passkeyManagementFunctions)
export const { getAccessToken } = forRequests(providerTokenFunctions)
export const { listSessions, revokeSession, revokeOtherSessions, signOutEverywhere } = forRequests(sessionManagementFunctions)
export const { revokeUserSessions } = forApp(sessionManagementFunctions)
export type { SessionInfo, SessionRevocation } from "./capabilities/session-management/functions.js"
export const { listLinkedAccounts, listSignInMethods, unlinkLinkedAccount } = forRequests(linkedAccountFunctions)
export type { LinkedAccount } from "./capabilities/linked-accounts/functions.js"
export type { SignInMethod } from "./capabilities/linked-accounts/ways-in.js"
export type { GetAccessTokenOptions, ProviderAccessToken } from "./capabilities/provider-tokens/functions.js"
export { MAX_PASSKEY_NAME_LENGTH } from "./capabilities/passkey-management/info.js"
export type { PasskeyInfo } from "./capabilities/passkey-management/info.js"
export const { confirmTotpEnrollment, disableTwoFactorSignIn, getTwoFactorStatus, regenerateTwoFactorBackupCodes, startTotpEnrollment } = forRequests(twoFactorFunctions)
export type { TotpEnrollment, TwoFactorStatus } from "./capabilities/two-factor/manage.js"
export const { unlockTwoFactor } = forApp(twoFactorUnlock)
export type { TwoFactorLockedMessage } from "./capabilities/two-factor/events.js"
export const { requireRecentAuthentication } = forRequests(twoFactorRecentAuthentication)
export type { AuthenticationInfo, RecentAuthentication } from "./capabilities/two-factor/recent-authentication.js"
export type { StepUpResult } from "./capabilities/two-factor/step-up.js"
export const { completeTwoFactorSignIn, completeTwoFactorSignInWithPasskey, stepUpTwoFactor } = forRequests(twoFactorSessionFunctions)
export type { CompletedTwoFactorSignIn, TwoFactorPasskeyInput } from "./capabilities/two-factor/functions-session.js"
export const { getPendingTwoFactor } = forRequests(twoFactorPendingInfo)
export type { ServerFunction, ServerResult } from "./kernel/run/server-function.js"
export type { PendingTwoFactorInfo } from "./capabilities/two-factor/pending-info.js"
export type { RateLimitHit, RateLimitStep, RateLimitStore } from "./kernel/types/rate-limit-store.js"
export { MemoryRateLimitStore, DEFAULT_MEMORY_STORE_KEYS } from "./kernel/rate-limit/memory-store.js"
export type { MemoryRateLimitStoreOptions } from "./kernel/rate-limit/memory-store.js"
export { DEFAULT_MAX_LIVE_TOKENS } from "./capabilities/email/rate-limits.js"
export type { EmailRateLimitOptions } from "./capabilities/email/rate-limits.js"
export type { CredentialsRateLimitOptions } from "./capabilities/credentials/rate-limits.js"
export type { OAuthRateLimitOptions } from "./capabilities/oauth/rate-limits.js"
export type { PasskeyRateLimitOptions } from "./capabilities/webauthn/rate-limits.js"
export type { RateLimitGroup, RateLimitOptions, RateLimitRule, RateLimitRules } from "./kernel/rate-limit/options.js"
export type { TrustedProxies } from "./kernel/rate-limit/client-address.js"
export { skipCSRFCheck } from "./kernel/types/skip-csrf.js"
export { raw } from "./kernel/types/raw.js"
export { setEnvDefaults } from "./registry.js"
export type { PortName as AdapterPortName } from "./kernel/ports/ports.js"
export type { EnvSource } from "./kernel/config/env.js"
export type { Cookie } from "./kernel/cookies/serialize.js"
export { DEFAULT_EMAIL_MAX_AGE, MAX_ADDRESS_LENGTH, MAX_LOCAL_PART_LENGTH, normalizeEmailAddress } from "./capabilities/email/index.js"
export type { NormalizeEmailOptions } from "./capabilities/email/index.js"
export { allowInsecureOAuthRequests } from "./capabilities/oauth/insecure.js"
export { MAX_SESSION_TOKEN_LENGTH } from "./kernel/sessions/jwt-strategy.js"
export { encode, decode, getToken } from "@authlib/jwt"
