/**
 * `@authlib/qwik/passkey`: passkeys from the browser, for Qwik event handlers (`onClick$`). Each
 * helper asks core for the options, runs the browser's passkey prompt with
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
  /** Where authlib is mounted. Default `"/auth"`. */
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

/** Codes of failures the browser reports (beside core's `WebAuthnVerificationError` codes). */
export type PasskeyBrowserCode = "PROMPT_CANCELLED" | "PASSKEYS_UNSUPPORTED" | "REQUEST_FAILED"

const MESSAGES: Record<string, string> = {
  PROMPT_CANCELLED: "The passkey prompt was closed or timed out.",
  PASSKEYS_UNSUPPORTED: "This browser does not support passkeys.",
  REQUEST_FAILED: "The passkey request could not be sent. Check your connection and try again.",
  REGISTRATION_REQUIRES_SESSION: "Sign in first to add a passkey.",
  CREDENTIAL_ALREADY_REGISTERED: "This passkey is already registered.",
  CREDENTIAL_UNKNOWN: "This passkey is not registered here.",
}

function failure(error: string, code?: string): PasskeyResult {
  const message = (code && MESSAGES[code]) ?? "The passkey could not be used."
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

async function ceremony(action: "register" | "authenticate", options: PasskeyOptions, autofill: boolean): Promise<PasskeyResult> {
  const browser = await loadBrowser()
  if (!browser?.browserSupportsWebAuthn()) return failure("PasskeyError", "PASSKEYS_UNSUPPORTED")
  const base = (options.basePath ?? "/auth").replace(/\/+$/, "")
  const provider = encodeURIComponent(options.provider ?? "passkey")
  try {
    const optionsUrl = new URL(`${base}/webauthn-options/${provider}`, location.href)
    optionsUrl.searchParams.set("action", action)
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
      const name = (err as { name?: string; cause?: { name?: string } }).cause?.name ?? (err as { name?: string }).name
      if (name === "NotAllowedError" || name === "AbortError") return failure("PasskeyError", "PROMPT_CANCELLED")
      if (name === "InvalidStateError") return failure("PasskeyError", "CREDENTIAL_ALREADY_REGISTERED")
      return failure("PasskeyError", "REQUEST_FAILED")
    }
    const csrf = await json(await fetch(`${base}/csrf`, { credentials: "same-origin", headers: { accept: "application/json" } }))
    const form = new URLSearchParams({ action: String(body.action), data: JSON.stringify(data), csrfToken: String(csrf?.csrfToken ?? ""), callbackUrl: options.callbackUrl ?? location.href })
    const done = await fetch(`${base}/callback/${provider}`, {
      method: "POST",
      credentials: "same-origin",
      headers: { "content-type": "application/x-www-form-urlencoded", "x-auth-return-redirect": "1", accept: "application/json" },
      body: form,
    })
    const next = (await json(done))?.url
    if (typeof next !== "string") return failure("PasskeyError", "REQUEST_FAILED")
    const target = new URL(next, location.href)
    const error = target.searchParams.get("error")
    if (error) return failure(error, target.searchParams.get("code") ?? undefined)
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
