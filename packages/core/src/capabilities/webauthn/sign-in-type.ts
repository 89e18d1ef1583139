/**
 * Passkeys as a sign-in type: what the kernel asks of it besides its flow.
 *
 * - First factor `hwk` (proof of possession of a key the authenticator guards, signing only after a
 *   gesture) and `user` (WebAuthn's user-presence test). With user verification (a PIN or
 *   biometric) it proved the person too: two factors in one step, which count as `mfa` unless a
 *   capability says otherwise (`Capability.oneStepMultiFactor`).
 * - Users: the flow names the user itself (the passkey's owner, or the signed-in user adding one);
 *   a passkey never joins a user by address. A new passkey's authenticator is stored with its account.
 * - Page: a passkey button (and "create an account" where new accounts are allowed), autofill on a
 *   field of the page that names the user.
 */
import type { SignInTypeDeclaration } from "../../kernel/types/capability.js"
import type { AdapterUser } from "../../kernel/types/adapters.js"
import type { WebAuthnConfig } from "../../kernel/types/providers.js"
import { adapterMethods } from "../../kernel/ports/ports.js"
import { webauthnFlow, type PasskeySignIn } from "./flow.js"
import { checkWebAuthnProvider } from "./check.js"
import { passkeyPagePart } from "./sign-in-page.js"

export const webauthnSignInType: SignInTypeDeclaration<WebAuthnConfig, PasskeySignIn> = {
  flow: webauthnFlow,
  limits: { callback: "passkey.perClient" },
  check: checkWebAuthnProvider,
  firstFactor: (result) => ({ amr: ["hwk", "user"], factors: result.own?.userVerified ? 2 : 1 }),
  users: {
    owner: "adapter",
    joins: "named",
    linkTarget: (own) => own?.knownUserId,
    // A passkey sign-in: the flow found the owner through the stored credential (its account's user).
    plan: async (_ctx, result) => {
      const { authenticator, knownUserId } = result.own ?? {}
      return !authenticator && knownUserId !== undefined && result.account.userId === knownUserId ? { write: "none", user: result.user as AdapterUser } : undefined
    },
    linked: async (ctx, userId, own) => {
      if (own?.authenticator) await adapterMethods(ctx.config.adapter, ["createAuthenticator"], "Storing users").createAuthenticator({ ...own.authenticator, userId })
    },
  },
  keep: (own) => (own ? { ...(own.knownUserId !== undefined ? { knownUserId: own.knownUserId } : {}), ...(own.authenticator ? { authenticator: own.authenticator } : {}) } : undefined),
  page: passkeyPagePart,
}
