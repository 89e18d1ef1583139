/**
 * Credentials as a sign-in type: what the kernel asks of it besides its flow.
 *
 * - First factor `pwd`: the app's `authorize` checked a password or the like.
 * - Users: the app's own (`owner: "app"`): `authorize` vouches for the user, who is stored only
 *   where sessions need a stored user, joins the user with the same address (the app said who it
 *   is), and is the user the `signIn` event receives.
 * - The submitted credentials reach the `signIn` callback and are never kept by a held sign-in.
 */
import { MissingAuthorize } from "../../kernel/errors/errors.js"
import type { SignInTypeDeclaration } from "../../kernel/types/capability.js"
import type { CredentialsConfig } from "../../kernel/types/providers.js"
import { credentialsFlow, type CredentialsSignIn } from "./flow.js"
import { credentialsPagePart } from "./sign-in-page.js"

export const credentialsSignInType: SignInTypeDeclaration<CredentialsConfig, CredentialsSignIn> = {
  flow: credentialsFlow,
  check: (p) =>
    typeof (p as { authorize?: unknown }).authorize === "function"
      ? undefined
      : new MissingAuthorize(`Credentials provider "${p.id}" has no "authorize" function`, { code: "AUTHORIZE_MISSING", cause: { provider: p.id } }),
  firstFactor: () => ({ amr: ["pwd"], factors: 1 }),
  users: {
    owner: "app",
    joins: "none",
    joinByEmail: () => ({ allowed: true }),
  },
  signInInput: (own) => (own ? { credentials: own.credentials } : {}),
  page: credentialsPagePart,
}
