/**
 * `@authlib/core/passkey`: passkeys from the browser, for any framework's client code (the bindings
 * re-export it: `@authlib/qwik/passkey`, `@authlib/nextjs/react`). Browser code only: it imports
 * nothing of core. Each helper asks core for the options, runs the browser's passkey prompt with
 * `@simplewebauthn/browser` (an optional peer dependency, imported only when a helper runs), and
 * posts the answer with a CSRF token from `{basePath}/csrf`, as the built-in sign-in page does.
 *
 * ```tsx
 * import { signInWithPasskey } from "@authlib/qwik/passkey"
 * <button onClick$={async () => { const r = await signInWithPasskey(); if ("failed" in r) error.value = r.formErrors[0] }}>
 *   Sign in with a passkey
 * </button>
 * ```
 *
 * Expected failures (a refused or cancelled passkey, an error core answered) come back in the
 * binding's failure shape, `{ failed: true, fieldErrors, formErrors, error, code }`, never thrown.
 * @module
 */

/** Options of the passkey helpers. */
export interface PasskeyOptions {
  /** The passkey provider's id. Default `"passkey"`. */
  provider?: string
  /** Where authlib is mounted. Default `"/auth"` (`@authlib/nextjs/react`: its `SessionProvider`'s, `"/api/auth"`). */
  basePath?: string
  /** Where to go after success. Default: the current page. */
  callbackUrl?: string
  /** `registerPasskey` for a new account (`allowNewAccounts`): the account's display name. */
  name?: string
  /** Navigate to the answer's URL on success (default `true`); `false` only returns it. */
  redirect?: boolean
}

/** What a helper resolves to: where to go next, or the binding's failure shape. */
export type PasskeyResult =
  | { ok: true; url: string }
  | { failed: true; fieldErrors: Record<string, string>; formErrors: string[]; error: string; code?: string }

/**
 * Codes of failures the browser reports (beside core's `WebAuthnVerificationError` codes):
 * - `PROMPT_CANCELLED`: the prompt was closed, timed out, or no passkey was chosen;
 * - `INVALID_DOMAIN`: the page is at an IP address (or a name that is no domain), where browsers
 *   refuse passkeys: open the site as `localhost` or by its domain name;
 * - `RP_ID_MISMATCH`: the passkeys' domain (relying party ID) is not this page's;
 * - `CREDENTIAL_ALREADY_REGISTERED`: the authenticator already holds a passkey of this account;
 * - `AUTHENTICATOR_UNSUPPORTED`, `AUTHENTICATOR_ERROR`: the device cannot make, or failed to use, one;
 * - `PASSKEYS_UNSUPPORTED`: no WebAuthn in this browser; `REQUEST_FAILED`: a request got no answer.
 */
export type PasskeyBrowserCode =
  | "PROMPT_CANCELLED"
  | "INVALID_DOMAIN"
  | "RP_ID_MISMATCH"
  | "CREDENTIAL_ALREADY_REGISTERED"
  | "AUTHENTICATOR_UNSUPPORTED"
  | "AUTHENTICATOR_ERROR"
  | "PASSKEYS_UNSUPPORTED"
  | "REQUEST_FAILED"

// The same sentences as the built-in sign-in page's (core's browser/passkey-errors.ts).
const MESSAGES: Readonly<Record<string, string>> = {
  PROMPT_CANCELLED: "The passkey prompt was closed or timed out, or no passkey was chosen. Try again.",
  INVALID_DOMAIN: "Passkeys need a domain name, and this page was opened at an IP address. Open this site as localhost (or by its domain name) and try again.",
  RP_ID_MISMATCH: "Passkeys of this site belong to another address. Open the site at its usual address and try again.",
  CREDENTIAL_ALREADY_REGISTERED: "This passkey is already registered.",
  AUTHENTICATOR_UNSUPPORTED: "This device or security key cannot make a passkey for this site. Try another one.",
  AUTHENTICATOR_ERROR: "The passkey device reported an error. Try again, or use another device.",
  PASSKEYS_UNSUPPORTED: "This browser does not support passkeys.",
  REQUEST_FAILED: "The passkey request could not be sent. Check your connection and try again.",
  REGISTRATION_REQUIRES_SESSION: "Sign in first to add a passkey.",
  CREDENTIAL_UNKNOWN: "This passkey is not registered here. Sign in another way, then add it.",
  // `ReauthenticationRequired`: the change needs a recent second factor (step up, then try again).
  SECOND_FACTOR_REQUIRED: "This change needs your second factor: verify a code or a passkey, then try again.",
  AUTHENTICATION_TOO_OLD: "This change needs a recent verification: verify a code or a passkey, then try again.",
  SAME_FACTOR: "You signed in with this passkey: use a code from your authenticator app or a backup code instead.",
}

