/**
 * What the built-in pages say about each client-safe error type. The error type in a URL is
 * attacker-controlled, so it only ever selects one of these fixed texts: it is never shown itself.
 * A capability's types bring their texts in their declarations (`ErrorDeclaration.text`).
 */
import type { ErrorText } from "../types/capability.js"

export type { ErrorText } from "../types/capability.js"


const SIGN_IN_FAILED = "Unable to sign in"

const TEXTS: ReadonlyMap<string, ErrorText> = new Map([
  ["Configuration", {
    status: 500,
    title: "Server error",
    message: "There is a problem with the server configuration. Please try again later or contact the site owner.",
  }],
  ["AccessDenied", { status: 403, title: "Access denied", message: "You do not have permission to sign in." }],
  ["Verification", {
    status: 400,
    title: "Link no longer valid",
    message: "The sign-in link is no longer valid. It may have expired or been used already. Request a new one.",
  }],
  ["MissingCSRF", {
    status: 403,
    title: "Request blocked",
    message: "The form could not be verified, probably because it was open for too long. Please try again.",
  }],
  ["OAuthAccountNotLinked", {
    status: 400,
    title: SIGN_IN_FAILED,
    message: "This email address is already linked to another sign-in method. Sign in the way you used before.",
  }],
  ["CredentialsSignin", {
    status: 400,
    title: SIGN_IN_FAILED,
    message: "Sign in failed. Check the details you provided are correct.",
  }],
  ["OAuthCallbackCancelled", {
    status: 400,
    title: "Sign-in cancelled",
    message: "The sign-in was cancelled or refused at the provider. You can try again.",
    link: "Try again",
  }],
  ["OAuthSignInError", {
    status: 400,
    title: SIGN_IN_FAILED,
    message: "Signing in with this provider could not be started. Try again or use another method.",
  }],
  ["OAuthCallbackError", {
    status: 400,
    title: SIGN_IN_FAILED,
    message: "The provider's answer could not be processed. Try again or use another method.",
  }],
  ["SessionRequired", { status: 400, title: "Sign in required", message: "Please sign in to view this page." }],
])

/**
 * `EmailSignInError` covers two causes told apart by `code`: an address the normaliser refused
 * (`EMAIL_*`, the user can fix it) and a failed send (`SEND_FAILED` or the sender's own code),
 * which is the site's problem and must not send the user off checking a correct address.
 */
const EMAIL_ADDRESS_REFUSED: ErrorText = {
  status: 400,
  title: SIGN_IN_FAILED,
  message: "The sign-in email could not be sent. Check the address and try again.",
}
const EMAIL_NOT_SENT: ErrorText = {
  status: 500,
  title: SIGN_IN_FAILED,
  message: "The sign-in email could not be sent. The problem is on this site's side; please try again later.",
}

/** `RateLimited`: too many attempts (429), or the store that counts them failed (503, the site's fault). */
const RATE_LIMITED: ErrorText = {
  status: 429,
  title: "Too many attempts",
  message: "There have been too many attempts. Please wait a little, then try again.",
  link: "Try again",
}
const LIMITS_UNAVAILABLE: ErrorText = {
  status: 503,
  title: "Sign-in unavailable",
  message: "Signing in is unavailable right now because of a problem on this site's side. Please try again in a minute.",
  link: "Try again",
}

/** `ReauthenticationRequired`: signed in, but not recently enough (or without a second factor) for a change to the ways in. */
const VERIFY_AGAIN: ErrorText = {
  status: 403,
  title: "Confirm it is you",
  message: "This change needs a recent verification. Verify a code from your authenticator app (or sign in again), then try once more.",
  link: "Sign in again",
}
const SECOND_FACTOR_NEEDED: ErrorText = {
  ...VERIFY_AGAIN,
  message: "This change needs your second factor. Verify a code from your authenticator app, a backup code or a passkey, then try once more.",
}

const DEFAULT: ErrorText = {
  status: 400,
  title: SIGN_IN_FAILED,
  message: "Something went wrong while signing in. Please try again.",
}

/** The texts capabilities declare for their own error types (the registry's `errorText`). */
export type CapabilityTexts = (type: string) => ErrorText | undefined

/**
 * The texts for an error type; unknown types (including `"constructor"`, `"__proto__"` and other
 * prototype keys, which a `Map` does not inherit) get the default texts. `code` (from `?code=`,
 * attacker-controlled like the type) only chooses between fixed texts and is never shown here.
 */
export function errorText(type: unknown, code?: unknown, capabilityTexts?: CapabilityTexts): ErrorText {
  if (type === "EmailSignInError") {
    return typeof code === "string" && code.startsWith("EMAIL_") ? EMAIL_ADDRESS_REFUSED : EMAIL_NOT_SENT
  }
  if (type === "RateLimited") return code === "STORE_UNAVAILABLE" ? LIMITS_UNAVAILABLE : RATE_LIMITED
  if (type === "ReauthenticationRequired") return code === "SECOND_FACTOR_REQUIRED" ? SECOND_FACTOR_NEEDED : VERIFY_AGAIN
  if (typeof type !== "string") return DEFAULT
  return TEXTS.get(type) ?? capabilityTexts?.(type) ?? DEFAULT
}
