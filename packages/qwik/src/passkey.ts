/**
 * `@authlib/qwik/passkey`: passkeys from the browser, for Qwik event handlers (`onClick$`). The
 * helpers are core's framework-free ones (`@authlib/core/passkey`), the same the Next.js binding
 * offers; `basePath` defaults to `/auth`, Qwik's mount point.
 *
 * ```tsx
 * import { signInWithPasskey } from "@authlib/qwik/passkey"
 * <button onClick$={async () => { const r = await signInWithPasskey(); if ("failed" in r) error.value = r.formErrors[0] }}>
 *   Sign in with a passkey
 * </button>
 * ```
 * @module
 */
export {
  completeTwoFactorWithPasskey,
  registerPasskey,
  signInWithPasskey,
  startPasskeyAutofill,
  stepUpWithPasskey,
  supportsPasskeys,
  type PasskeyBrowserCode,
  type PasskeyOptions,
  type PasskeyResult,
} from "@authlib/core/passkey"