/** @simplewebauthn/browser's `WebAuthnError` codes that name the cause better than the exception's name. */
const BY_LIBRARY_CODE: Readonly<Record<string, PasskeyBrowserCode>> = {
  ERROR_INVALID_DOMAIN: "INVALID_DOMAIN",
  ERROR_INVALID_RP_ID: "RP_ID_MISMATCH",
  ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED: "CREDENTIAL_ALREADY_REGISTERED",
  ERROR_AUTHENTICATOR_NO_SUPPORTED_PUBKEYCREDPARAMS_ALG: "AUTHENTICATOR_UNSUPPORTED",
  ERROR_AUTHENTICATOR_MISSING_DISCOVERABLE_CREDENTIAL_SUPPORT: "AUTHENTICATOR_UNSUPPORTED",
  ERROR_AUTHENTICATOR_MISSING_USER_VERIFICATION_SUPPORT: "AUTHENTICATOR_UNSUPPORTED",
  ERROR_AUTHENTICATOR_GENERAL_ERROR: "AUTHENTICATOR_ERROR",
}

/** The browser's exception names (the WebAuthn spec's), where no library code says more. */
const BY_NAME: Readonly<Record<string, PasskeyBrowserCode>> = {
  NotAllowedError: "PROMPT_CANCELLED",
  AbortError: "PROMPT_CANCELLED",
  InvalidStateError: "CREDENTIAL_ALREADY_REGISTERED",
  SecurityError: "RP_ID_MISMATCH",
  NotSupportedError: "AUTHENTICATOR_UNSUPPORTED",
  ConstraintError: "AUTHENTICATOR_UNSUPPORTED",
  UnknownError: "AUTHENTICATOR_ERROR",
}

const own = <T>(table: Readonly<Record<string, T>>, key: unknown): T | undefined =>
  typeof key === "string" && Object.prototype.hasOwnProperty.call(table, key) ? table[key] : undefined

/**
 * The code for what the browser's passkey prompt threw (a `WebAuthnError`: the exception's `name`,
 * a `code` naming the cause); undefined for anything else, which gets the general sentence.
 */
function browserFailureCode(err: unknown): PasskeyBrowserCode | undefined {
  const e = (err ?? {}) as { name?: unknown; code?: unknown; cause?: { name?: unknown } }
  return own(BY_LIBRARY_CODE, e.code) ?? own(BY_NAME, e.name) ?? own(BY_NAME, e.cause?.name)
}

function failure(error: string, code?: string): PasskeyResult {
  const message = own(MESSAGES, code) ?? "The passkey could not be used."
  return { failed: true, fieldErrors: {}, formErrors: [message], error, ...(code ? { code } : {}) }
}

type Browser = typeof import("@simplewebauthn/browser")

async function loadBrowser(): Promise<Browser | undefined> {
  try {
    return await import("@simplewebauthn/browser")
  } catch {
    return undefined
  }
}

/** Whether this browser can use passkeys at all. */
export async function supportsPasskeys(): Promise<boolean> {
  return (await loadBrowser())?.browserSupportsWebAuthn() ?? false
}

async function json(res: Response): Promise<Record<string, unknown> | null> {
  return (await res.json().catch(() => null)) as Record<string, unknown> | null
}

/**
 * Tells the browser's passkey manager that the server no longer knows the passkey the user picked
 * (WebAuthn Level 3 `PublicKeyCredential.signalUnknownCredential`, where the browser has it), so it
 * stops offering it. Best effort: a browser without it, or a refusal, changes nothing.
 */
async function signalUnknown(options: unknown, data: unknown): Promise<void> {
  const signal = (globalThis as { PublicKeyCredential?: { signalUnknownCredential?: (o: { rpId: string; credentialId: string }) => Promise<void> } }).PublicKeyCredential
    ?.signalUnknownCredential
  const rpId = (options as { rpId?: unknown } | null)?.rpId
  const credentialId = (data as { id?: unknown } | null)?.id
  if (typeof signal !== "function" || typeof rpId !== "string" || typeof credentialId !== "string") return
  try {
    await signal.call(PublicKeyCredential, { rpId, credentialId })
  } catch {
    // Only a hint to the browser.
  }
}

/** Where a ceremony's answer goes: a sign-in callback, the two-factor step of a pending sign-in, or a step-up of the signed-in user. */
type Submit = "callback" | "two-factor" | "step-up"

