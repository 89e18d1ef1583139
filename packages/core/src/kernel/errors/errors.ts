/**
 * The error catalogue of authlib. Every error is an `AuthError` (from `@authlib/jwt`) with a stable
 * `type` (the class name), a `code` naming the exact cause and a `cause` of plain facts.
 *
 * `clientSafe` errors reach the user as `?error=<type>` (and `&code=` for `CredentialsSignin` and
 * `EmailSignInError`);
 * every other error is logged in full through the logger and shown to the user as `Configuration`.
 */
import type { JWTSessionError, MissingSalt, MissingSecret } from "@authlib/jwt"
import type { AccessDenied, CallbackRouteError, CredentialsSignin, EmailSignInError, InvalidCheck, InvalidEmailAddress, InvalidEndpoints, OAuthAccountNotLinked, OAuthCallbackCancelled, OAuthCallbackError, OAuthProfileParseError, OAuthSignInError, SignInError, Verification } from "./sign-in.js"
import type { AdapterError, CallbackError, Configuration, DuplicateProviderId, EventError, ExperimentalFeatureNotEnabled, MissingAdapter, MissingAdapterMethods, MissingAuthorize, SessionTokenError, UntrustedHost } from "./configuration.js"
import type { InvalidCallbackUrl, InvalidProvider, InvalidRequest, MethodNotAllowed, MissingCSRF, RateLimited, ReauthenticationRequired, SessionRequired, UnknownAction } from "./request.js"
import type { RefreshTokenError } from "./management.js"

export { AuthError, JWTSessionError, MissingSalt, MissingSecret } from "@authlib/jwt"
export type { AuthErrorOptions, ErrorCause } from "@authlib/jwt"
export { APP_DEFINED_CODES, KERNEL_ERROR_CODES } from "./codes.js"
export type { CallbackStep, CapabilityErrorCodes, CataloguedType, CheckName, ErrorCode, ErrorCodes, ListedCode } from "./codes.js"
export { CataloguedError, isClientSafe, type CataloguedErrorOptions } from "./catalogued.js"
export { CredentialsSignin, AccessDenied, Verification, OAuthAccountNotLinked, InvalidCheck, OAuthCallbackError, OAuthCallbackCancelled, OAuthSignInError, CallbackRouteError, SignInError, EmailSignInError, InvalidEmailAddress, InvalidEndpoints, OAuthProfileParseError } from "./sign-in.js"
export { Configuration, UntrustedHost, AdapterError, MissingAdapter, MissingAdapterMethods, MissingAuthorize, ExperimentalFeatureNotEnabled, DuplicateProviderId, SessionTokenError, EventError, CallbackError } from "./configuration.js"
export { MissingCSRF, InvalidCallbackUrl, UnknownAction, InvalidProvider, InvalidRequest, MethodNotAllowed, RateLimited, ReauthenticationRequired, SessionRequired } from "./request.js"
export { RefreshTokenError } from "./management.js"

type Typed<E, T extends string> = E & { type: T }

/**
 * The error classes capabilities add (type -> class instance), by declaration merging: each is a
 * member of `AnyAuthError`.
 */
export interface CapabilityErrors {}

/**
 * Every error authlib throws, discriminated by `type`:
 * `switch (err.type) { case "CredentialsSignin": err.code ... }`.
 */
export type AnyAuthError =
  | Typed<MissingSecret, "MissingSecret">
  | Typed<MissingSalt, "MissingSalt">
  | Typed<JWTSessionError, "JWTSessionError">
  | CredentialsSignin
  | AccessDenied
  | Configuration
  | MissingCSRF
  | UntrustedHost
  | InvalidCallbackUrl
  | Verification
  | OAuthAccountNotLinked
  | AdapterError
  | UnknownAction
  | InvalidProvider
  | MissingAdapter
  | MissingAuthorize
  | ExperimentalFeatureNotEnabled
  | DuplicateProviderId
  | InvalidCheck
  | OAuthCallbackError
  | OAuthCallbackCancelled
  | OAuthSignInError
  | CallbackRouteError
  | SignInError
  | SessionTokenError
  | EventError
  | CallbackError
  | InvalidRequest
  | MethodNotAllowed
  | EmailSignInError
  | InvalidEmailAddress
  | SessionRequired
  | ReauthenticationRequired
  | RateLimited
  | MissingAdapterMethods
  | InvalidEndpoints
  | OAuthProfileParseError
  | RefreshTokenError
  | CapabilityErrors[keyof CapabilityErrors]

/** The `type` strings of the catalogue. */
export type ErrorType = AnyAuthError["type"]
