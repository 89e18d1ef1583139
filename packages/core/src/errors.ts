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
import type { CataloguedType, ErrorCode } from "./error-codes.js"

export { AuthError, JWTSessionError, MissingSalt, MissingSecret }
export type { AuthErrorOptions, ErrorCause } from "@authlib/jwt"
export { APP_DEFINED_CODES, ERROR_CODES } from "./error-codes.js"
export type { CallbackStep, CataloguedType, CheckName, ErrorCode } from "./error-codes.js"

/** Options of a catalogued error: `code` is one of its type's codes (see `ERROR_CODES`). */
export interface CataloguedErrorOptions<T extends CataloguedType> extends AuthErrorOptions {
  code?: ErrorCode<T>
}

/**
 * Base of core's error classes: an `AuthError` whose `code` is typed from the catalogue, so a
 * code that is not in `ERROR_CODES` does not compile.
 */
export class CataloguedError<T extends CataloguedType> extends AuthError {
  static override type = "CataloguedError"
  declare code?: ErrorCode<T>
  constructor(message?: string, options: CataloguedErrorOptions<T> = {}) {
    super(message, options)
  }
}

/**
 * Thrown from a credentials provider's `authorize` to refuse a sign-in. Subclass it with your own
 * `code` to say why; the code lands in the redirect URL, so it must not reveal sensitive detail.
 */
export class CredentialsSignin extends CataloguedError<"CredentialsSignin"> {
  static override type = "CredentialsSignin"
  declare type: "CredentialsSignin"
  static override clientSafe = true
  /** Placed in the `code` query parameter of the redirect to the sign-in page. Default `"credentials"`. */
  declare code: ErrorCode<"CredentialsSignin">
  constructor(message?: string, options: CataloguedErrorOptions<"CredentialsSignin"> = {}) {
    super(message ?? "Invalid credentials", options)
    this.code ??= "credentials"
  }
}

/** The `signIn` callback refused the sign-in (returned false or threw). */
export class AccessDenied extends CataloguedError<"AccessDenied"> {
  static override type = "AccessDenied"
  declare type: "AccessDenied"
  static override clientSafe = true
}

/** The server's configuration is wrong; the details are in the server log only. */
export class Configuration extends CataloguedError<"Configuration"> {
  static override type = "Configuration"
  declare type: "Configuration"
}

/** A state-changing POST without a valid CSRF token, or from another origin. */
export class MissingCSRF extends CataloguedError<"MissingCSRF"> {
  static override type = "MissingCSRF"
  declare type: "MissingCSRF"
  static override clientSafe = true
}

/** `trustHost` is not true (spec 1.6). */
export class UntrustedHost extends CataloguedError<"UntrustedHost"> {
  static override type = "UntrustedHost"
  declare type: "UntrustedHost"
}

/** A `callbackUrl` the `redirect` callback did not return as a usable URL. */
export class InvalidCallbackUrl extends CataloguedError<"InvalidCallbackUrl"> {
  static override type = "InvalidCallbackUrl"
  declare type: "InvalidCallbackUrl"
}

/** An e-mail sign-in link that is expired, used, unknown or for another address. */
export class Verification extends CataloguedError<"Verification"> {
  static override type = "Verification"
  declare type: "Verification"
  static override clientSafe = true
}

/** An OAuth sign-in whose e-mail belongs to another user, and linking by e-mail is off. */
export class OAuthAccountNotLinked extends CataloguedError<"OAuthAccountNotLinked"> {
  static override type = "OAuthAccountNotLinked"
  declare type: "OAuthAccountNotLinked"
  static override clientSafe = true
}

/** An adapter method threw; `cause.err` is the adapter's error, `cause.method` the method. */
export class AdapterError extends CataloguedError<"AdapterError"> {
  static override type = "AdapterError"
  declare type: "AdapterError"
}

/** The request names an action that does not exist. */
export class UnknownAction extends CataloguedError<"UnknownAction"> {
  static override type = "UnknownAction"
  declare type: "UnknownAction"
}

/** The request names a provider that is not configured, or one whose type cannot do this step. */
export class InvalidProvider extends CataloguedError<"InvalidProvider"> {
  static override type = "InvalidProvider"
  declare type: "InvalidProvider"
}

/** The configuration needs an adapter and has none. */
export class MissingAdapter extends CataloguedError<"MissingAdapter"> {
  static override type = "MissingAdapter"
  declare type: "MissingAdapter"
}

