/**
 * MemoryAdapter's passkey sign-in in two calls: the challenge's token used with the passkey read,
 * then the counter set with the owner's session stored. Built on the adapter's own methods;
 * synchronous, so each is atomic here as one SQL statement is in a database.
 */
import type { Adapter, AdapterAuthenticator, AdapterSession, AdapterUser, VerificationToken } from "@authlib/core"

type Base = Required<Pick<Adapter, "useVerificationToken" | "getAuthenticator" | "updateAuthenticatorCounter" | "createSession">>

export function passkeySignInMethods(
  users: ReadonlyMap<string, AdapterUser>,
  base: Base,
): Pick<Required<Adapter>, "useVerificationTokenAndGetAuthenticator" | "updateAuthenticatorCounterAndCreateSession"> {
  return {
    useVerificationTokenAndGetAuthenticator(params, credentialID) {
      // The memory adapter's own methods answer synchronously.
      const token = base.useVerificationToken(params) as VerificationToken | null
      return { token, authenticator: base.getAuthenticator(credentialID) as AdapterAuthenticator | null }
    },
    updateAuthenticatorCounterAndCreateSession(credentialID, newCounter, session) {
      const current = base.getAuthenticator(credentialID) as AdapterAuthenticator | null
      const user = current && users.get(current.userId)
      if (!current || !user) return null
      // The session first: a taken session token throws before anything is written.
      const stored = base.createSession({ ...session, userId: user.id }) as AdapterSession
      const authenticator = base.updateAuthenticatorCounter(credentialID, newCounter) as AdapterAuthenticator
      return { authenticator, user: structuredClone(user), session: stored }
    },
  }
}
