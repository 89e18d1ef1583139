/**
 * The organization side of an SSO sign-in: the user joins the connection's organization with its
 * default role (a member already keeps their role), and it becomes their active organization.
 * Asked by the kernel once the session is issued (`UserRules.signedIn`): a new user and a returning
 * one whose membership was removed join again (the IdP is the organization's say on who is staff),
 * and a sign-in held for a second factor writes nothing until that factor passes.
 */
import type { Context, Cookie } from "../../kernel/types/http.js"
import { emitEvent } from "../../kernel/user-code/events.js"
import { activeCookie, organizationStore } from "../organizations/index.js"
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
}

/** Makes `userId` a member of the sign-in's organization (kept as is when they are one); a new member is the `memberAdded` event (`via: "sso"`). */
async function addMember(ctx: Context, userId: string, own: SsoSignIn): Promise<void> {
  if (await organizationStore(ctx).getOrganizationMember(own.organizationId, userId)) return
  const member = await ssoStore(ctx).addOrganizationMember(own.organizationId, userId, own.defaultRole)
  // Of two sign-ins of one new member at once, both may report it: the store keeps one membership.
  if (member) await emitEvent(ctx, "memberAdded", { organizationId: member.organizationId, userId, role: member.role, via: "sso" })
}

/**
 * Once the session is issued (`UserRules.signedIn`, also when a held sign-in's second factor
 * passes, never before): the membership, and the organization active. Answers the active cookie.
 */
export async function joinOrganization(ctx: Context, userId: string, own: SsoSignIn): Promise<Cookie[]> {
  await addMember(ctx, userId, own)
  return [activeCookie(ctx, userId, own.organizationId)]
}
