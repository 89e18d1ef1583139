/**
 * The organization side of an SSO sign-in: the user joins the connection's organization with its
 * default role (a member already keeps their role), and it becomes their active organization.
 * Asked when a new account is linked (`UserRules.linked`, also when a held sign-in completes) and
 * after the session is issued (a returning user whose membership was removed joins again: the IdP
 * is the organization's say on who is staff).
 */
import { adapterMethods } from "../../kernel/ports/ports.js"
import type { Context, Cookie } from "../../kernel/types/http.js"
import type { SignInResult } from "../../kernel/types/sign-in.js"
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
export async function addMember(ctx: Context, userId: string, own: SsoSignIn): Promise<void> {
  if (await organizationStore(ctx).getOrganizationMember(own.organizationId, userId)) return
  const member = await ssoStore(ctx).addOrganizationMember(own.organizationId, userId, own.defaultRole)
  // Of two sign-ins of one new member at once, both may report it: the store keeps one membership.
  if (member) await emitEvent(ctx, "memberAdded", { organizationId: member.organizationId, userId, role: member.role, via: "sso" })
}

/** After the session: the membership, and the active-organization cookie; none while the sign-in is held (no stored user yet). */
export async function joinOrganization(ctx: Context, result: SignInResult<SsoSignIn>): Promise<Cookie[]> {
  const own = result.own!
  const user = await adapterMethods(ctx.config.adapter, ["getUserByAccount"], "Enterprise SSO").getUserByAccount(result.account)
  if (!user) return []
  await addMember(ctx, user.id, own)
  return [activeCookie(ctx, user.id, own.organizationId)]
}