async function ceremony(action: "register" | "authenticate", options: PasskeyOptions, autofill: boolean, submit: Submit = "callback"): Promise<PasskeyResult> {
  const browser = await loadBrowser()
  if (!browser?.browserSupportsWebAuthn()) return failure("PasskeyError", "PASSKEYS_UNSUPPORTED")
  const base = (options.basePath ?? "/auth").replace(/\/+$/, "")
  const provider = encodeURIComponent(options.provider ?? "passkey")
  try {
    const optionsUrl = new URL(`${base}/webauthn-options/${provider}`, location.href)
    optionsUrl.searchParams.set("action", action)
    // Step-up options are the signed-in user's passkeys, the challenge bound to step-up.
    if (submit === "step-up") optionsUrl.searchParams.set("purpose", "step-up")
    if (options.name) optionsUrl.searchParams.set("name", options.name)
    const answer = await fetch(optionsUrl, { credentials: "same-origin", headers: { accept: "application/json" } })
    const body = await json(answer)
    if (!answer.ok || !body?.options) return failure(String(body?.error ?? "WebAuthnVerificationError"), typeof body?.code === "string" ? body.code : undefined)
    let data: unknown
    try {
      data =
        body.action === "register"
          ? await browser.startRegistration({ optionsJSON: body.options as never })
          : await browser.startAuthentication({ optionsJSON: body.options as never, useBrowserAutofill: autofill })
    } catch (err) {
      // The prompt failed (the network was fine: the options just came); say why, not "connection".
      return failure("PasskeyError", browserFailureCode(err))
    }
    const csrf = await json(await fetch(`${base}/csrf`, { credentials: "same-origin", headers: { accept: "application/json" } }))
    const csrfToken = String(csrf?.csrfToken ?? "")
    // The two-factor step ends the pending sign-in at the callback URL it was started with.
    const toTwoFactor = submit !== "callback"
    const form = toTwoFactor
      ? new URLSearchParams({ action: submit === "step-up" ? "step-up" : "verify-passkey", data: JSON.stringify(data), provider: options.provider ?? "passkey", csrfToken })
      : new URLSearchParams({ action: String(body.action), data: JSON.stringify(data), csrfToken, callbackUrl: options.callbackUrl ?? location.href })
    const done = await fetch(toTwoFactor ? `${base}/two-factor` : `${base}/callback/${provider}`, {
      method: "POST",
      credentials: "same-origin",
      headers: { "content-type": "application/x-www-form-urlencoded", "x-auth-return-redirect": "1", accept: "application/json" },
      body: form,
    })
    const answered = await json(done)
    // A step-up answers `{ authTime }` and sets the new session cookie: the page stays.
    if (submit === "step-up" && done.ok && typeof answered?.authTime === "number") return { ok: true, url: location.href }
    const next = answered?.url
    // JSON routes (two-factor) answer a refusal as `{ error, code }`, not as a URL.
    if (typeof next !== "string" && typeof answered?.error === "string") return failure(answered.error, typeof answered.code === "string" ? answered.code : undefined)
    if (typeof next !== "string") return failure("PasskeyError", "REQUEST_FAILED")
    const target = new URL(next, location.href)
    const error = target.searchParams.get("error")
    const code = target.searchParams.get("code") ?? undefined
    if (code === "CREDENTIAL_UNKNOWN") await signalUnknown(body.options, data)
    if (error) return failure(error, code)
    if (options.redirect !== false) location.assign(target.href)
    return { ok: true, url: target.href }
  } catch {
    return failure("PasskeyError", "REQUEST_FAILED")
  }
}

/** Signs in with a passkey (the browser lets the user pick one); navigates on success. */
export function signInWithPasskey(options: PasskeyOptions = {}): Promise<PasskeyResult> {
  return ceremony("authenticate", options, false)
}

/**
 * Passkey autofill (conditional UI): call once when the sign-in page loads; needs an input with
 * `autocomplete="username webauthn"` on the page. Resolves when the user picks a passkey from the
 * field's suggestions (and signs in), or with a failure.
 */
export function startPasskeyAutofill(options: PasskeyOptions = {}): Promise<PasskeyResult> {
  return ceremony("authenticate", options, true)
}

/**
 * Adds a passkey to the signed-in user's account (or, with the provider's `allowNewAccounts`,
 * creates an account named `name`); navigates on success.
 */
export function registerPasskey(options: PasskeyOptions = {}): Promise<PasskeyResult> {
  return ceremony("register", options, false)
}

/**
 * Step-up with a passkey: the signed-in user proves a passkey again (core's `twoFactor`; the
 * options are the user's own passkeys, bound to step-up), and the session is re-issued as
 * authenticated now with two factors. Resolves `{ ok: true }` without navigating (retry the
 * refused action then), or the failure shape with core's codes (`ReauthenticationRequired` never;
 * `TwoFactorError` `SAME_FACTOR` for a passkey without user verification after a passkey sign-in,
 * `WebAuthnVerificationError`, `SessionRequired`). `callbackUrl` and `redirect` are not used.
 */
export function stepUpWithPasskey(options: PasskeyOptions = {}): Promise<PasskeyResult> {
  return ceremony("authenticate", options, false, "step-up")
}

/**
 * The second factor of a pending two-factor sign-in with a passkey (core's `twoFactor` option, on
 * the two-factor page after a first factor): core offers the pending user's passkeys only, and the
 * sign-in ends with its session at the callback URL it was started with; navigates on success.
 * Refusals come back in the failure shape with core's codes (`WebAuthnVerificationError`, or
 * `TwoFactorError` `SIGN_IN_MISSING` when no sign-in is pending). `callbackUrl` is not used.
 */
export function completeTwoFactorWithPasskey(options: PasskeyOptions = {}): Promise<PasskeyResult> {
  return ceremony("authenticate", options, false, "two-factor")
}
