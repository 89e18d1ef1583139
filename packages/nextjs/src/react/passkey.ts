/**
 * Core's passkey helpers for the browser (`@authlib/core/passkey`, as `@authlib/qwik/passkey`
 * offers them), mounted where the app's `SessionProvider` says (`basePath`, default `/api/auth`)
 * unless a call names its own.
 */
import * as passkey from "@authlib/core/passkey"
import type { PasskeyOptions, PasskeyResult } from "@authlib/core/passkey"
import { currentBasePath } from "./client.js"

const mounted = (options: PasskeyOptions = {}): PasskeyOptions => ({ basePath: currentBasePath(), ...options })

/** Signs in with a passkey (the browser lets the user pick one); navigates on success. */
export const signInWithPasskey = (options?: PasskeyOptions): Promise<PasskeyResult> => passkey.signInWithPasskey(mounted(options))
/** Passkey autofill: call once when the sign-in page loads (an input with `autocomplete="username webauthn"`). */
export const startPasskeyAutofill = (options?: PasskeyOptions): Promise<PasskeyResult> => passkey.startPasskeyAutofill(mounted(options))
/** Adds a passkey to the signed-in user's account (or creates an account, with `allowNewAccounts`). */
export const registerPasskey = (options?: PasskeyOptions): Promise<PasskeyResult> => passkey.registerPasskey(mounted(options))
/** Step-up with a passkey: the session is re-issued as authenticated now with two factors; the page stays. */
export const stepUpWithPasskey = (options?: PasskeyOptions): Promise<PasskeyResult> => passkey.stepUpWithPasskey(mounted(options))
/** The second factor of a pending two-factor sign-in with a passkey; navigates on success. */
export const completeTwoFactorWithPasskey = (options?: PasskeyOptions): Promise<PasskeyResult> => passkey.completeTwoFactorWithPasskey(mounted(options))
export const supportsPasskeys: () => Promise<boolean> = passkey.supportsPasskeys
export type { PasskeyBrowserCode, PasskeyOptions, PasskeyResult } from "@authlib/core/passkey"
