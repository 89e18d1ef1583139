"use client"
/**
 * `@authlib/nextjs/react`: the browser side, with the names and shapes of `next-auth/react`
 * (`SessionProvider`, `useSession`, `signIn`, `signOut`, `getSession`, `getCsrfToken`,
 * `getProviders`), plus the passkey helpers. A client module: import it from client components.
 * @module
 */
export { SessionProvider, useSession } from "./session-provider.js"
export type { SessionContextValue, SessionProviderProps, UpdateSession, UseSessionOptions } from "./session-provider.js"
export { getCsrfToken, getProviders, getSession, signIn, signOut } from "./client.js"
export type { ClientSafeProvider, SignInOptions, SignInResponse, SignOutOptions } from "./client.js"
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
} from "./passkey.js"
export type { Session } from "@authlib/core"
