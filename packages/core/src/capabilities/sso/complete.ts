/**
 * The end every SSO sign-in shares, once the IdP's answer verified (SAML `acs.ts`, OIDC `oidc.ts`):
 * the asserted address's domain must be verified for this very connection (`DOMAIN_NOT_VERIFIED`
 * otherwise: one customer's IdP never signs in another customer's users), a connection that
 * requires the IdP's MFA claim must have it (`MFA_REQUIRED`), and a new member must fit the
 * organization's `membershipLimit` (`MEMBERSHIP_LIMIT`, `membership-limit.ts`), all before anything
 * is written. Then the kernel issues the session as for every sign-in, and the user joins the
 * organization with it active once the session is issued (the sign-in type's `signedIn` rule, `join.ts`).
 */
import { issueSession } from "../../kernel/sign-in/issue.js"
import type { AuthRequest, AuthResponse, Context } from "../../kernel/types/http.js"
import type { SignInResult } from "../../kernel/types/sign-in.js"
import type { AdapterSsoConnection } from "./adapter.js"
import { clearBinding } from "./binding.js"
import { domainOfAddress } from "./identifiers.js"
import type { SsoSignIn } from "./join.js"
import { joinWouldPassLimit } from "./membership-limit.js"
import { refuse } from "./refusal.js"
import { ssoProvider, ssoStore } from "./store.js"

/** Who the IdP says signed in. */
export interface SsoIdentity {
  /** The IdP's stable subject (SAML `NameID`, OIDC `sub`). */
  subject: string
  email: string | null
  name: string | null
  /** Whether the IdP's authentication context says MFA (read from the signed assertion or the verified ID token only). */
  mfa: boolean
}

export async function completeSsoSignIn(req: AuthRequest, ctx: Context, connection: AdapterSsoConnection, identity: SsoIdentity, callbackUrl: string): Promise<AuthResponse> {
  if (!identity.email) return refuse(ctx, "EMAIL_MISSING", { connectionId: connection.id })
  const domain = domainOfAddress(identity.email)
  const verified = domain ? await ssoStore(ctx).getVerifiedSsoDomain(domain) : null
  if (!verified || verified.connectionId !== connection.id) return refuse(ctx, "DOMAIN_NOT_VERIFIED", { connectionId: connection.id, domain: domain ?? null })
  if (connection.requireIdpMfa && !identity.mfa) return refuse(ctx, "MFA_REQUIRED", { connectionId: connection.id })
  const own: SsoSignIn = {
    connectionId: connection.id, organizationId: connection.organizationId, defaultRole: connection.defaultRole, email: identity.email.toLowerCase(), mfa: identity.mfa,
    ...(connection.requireIdpMfa ? { idpMfaRequired: true } : {}),
  }
  const result: SignInResult<SsoSignIn> = {
    user: { id: identity.subject, email: own.email, name: identity.name },
    account: { provider: ssoProvider(ctx).id, type: "sso", providerAccountId: `${connection.id}:${identity.subject}` },
    own,
  }
  if (await joinWouldPassLimit(ctx, connection.organizationId, result.account, own.email)) return refuse(ctx, "MEMBERSHIP_LIMIT", { connectionId: connection.id, organizationId: connection.organizationId })
  // The organization is joined by the kernel once the session is issued (`signedIn` in `sign-in-type.ts`), not here: a held sign-in writes nothing.
  const res = await issueSession(req, ctx, result, callbackUrl)
  return { ...res, cookies: [...(res.cookies ?? []), clearBinding(ctx)] }
}
