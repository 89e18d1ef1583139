/**
 * The error catalogue of authlib. Every error is an `AuthError` (from `@authlib/jwt`) with a stable
 * `type` (the class name), a `code` naming the exact cause and a `cause` of plain facts.
 *
 * `clientSafe` errors reach the user as `?error=<type>` (and `&code=` for `CredentialsSignin` and
 * `EmailSignInError`);
 * every other error is logged in full through the logger and shown to the user as `Configuration`.
 */
import { AuthError, JWTSessionError, MissingSalt, MissingSecret } from "@authlib/jwt"
import type { AuthErrorOptions } from "@authlib/jwt"
import type { EmailSignInError, InvalidEmailAddress } from "./flows/email/errors.js"

export { AuthError, JWTSessionError, MissingSalt, MissingSecret }
export type { AuthErrorOptions, ErrorCause } from "@authlib/jwt"

/**
 * Thrown from a credentials provider's `authorize` to refuse a sign-in. Subclass it with your own
 * `code` to say why; the code lands in the redirect URL, so it must not reveal sensitive detail.
 */
export class CredentialsSignin extends AuthError {
  static override type = "CredentialsSignin"
  declare type: "CredentialsSignin"
  static override clientSafe = true
  /** Placed in the `code` query parameter of the redirect to the sign-in page. Default `"credentials"`. */
  declare code: string
  constructor(message?: string, options: AuthErrorOptions = {}) {
    super(message ?? "Invalid credentials", options)
    this.code ??= "credentials"
  }
}

/** The `signIn` callback refused the sign-in (returned false or threw). */
export class AccessDenied extends AuthError {
  static override type = "AccessDenied"
  declare type: "AccessDenied"
  static override clientSafe = true
}

/** The server's configuration is wrong; the details are in the server log only. */
export class Configuration extends AuthError {
  static override type = "Configuration"
  declare type: "Configuration"
}

/** A state-changing POST without a valid CSRF token, or from another origin. */
export class MissingCSRF extends AuthError {
  static override type = "MissingCSRF"
  declare type: "MissingCSRF"
  static override clientSafe = true
}

/** `trustHost` is not true (spec 1.6). */
export class UntrustedHost extends AuthError {
  static override type = "UntrustedHost"
  declare type: "UntrustedHost"
}

/** A `callbackUrl` the `redirect` callback did not return as a usable URL. */
export class InvalidCallbackUrl extends AuthError {
  static override type = "InvalidCallbackUrl"
  declare type: "InvalidCallbackUrl"
}

/** An e-mail sign-in link that is expired, used, unknown or for another address. */
export class Verification extends AuthError {
  static override type = "Verification"
  declare type: "Verification"
  static override clientSafe = true
}

/** An OAuth sign-in whose e-mail belongs to another user, and linking by e-mail is off. */
export class OAuthAccountNotLinked extends AuthError {
  static override type = "OAuthAccountNotLinked"
  declare type: "OAuthAccountNotLinked"
  static override clientSafe = true
}

/** An adapter method threw; `cause.err` is the adapter's error, `cause.method` the method. */
export class AdapterError extends AuthError {
  static override type = "AdapterError"
  declare type: "AdapterError"
}

/** The request names an action that does not exist. */
export class UnknownAction extends AuthError {
  static override type = "UnknownAction"
  declare type: "UnknownAction"
}

/** The request names a provider that is not configured, or one whose type cannot do this step. */
export class InvalidProvider extends AuthError {
  static override type = "InvalidProvider"
  declare type: "InvalidProvider"
}

/** The configuration needs an adapter (or adapter methods) that is missing. */
export class MissingAdapter extends AuthError {
  static override type = "MissingAdapter"
  declare type: "MissingAdapter"
}

/** A credentials provider without `authorize`. */
export class MissingAuthorize extends AuthError {
  static override type = "MissingAuthorize"
  declare type: "MissingAuthorize"
}

/** A WebAuthn provider without `experimental.enableWebAuthn`. */
export class ExperimentalFeatureNotEnabled extends AuthError {
  static override type = "ExperimentalFeatureNotEnabled"
  declare type: "ExperimentalFeatureNotEnabled"
}

/** Two providers share an id. */
export class DuplicateProviderId extends AuthError {
  static override type = "DuplicateProviderId"
  declare type: "DuplicateProviderId"
}

/** A PKCE, state or nonce check failed in an OAuth callback. */
export class InvalidCheck extends AuthError {
  static override type = "InvalidCheck"
  declare type: "InvalidCheck"
}

/** The OAuth provider returned an error, or its response failed validation. */
export class OAuthCallbackError extends AuthError {
  static override type = "OAuthCallbackError"
  declare type: "OAuthCallbackError"
}

/**
 * The OAuth provider answered `error=access_denied`: the user cancelled at the provider (or the
 * provider refused them, which it does not tell apart). Code `AUTHORIZATION_DENIED`. The error page
 * says so and offers to try again, unlike `AccessDenied`, which is the app's own refusal.
 */
export class OAuthCallbackCancelled extends AuthError {
  static override type = "OAuthCallbackCancelled"
  declare type: "OAuthCallbackCancelled"
  static override clientSafe = true
}

/** Starting an OAuth sign-in failed (discovery, authorization URL). */
export class OAuthSignInError extends AuthError {
  static override type = "OAuthSignInError"
  declare type: "OAuthSignInError"
}

/** A callback route failed for a reason that is not the user's fault (for example `authorize` threw). */
export class CallbackRouteError extends AuthError {
  static override type = "CallbackRouteError"
  declare type: "CallbackRouteError"
}

/** A sign-in route failed for a reason that is not the user's fault. */
export class SignInError extends AuthError {
  static override type = "SignInError"
  declare type: "SignInError"
}

/** Reading or refreshing a session failed. */
export class SessionTokenError extends AuthError {
  static override type = "SessionTokenError"
  declare type: "SessionTokenError"
}

/** An `events` handler threw. Logged only: events never break a sign-in. */
export class EventError extends AuthError {
  static override type = "EventError"
  declare type: "EventError"
}

/** A callback (`jwt`, `session`, `redirect`) threw. */
export class CallbackError extends AuthError {
  static override type = "CallbackError"
  declare type: "CallbackError"
}

/** The request itself is malformed: body, cookies, encoding, size. Answered with a 4xx JSON error. */
export class InvalidRequest extends AuthError {
  static override type = "InvalidRequest"
  declare type: "InvalidRequest"
  static override clientSafe = true
  /** The HTTP status to answer with. */
  readonly status: number
  constructor(message: string, options: { code: string; status?: number; cause?: Record<string, unknown> }) {
    super(message, { code: options.code, ...(options.cause ? { cause: options.cause } : {}) })
    this.status = options.status ?? 400
  }
}

/** The request uses a method the action does not accept. Answered with 405. */
export class MethodNotAllowed extends AuthError {
  static override type = "MethodNotAllowed"
  declare type: "MethodNotAllowed"
  static override clientSafe = true
}

/** An error of `@authlib/jwt` seen with its literal `type`, so the union below discriminates. */
type Typed<E, T extends string> = E & { type: T }

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

/** The `type` strings of the catalogue. */
export type ErrorType = AnyAuthError["type"]

/** Whether an error may be shown to the end user by its own type. */
export function isClientSafe(err: unknown): err is AuthError {
  return err instanceof AuthError && (err.constructor as typeof AuthError).clientSafe === true
}
