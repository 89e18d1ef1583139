/**
 * Enterprise SSO as a sign-in type (`sso`): what the kernel asks of it besides its routes.
 *
 * - First factor `fed` (a federated IdP vouched for the person), two factors when the IdP's
 *   authentication context names MFA (`mfa.ts`; OIDC: the ID token's `amr` holds `mfa`). They count
 *   as two where one-step multi-factor does (`twoFactor.passkeyCountsAsTwoFactors`), and always on a
 *   connection that requires the IdP's MFA (`requireIdpMfa`): then authlib's second factor is not asked.
 * - Users: the account is the connection's and the IdP's subject (`{connectionId}:{NameID}`). The
 *   address's domain is verified for the connection (the ACS refused it otherwise), so the IdP
 *   speaks for it: a new user's address is verified, an existing user with that address is joined
 *   (a never-verified one through the kernel's proof of the address, which first removes what a
 *   squatter linked), and a signed-in user never gets the account linked to them (`joins: "none"`):
 *   an IdP's account is never linked to a user outside its domains.
 * - The organization: joined with the connection's default role and made active once the session
 *   is issued (`join.ts`; a sign-in held for a second factor joins when the factor passes).
 * - Page: an e-mail field and a "Sign in with SSO" button.
 * Its sign-in starts at `POST signin/sso`; it has no `callback/sso` (the ACS and the OIDC callback are the capability's routes).
 */
import { adapterMethods } from "../../kernel/ports/ports.js"
import { MethodNotAllowed } from "../../kernel/errors/errors.js"
import type { SignInTypeDeclaration } from "../../kernel/types/capability.js"
import type { SsoConfig } from "./provider.js"
import { ssoSignin } from "./flow-signin.js"
import { joinOrganization, type SsoSignIn } from "./join.js"
import { ssoPagePart } from "./sign-in-page.js"

export const ssoSignInType: SignInTypeDeclaration<SsoConfig, SsoSignIn> = {
  flow: {
    signin: ssoSignin,
    callback: async () => {
      throw new MethodNotAllowed("SSO sign-ins end at sso/acs/{connection} or sso/callback/{connection}", { code: "METHOD_NOT_ALLOWED", cause: { allow: "" } })
    },
    callbackMethods: [],
    callbackCsrf: true,
  },
  limits: { signin: "sso.perClient" },
  // An organization that requires its IdP's MFA named that IdP as the one that verifies both factors (`byConfiguration`).
  firstFactor: (result) => (result.own?.mfa ? { amr: ["fed", "mfa"], factors: 2, ...(result.own.idpMfaRequired ? { byConfiguration: true } : {}) } : { amr: ["fed"], factors: 1 }),
  users: {
    owner: "adapter",
    joins: "none",
    fromLinkAlone: true,
    plan: async (ctx, result) => {
      const users = adapterMethods(ctx.config.adapter, ["getUserByAccount", "getUserByEmail"], "Storing users")
      const owner = await users.getUserByAccount(result.account)
      if (owner) return { write: "none", user: owner }
      const email = result.own!.email
      const existing = await users.getUserByEmail(email)
      if (!existing) return { write: "create", emailVerified: new Date(), email }
      return existing.emailVerified ? { write: "link", user: existing } : { write: "prove", user: existing, ownerId: null, address: email }
    },
    verifiedAt: () => new Date(),
    // After the session only (a held sign-in joins when its second factor passes): `own` is kept whole for it.
    signedIn: async (ctx, userId, own) => (own ? joinOrganization(ctx, userId, own) : []),
  },
  keep: (own) => own,
  page: ssoPagePart,
}
