/**
 * Wraps every adapter method so a throw becomes an `AdapterError` naming the method, with the
 * adapter's own error as `cause.err` (through the user-code runner). The dispatcher logs it in full and shows `Configuration`.
 */
import type { Adapter } from "../types/adapters.js"
import { runUserCode } from "../user-code/run.js"
import type { LoggerInstance } from "@authlib/jwt"

/**
 * The adapter methods database sessions need: their own, then creating and finding the users they
 * point at. `extendSession` is used when present and never required (the fallback is `updateSession`).
 */
export const SESSION_METHODS = ["createSession", "getSessionAndUser", "updateSession", "deleteSession", "createUser", "getUserByAccount", "linkAccount"] as const
/** The adapter methods e-mail sign-in needs: its tokens, then finding, creating, verifying and linking the user. */
export const VERIFICATION_METHODS = [
  "createVerificationToken", "useVerificationToken", "getUserByEmail", "createUser", "updateUser", "getUserByAccount", "linkAccount",
] as const
/**
 * The adapter methods passkeys need: the authenticators, the single-use challenge records (the
 * verification-token pair), then finding, creating and linking the user.
 */
export const WEBAUTHN_METHODS = [
  "getAuthenticator", "createAuthenticator", "listAuthenticatorsByUserId", "updateAuthenticatorCounter",
  "createVerificationToken", "useVerificationToken", "getUser", "createUser", "getUserByAccount", "linkAccount",
] as const

function wrapMethod(name: string, fn: (...args: unknown[]) => unknown, logger: LoggerInstance) {
  return (...args: unknown[]) => {
    logger.debug("adapter", name)
    return runUserCode("adapter", name, () => fn(...args))
  }
}

/**
 * The 19 methods of the Auth.js adapter interface, then authlib's optional `extendSession`,
 * `deleteAuthenticator`, `updateAuthenticator`, `listAccountsByUserId`,
 * `retireVerificationTokens`, `updateAccount`, `listSessionsByUserId`, `deleteSessionsByUserId`,
 * `getUserSessionEpoch`, `incrementUserSessionEpoch`, `getVerificationToken`, `createSessionForAccount`,
 * `useVerificationTokenForAccount`, `useVerificationTokenAndCreateSession`, `useVerificationTokenAndGetAuthenticator`,
 * `updateAuthenticatorCounterAndCreateSession` (own or inherited, so class adapters work); the methods of
 * capabilities' ports come with `wrapAdapter`'s `portMethods`. A method left out would be dropped.
 */
const ADAPTER_METHODS: ReadonlyArray<keyof Adapter> = [
  "createUser", "getUser", "getUserByEmail", "getUserByAccount", "updateUser", "deleteUser", "linkAccount",
  "unlinkAccount", "createSession", "getSessionAndUser", "updateSession", "deleteSession",
  "createVerificationToken", "useVerificationToken", "getAccount", "getAuthenticator", "createAuthenticator",
  "listAuthenticatorsByUserId", "updateAuthenticatorCounter", "extendSession", "deleteAuthenticator", "updateAuthenticator",
  "listAccountsByUserId", "retireVerificationTokens", "updateAccount", "listSessionsByUserId", "deleteSessionsByUserId",
  "getUserSessionEpoch", "incrementUserSessionEpoch", "getVerificationToken", "createSessionForAccount",
  "useVerificationTokenForAccount", "useVerificationTokenAndCreateSession", "useVerificationTokenAndGetAuthenticator",
  "updateAuthenticatorCounterAndCreateSession",
]

/**
 * A frozen copy of `adapter` whose methods throw `AdapterError`: the methods above and
 * `portMethods`, the methods of the ports capabilities declare (the registry's).
 */
export function wrapAdapter(adapter: Adapter, logger: LoggerInstance, portMethods: readonly string[] = []): Adapter {
  const wrapped: Record<string, unknown> = {}
  for (const key of [...ADAPTER_METHODS, ...portMethods]) {
    const value = (adapter as Record<string, unknown>)[key]
    if (typeof value === "function") wrapped[key] = wrapMethod(key, value.bind(adapter) as never, logger)
  }
  return Object.freeze(wrapped) as Adapter
}

