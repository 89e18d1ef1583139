/**
 * The organization side of an SSO sign-in: the user joins the connection's organization with its
 * default role (a member already keeps their role), and it becomes their active organization.
 * Asked by the kernel once the session is issued (`UserRules.signedIn`): a new user and a returning
 * one whose membership was removed join again (the IdP is the organization's say on who is staff),
 * and a sign-in held for a second factor writes nothing until that factor passes.
 *
 * `membershipLimit` was checked before anything was written (`membership-limit.ts`); the join is the
 * adapter's conditional write with the limit, so of two sign-ins racing for the last seat one joins.
 * The other keeps the session it was issued but joins nothing (no membership, no active
 * organization, no `memberAdded`): it is logged as a `MEMBERSHIP_LIMIT` refusal.
 */
import type { Context, Cookie } from "../../kernel/types/http.js"
import { emitEvent } from "../../kernel/user-code/events.js"
import { activeCookie, organizationStore, organizationsOptions } from "../organizations/index.js"
import { ssoStore } from "./store.js"

/** What an SSO sign-in keeps in `SignInResult.own`. */
export interface SsoSignIn {
  connectionId: string
  organizationId: string
  defaultRole: string
  /** The address the IdP asserted, lowercased; its domain is verified for the connection. */
  email: string
  /** Whether the IdP's authentication context says MFA. */
  mfa: boolean
  /** The connection requires the IdP's MFA claim (`requireIdpMfa`): with `mfa`, it stands for both factors. */
  idpMfaRequired?: boolean
}

/**
 * Makes `userId` a member of the sign-in's organization (kept as is when they are one); a new
 * member is the `memberAdded` event (`via: "sso"`). False when the limit left no seat.
 */
async function addMember(ctx: Context, userId: string, own: SsoSignIn): Promise<boolean> {
  if (await organizationStore(ctx).getOrganizationMember(own.organizationId, userId)) return true
  const membershipLimit = organizationsOptions(ctx).membershipLimit
  const member = await ssoStore(ctx).addOrganizationMember(own.organizationId, userId, own.defaultRole, { now: new Date(), ...(membershipLimit !== undefined ? { membershipLimit } : {}) })
  if (member === "limit-reached") {
    ctx.config.logger.warn("SsoSignInError", "an SSO sign-in did not join its organization: MEMBERSHIP_LIMIT", { code: "MEMBERSHIP_LIMIT", organizationId: own.organizationId, userId })
    return false
  }
  // Of two sign-ins of one new member at once, both may report it: the store keeps one membership.
  if (member) await emitEvent(ctx, "memberAdded", { organizationId: member.organizationId, userId, role: member.role, via: "sso" })
  return member !== null
}

/**
 * Once the session is issued (`UserRules.signedIn`, also when a held sign-in's second factor
 * passes, never before): the membership, and the organization active. Answers the active cookie.
 */
export async function joinOrganization(ctx: Context, userId: string, own: SsoSignIn): Promise<Cookie[]> {
  return (await addMember(ctx, userId, own)) ? [activeCookie(ctx, userId, own.organizationId)] : []
}
