/**
 * The organization's `membershipLimit` for people who join through SSO, checked before the sign-in
 * writes anything: a just-in-time join that would pass it is refused (`MEMBERSHIP_LIMIT`), so no
 * user is created, no account linked and no session issued. Counted as `inviteMember` counts:
 * members plus pending, unexpired invitations, one to the joiner's own address not counted (it was
 * their seat). A returning member is never counted again. Two joins racing for the last seat both
 * pass this read; the join itself is the adapter's conditional write (`join.ts`), which admits one.
 */
import { adapterMethods } from "../../kernel/ports/ports.js"
import type { Context } from "../../kernel/types/http.js"
import type { Account } from "../../kernel/types/model.js"
import { organizationStore, organizationsOptions } from "../organizations/index.js"

/** Whether the person the IdP named (`account`, `email` lowercased) would pass the limit by joining `organizationId`. */
export async function joinWouldPassLimit(ctx: Context, organizationId: string, account: Pick<Account, "provider" | "providerAccountId">, email: string): Promise<boolean> {
  const limit = organizationsOptions(ctx).membershipLimit
  if (limit === undefined) return false
  const users = adapterMethods(ctx.config.adapter, ["getUserByAccount", "getUserByEmail"], "Storing users")
  const store = organizationStore(ctx)
  // The user the sign-in's plan will find (`sign-in-type.ts`): by the IdP's account, else by the address.
  const user = (await users.getUserByAccount(account)) ?? (await users.getUserByEmail(email))
  if (user && (await store.getOrganizationMember(organizationId, user.id))) return false
  const [members, invitations] = await Promise.all([store.listOrganizationMembers(organizationId), store.listOrganizationInvitations(organizationId)])
  const now = Date.now()
  const pending = invitations.filter((i) => i.status === "pending" && new Date(i.expires).getTime() > now && i.email.toLowerCase() !== email)
  return members.length + pending.length + 1 > limit
}