/** The adapter lacks methods the configuration needs (`cause.missing` lists them), as in Auth.js. */
export class MissingAdapterMethods extends CataloguedError<"MissingAdapterMethods"> {
  static override type = "MissingAdapterMethods"
  declare type: "MissingAdapterMethods"
}

/** A credentials provider without `authorize`. */
export class MissingAuthorize extends CataloguedError<"MissingAuthorize"> {
  static override type = "MissingAuthorize"
  declare type: "MissingAuthorize"
}

/** A WebAuthn provider without `experimental.enableWebAuthn`. */
export class ExperimentalFeatureNotEnabled extends CataloguedError<"ExperimentalFeatureNotEnabled"> {
  static override type = "ExperimentalFeatureNotEnabled"
  declare type: "ExperimentalFeatureNotEnabled"
}

/** Two providers share an id. */
export class DuplicateProviderId extends CataloguedError<"DuplicateProviderId"> {
  static override type = "DuplicateProviderId"
  declare type: "DuplicateProviderId"
}

/**
 * A passkey request or response that cannot be accepted: a missing, expired, replayed or foreign
 * challenge, an unknown credential, a response for another origin or RP ID, a bad signature, no
 * user verification where it is required, a counter that went backwards (a cloned authenticator).
 * Client-safe: the user sees that the passkey could not be used; `code` says why.
 */
export class WebAuthnVerificationError extends CataloguedError<"WebAuthnVerificationError"> {
  static override type = "WebAuthnVerificationError"
  declare type: "WebAuthnVerificationError"
  static override clientSafe = true
}

/**
 * The request needs a signed-in user and carries no valid session (managing passkeys). Client-safe;
 * the JSON answer is 401.
 */
export class SessionRequired extends CataloguedError<"SessionRequired"> {
  static override type = "SessionRequired"
  declare type: "SessionRequired"
  static override clientSafe = true
}

/**
 * A passkey-management request that cannot be done: no such passkey among the signed-in user's
 * (`PASSKEY_UNKNOWN`, 404: another user's passkey answers exactly the same), a name that is empty
 * once cleaned (`PASSKEY_NAME_INVALID`), a missing id or unknown action (400), or the deletion of
 * the user's last way to sign in (`LAST_SIGN_IN_METHOD`, 409). Client-safe: `code` says why.
 */
export class PasskeyManagementError extends CataloguedError<"PasskeyManagementError"> {
  static override type = "PasskeyManagementError"
  declare type: "PasskeyManagementError"
  static override clientSafe = true
  /** The HTTP status of the JSON answer, from `code`. */
  get status(): number {
    return this.code === "PASSKEY_UNKNOWN" ? 404 : this.code === "LAST_SIGN_IN_METHOD" ? 409 : 400
  }
}

/**
 * Too many attempts (`LIMIT_REACHED`, HTTP 429), or the rate-limit store failed and the limits fail
 * closed (`STORE_UNAVAILABLE`, HTTP 503). `retryAfter` is the number of seconds after which a new
 * attempt may pass (also sent as `Retry-After`). The same answer whether or not the account exists.
 */
export class RateLimited extends CataloguedError<"RateLimited"> {
  static override type = "RateLimited"
  declare type: "RateLimited"
  static override clientSafe = true
  /** Seconds until a new attempt may pass (at least 1). */
  readonly retryAfter: number
  constructor(message?: string, options: CataloguedErrorOptions<"RateLimited"> & { retryAfter?: number } = {}) {
    const { retryAfter, ...rest } = options
    super(message ?? "Too many attempts", rest)
    this.code ??= "LIMIT_REACHED"
    this.retryAfter = Math.max(1, Math.ceil(retryAfter ?? 60))
  }
  /** The HTTP status of the answer, from `code`. */
  get status(): number {
    return this.code === "STORE_UNAVAILABLE" ? 503 : 429
  }
}

/**
 * An OAuth/OIDC provider has no usable authorization endpoint (none configured and none
 * discovered from its issuer), as Auth.js names it.
 */
export class InvalidEndpoints extends CataloguedError<"InvalidEndpoints"> {
  static override type = "InvalidEndpoints"
  declare type: "InvalidEndpoints"
}

/** The provider's profile (as the `profile` callback mapped it) has no usable `id`, as Auth.js names it. */
export class OAuthProfileParseError extends CataloguedError<"OAuthProfileParseError"> {
  static override type = "OAuthProfileParseError"
  declare type: "OAuthProfileParseError"
}

