/**
 * Errors of a sign-in: refusals the user may see (a wrong password, a used link, a cancelled
 * authorization) and the provider faults that only the log explains.
 */
import { CataloguedError, type CataloguedErrorOptions } from "./catalogued.js"
import type { ErrorCode } from "./codes.js"

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
