/**
 * `@authlib/core/errors`: every error class, the code catalogue and the error types, as
 * `@auth/core/errors` offers them, so an Auth.js app's imports move by changing the scope. The same
 * objects as the root's (`instanceof` holds across both).
 * @module
 */
export {
  APP_DEFINED_CODES, AccessDenied, AccountManagementError, AdapterError, AuthError, CallbackError,
  CallbackRouteError, CataloguedError, Configuration, CredentialsSignin, DuplicateProviderId, ERROR_CODES,
  EmailSignInError, EventError, ExperimentalFeatureNotEnabled, InvalidCallbackUrl, InvalidCheck,
  InvalidEmailAddress, InvalidEndpoints, InvalidProvider, InvalidRequest, JWTSessionError,
  MethodNotAllowed, MissingAdapter, MissingAdapterMethods, MissingAuthorize, MissingCSRF, MissingSalt,
  MissingSecret, OAuthAccountNotLinked, OAuthCallbackCancelled, OAuthCallbackError,
  OAuthProfileParseError, OAuthSignInError, PasskeyManagementError, RateLimited, ReauthenticationRequired, RefreshTokenError,
  SessionRequired, SessionTokenError, SignInError, UnknownAction, UntrustedHost,
  Verification, isClientSafe
} from "./index.js"
export type {
  AnyAuthError, AuthErrorOptions, CallbackStep, CataloguedErrorOptions, CataloguedType, CheckName,
  ErrorCause, ErrorCode, ErrorType
} from "./index.js"
// A capability's errors, one line each (the registry test leaves a capability out by its lines).
export { TwoFactorError } from "./index.js"
export { WebAuthnVerificationError } from "./index.js"
export { SessionManagementError } from "./index.js"
export { OrganizationError } from "./index.js"
export { SsoError, SsoSignInError } from "./index.js"