/**
 * `getAccessToken` could not give a valid access token: the user has no account of that provider
 * (`ACCOUNT_NOT_LINKED`), the token expired and there is no refresh token (`REFRESH_TOKEN_MISSING`),
 * the provider refused the refresh token (`INVALID_GRANT`: revoked, expired or already used; sign the
 * user in with the provider again), or the refresh failed twice for another reason (`REFRESH_FAILED`:
 * network, a 5xx, an answer that does not validate). The stored tokens are unchanged in every case.
 * Named after the `session.error` value of Auth.js's refresh guide.
 */
export class RefreshTokenError extends CataloguedError<"RefreshTokenError"> {
  static override type = "RefreshTokenError"
  declare type: "RefreshTokenError"
  /**
   * With tokens kept in a JWT session (`session.providerTokens`) and `INVALID_GRANT`: the
   * `Set-Cookie` values of the session re-issued with `error: "RefreshTokenError"`; send them.
   */
  setCookie?: string[]
  /**
   * How loud the log is when a server function hands this to the app: a user without an account of
   * the provider is an answer the app asked for (`debug`); a provider refusing a refresh token, or
   * a token that cannot be refreshed, happens to users (`warn`); only a refresh that failed
   * (network, 5xx, an invalid answer) is for the operator to look at (`error`).
   */
  get logLevel(): "debug" | "warn" | "error" {
    return this.code === "ACCOUNT_NOT_LINKED" ? "debug" : this.code === "REFRESH_FAILED" ? "error" : "warn"
  }
}

/**
 * Managing a user's sessions was refused: `SESSION_ID_MISSING`, `SESSION_UNKNOWN` (also for
 * another user's session: the same answer as an unknown id), `DATABASE_SESSIONS_ONLY` (JWT
 * sessions are not stored, so they cannot be listed or ended one by one), `REVOCATION_UNAVAILABLE`
 * (JWT sessions of a user the adapter does not keep a session epoch for: they end when they expire),
 * `USER_UNKNOWN` (`revokeUserSessions` for a user the adapter does not store), `SESSION_ACTION_INVALID`.
 */
export class SessionManagementError extends CataloguedError<"SessionManagementError"> {
  static override type = "SessionManagementError"
  declare type: "SessionManagementError"
  static override clientSafe = true
  /** The HTTP status of a JSON answer, from `code`. */
  get status(): number {
    return this.code === "SESSION_UNKNOWN" || this.code === "USER_UNKNOWN" ? 404 : this.code === "DATABASE_SESSIONS_ONLY" || this.code === "REVOCATION_UNAVAILABLE" ? 409 : 400
  }
}

/**
 * Managing the sign-in methods linked to a user was refused: `ACCOUNT_PROVIDER_MISSING`,
 * `ACCOUNT_UNKNOWN` (no such linked account), `ACCOUNT_NOT_UNLINKABLE` (a passkey's or a password's
 * account: removed elsewhere), `LAST_SIGN_IN_METHOD` (unlinking it would leave no way to sign in).
 */
export class AccountManagementError extends CataloguedError<"AccountManagementError"> {
  static override type = "AccountManagementError"
  declare type: "AccountManagementError"
  static override clientSafe = true
  /** The HTTP status of a JSON answer, from `code`. */
  get status(): number {
    return this.code === "ACCOUNT_UNKNOWN" ? 404 : this.code === "LAST_SIGN_IN_METHOD" || this.code === "ACCOUNT_NOT_UNLINKABLE" ? 409 : 400
  }
}

/** A PKCE, state or nonce check failed in an OAuth callback. */
export class InvalidCheck extends CataloguedError<"InvalidCheck"> {
  static override type = "InvalidCheck"
  declare type: "InvalidCheck"
}

/** The OAuth provider returned an error, or its response failed validation. */
export class OAuthCallbackError extends CataloguedError<"OAuthCallbackError"> {
  static override type = "OAuthCallbackError"
  declare type: "OAuthCallbackError"
}

/**
 * The OAuth provider answered `error=access_denied`: the user cancelled at the provider (or the
 * provider refused them, which it does not tell apart). Code `AUTHORIZATION_DENIED`. The error page
 * says so and offers to try again, unlike `AccessDenied`, which is the app's own refusal.
 */
export class OAuthCallbackCancelled extends CataloguedError<"OAuthCallbackCancelled"> {
  static override type = "OAuthCallbackCancelled"
  declare type: "OAuthCallbackCancelled"
  static override clientSafe = true
}

