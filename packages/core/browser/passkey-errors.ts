/**
 * What the built-in sign-in page tells a person whose passkey prompt failed, by what the browser
 * said. @simplewebauthn/browser turns the browser's `DOMException` into a `WebAuthnError` whose
 * `name` is the exception's (`SecurityError`, `NotAllowedError`, ...) and whose `code` names the
 * likely cause (`ERROR_INVALID_DOMAIN`: the page is at an IP address or a name that is no domain).
 * Each message says what the person can do about it; the codes (`INVALID_DOMAIN`, ...) are the
 * ones `@authlib/qwik/passkey` answers with. No DOM here, so it is unit-tested under Node.
 */

/** A failure the page shows: a code for scripts and tests, and the sentence for the person. */
export interface PasskeyFailure {
  code: string
  message: string
}

const FAILURES = {
  PROMPT_CANCELLED: "The passkey prompt was closed or timed out, or no passkey was chosen. Try again.",
  INVALID_DOMAIN: "Passkeys need a domain name, and this page was opened at an IP address. Open this site as localhost (or by its domain name) and try again.",
  RP_ID_MISMATCH: "Passkeys of this site belong to another address. Open the site at its usual address and try again.",
  CREDENTIAL_ALREADY_REGISTERED: "This passkey is already registered.",
  AUTHENTICATOR_UNSUPPORTED: "This device or security key cannot make a passkey for this site. Try another one.",
  AUTHENTICATOR_ERROR: "The passkey device reported an error. Try again, or use another device.",
  REQUEST_FAILED: "The passkey request could not be sent. Check your connection and try again.",
  PASSKEYS_UNSUPPORTED: "This browser does not support passkeys.",
  CREDENTIAL_UNKNOWN: "This passkey is not registered here. Sign in another way, then add it.",
  UNKNOWN: "The passkey could not be used. Try again, or sign in another way.",
} as const

/** The codes a failure may carry. */
export type PasskeyFailureCode = keyof typeof FAILURES

/** @simplewebauthn/browser's `WebAuthnError` codes, by the failure they mean. */
const BY_LIBRARY_CODE: Readonly<Record<string, PasskeyFailureCode>> = {
  ERROR_INVALID_DOMAIN: "INVALID_DOMAIN",
  ERROR_INVALID_RP_ID: "RP_ID_MISMATCH",
  ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED: "CREDENTIAL_ALREADY_REGISTERED",
  ERROR_AUTHENTICATOR_NO_SUPPORTED_PUBKEYCREDPARAMS_ALG: "AUTHENTICATOR_UNSUPPORTED",
  ERROR_AUTHENTICATOR_MISSING_DISCOVERABLE_CREDENTIAL_SUPPORT: "AUTHENTICATOR_UNSUPPORTED",
  ERROR_AUTHENTICATOR_MISSING_USER_VERIFICATION_SUPPORT: "AUTHENTICATOR_UNSUPPORTED",
  ERROR_AUTHENTICATOR_GENERAL_ERROR: "AUTHENTICATOR_ERROR",
}

/** The browser's exception names (the WebAuthn spec's eight), where no library code says more. */
const BY_NAME: Readonly<Record<string, PasskeyFailureCode>> = {
  NotAllowedError: "PROMPT_CANCELLED",
  InvalidStateError: "CREDENTIAL_ALREADY_REGISTERED",
  SecurityError: "RP_ID_MISMATCH",
  NotSupportedError: "AUTHENTICATOR_UNSUPPORTED",
  ConstraintError: "AUTHENTICATOR_UNSUPPORTED",
  UnknownError: "AUTHENTICATOR_ERROR",
  // fetch() rejects with a TypeError when the request never got an answer.
  TypeError: "REQUEST_FAILED",
}

/** `table[key]` when `key` is the table's own (never `constructor`, `__proto__` and the like). */
function own<T>(table: Readonly<Record<string, T>>, key: string | undefined): T | undefined {
  return key !== undefined && Object.prototype.hasOwnProperty.call(table, key) ? table[key] : undefined
}

/** The failure of `code`: one of ours, or a server's answer (`CREDENTIAL_UNKNOWN`); else the general one. */
export function passkeyFailure(code: string | undefined): PasskeyFailure {
  const known = own(FAILURES, code) === undefined ? "UNKNOWN" : (code as PasskeyFailureCode)
  return { code: known === "UNKNOWN" ? (code ?? known) : known, message: FAILURES[known] }
}

/**
 * What to show for `err`, thrown by a passkey ceremony (the options request, the browser's
 * prompt); `undefined` for an abort the page itself caused (a new prompt replacing the old one).
 */
export function describePasskeyError(err: unknown): PasskeyFailure | undefined {
  const e = (err ?? {}) as { name?: unknown; code?: unknown; cause?: { name?: unknown } }
  const name = typeof e.name === "string" ? e.name : typeof e.cause?.name === "string" ? e.cause.name : ""
  const code = typeof e.code === "string" ? e.code : undefined
  if (name === "AbortError" || code === "ERROR_CEREMONY_ABORTED") return undefined
  // The options endpoint's answer (`WebAuthnVerificationError` codes and the like).
  if (name === "OptionsError") return passkeyFailure(code)
  const ours = own(BY_LIBRARY_CODE, code) ?? own(BY_NAME, name) ?? "UNKNOWN"
  return { code: ours, message: FAILURES[ours] }
}