/** Starting an OAuth sign-in failed (discovery, authorization URL). */
export class OAuthSignInError extends CataloguedError<"OAuthSignInError"> {
  static override type = "OAuthSignInError"
  declare type: "OAuthSignInError"
}

/** A callback route failed for a reason that is not the user's fault (for example `authorize` threw). */
export class CallbackRouteError extends CataloguedError<"CallbackRouteError"> {
  static override type = "CallbackRouteError"
  declare type: "CallbackRouteError"
}

/** A sign-in route failed for a reason that is not the user's fault. */
export class SignInError extends CataloguedError<"SignInError"> {
  static override type = "SignInError"
  declare type: "SignInError"
}

/** Reading or refreshing a session failed. */
export class SessionTokenError extends CataloguedError<"SessionTokenError"> {
  static override type = "SessionTokenError"
  declare type: "SessionTokenError"
}

/** An `events` handler threw. Logged only: events never break a sign-in. */
export class EventError extends CataloguedError<"EventError"> {
  static override type = "EventError"
  declare type: "EventError"
}

/** A callback (`jwt`, `session`, `redirect`) threw. */
export class CallbackError extends CataloguedError<"CallbackError"> {
  static override type = "CallbackError"
  declare type: "CallbackError"
}

/** The request itself is malformed: body, cookies, encoding, size. Answered with a 4xx JSON error. */
export class InvalidRequest extends CataloguedError<"InvalidRequest"> {
  static override type = "InvalidRequest"
  declare type: "InvalidRequest"
  static override clientSafe = true
  /** The HTTP status to answer with. */
  readonly status: number
  constructor(message?: string, options: CataloguedErrorOptions<"InvalidRequest"> & { status?: number } = {}) {
    const { status, ...rest } = options
    super(message, rest)
    this.status = status ?? 400
  }
}

/** The request uses a method the action does not accept. Answered with 405. */
export class MethodNotAllowed extends CataloguedError<"MethodNotAllowed"> {
  static override type = "MethodNotAllowed"
  declare type: "MethodNotAllowed"
  static override clientSafe = true
}

/**
 * Sending the sign-in e-mail failed. The flow logs the sender's error in full, removes the token it
 * had stored (so no usable link is left behind) and sends the user to the error page with
 * `?error=EmailSignInError&code=<code>`. An address the normaliser refuses sends the user back to
 * the sign-in page with the same type and the refusal's `code` (see {@link InvalidEmailAddress}).
 * Codes: `ERROR_CODES.EmailSignInError`, or the code the sender's `AuthError` carried (such as
 * `SMTP_REJECTED`).
 */
export class EmailSignInError extends CataloguedError<"EmailSignInError"> {
  static override type = "EmailSignInError"
  declare type: "EmailSignInError"
  static override clientSafe = true
}

/**
 * An e-mail address the normaliser refuses. Its `message` is written for the person who typed the
 * address; its `code` names the rule (`ERROR_CODES.InvalidEmailAddress`), `EMAIL_REFUSED` when a
 * provider's own `normalizeIdentifier` threw something else.
 */
export class InvalidEmailAddress extends CataloguedError<"InvalidEmailAddress"> {
  static override type = "InvalidEmailAddress"
  declare type: "InvalidEmailAddress"
  static override clientSafe = true
  declare code: ErrorCode<"InvalidEmailAddress">
  constructor(message: string, options: CataloguedErrorOptions<"InvalidEmailAddress"> & { code: ErrorCode<"InvalidEmailAddress"> }) {
    super(message, options)
  }
}

/**
 * A two-factor request that cannot be done. `SECRET_INVALID`: a TOTP secret to import is not
 * base32 of at least 16 bytes (the message names the position of a bad character, never the
 * secret). Client-safe: `code` says why, and nothing in it depends on the user's stored factors.
 */
export class TwoFactorError extends CataloguedError<"TwoFactorError"> {
  static override type = "TwoFactorError"
  declare type: "TwoFactorError"
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
  | WebAuthnVerificationError
  | SessionRequired
  | PasskeyManagementError
  | RateLimited
  | MissingAdapterMethods
  | InvalidEndpoints
  | OAuthProfileParseError
  | RefreshTokenError
  | SessionManagementError
  | AccountManagementError
  | TwoFactorError

/** The `type` strings of the catalogue. */
export type ErrorType = AnyAuthError["type"]

/** Whether an error may be shown to the end user by its own type. */
export function isClientSafe(err: unknown): err is AuthError {
  return err instanceof AuthError && (err.constructor as typeof AuthError).clientSafe === true
}
