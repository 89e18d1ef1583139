/**
 * Invitations: sent by a member with `member:invite` for a role they cover, stored with the
 * SHA-256 (base64url) of a random 256-bit token, the token itself only in the link handed to
 * `sendInvitation`: `{url}{basePath}/organizations/accept?token=...`, built from the configured
 * `url` (never the request's `Host`). Accepted once, before it expires, unless revoked, by a
 * signed-in user whose verified address is the invited one (compared case-insensitively, otherwise
 * exactly: a `+tag` is part of the address); the adapter's conditional write makes concurrent
 * acceptances give one membership.
 */
import { Configuration } from "../../kernel/errors/errors.js"
import { adapterMethods } from "../../kernel/ports/ports.js"
import { randomToken, sha256 } from "../../kernel/security/random.js"
import type { AuthRequest, Context } from "../../kernel/types/http.js"
import { emitEvent } from "../../kernel/user-code/events.js"
import { runUserCode } from "../../kernel/user-code/run.js"
import type { AdapterOrganizationInvitation } from "./adapter.js"
import { OrganizationError } from "./errors.js"
import { emailOf, invitationIdOf, roleOf, tokenOf } from "./identifiers.js"
import { callerIn, organizationStore, organizationsOptions, signedIn, unknownOrganization, withPermission } from "./membership.js"
import { countPerUser } from "./manage.js"
import { covers, holds } from "./roles.js"

/** An invitation as `inviteMember` answers it. */
export interface OrganizationInvitation {
  id: string
  organizationId: string
  email: string
  role: string
  expires: Date
}

/** An invitation as `listInvitations` answers it: a pending one past its `expires` reads `expired`. */
export interface OrganizationInvitationInfo {
  id: string
  email: string
  role: string
  expires: Date
  status: "pending" | "accepted" | "revoked" | "expired"
}

/** What accepting an invitation made the user. */
export interface AcceptedInvitation {
  organizationId: string
  role: string
}

const invalid = () => new OrganizationError("This invitation is not valid: it is unknown, used, expired or revoked", { code: "INVITATION_INVALID" })

/** The link of `token`: the configured `url`'s origin and the base path, never the request's host. */
export function invitationUrl(ctx: Context, token: string): string {
  const { appUrl, basePath } = ctx.config
  // Checked at start-up (`check` in index.ts); a config without it never gets here.
  if (!appUrl) throw new Configuration('"organizations" needs "url": invitation links are built from it', { code: "CONFIG_INVALID" })
  return `${appUrl.origin}${basePath}/organizations/accept?token=${token}`
}

/**
 * Invites `email` with `role` (`member:invite`, a role the caller covers: `ROLE_ESCALATION`
 * otherwise). A pending invitation for the same address is replaced; a member with the address is
 * refused (`ALREADY_A_MEMBER`); `MEMBERSHIP_LIMIT` when members plus pending invitations would pass
 * `membershipLimit`. Counted per user (`organizations.invite`).
 */
export async function invite(req: AuthRequest, ctx: Context, organizationId: unknown, input: { email?: unknown; role?: unknown }): Promise<OrganizationInvitation> {
  const options = organizationsOptions(ctx)
  const email = emailOf(input?.email)
  const role = roleOf(options.roles, input?.role)
  const caller = withPermission(ctx, await callerIn(req, ctx, organizationId), "member:invite")
  if (!covers(options.roles, caller.member.role, role)) throw new OrganizationError("You cannot grant a role with permissions you lack", { code: "ROLE_ESCALATION" })
  await countPerUser(ctx, "organizations.invite", caller.principal.userId)
  const store = organizationStore(ctx)
  const organization = await store.getOrganization(caller.organizationId)
  if (!organization) throw unknownOrganization()
  const token = randomToken(32)
  const now = new Date()
  const expires = new Date(now.getTime() + options.invitationMaxAge * 1000)
  const stored = await store.createOrganizationInvitation(
    { id: crypto.randomUUID(), organizationId: caller.organizationId, email, role, inviterId: caller.principal.userId, tokenHash: sha256(token), expires },
    { now, ...(options.membershipLimit !== undefined ? { membershipLimit: options.membershipLimit } : {}) },
  )
  if (stored === "member-exists") throw new OrganizationError("A member already has that address", { code: "ALREADY_A_MEMBER" })
  if (stored === "limit-reached") throw new OrganizationError("The organization has as many members and pending invitations as it may", { code: "MEMBERSHIP_LIMIT" })
  const inviter = await adapterMethods(ctx.config.adapter, ["getUser"], "Organizations").getUser(caller.principal.userId)
  const message = {
    email,
    url: invitationUrl(ctx, token),
    organization: { id: organization.id, name: organization.name, slug: organization.slug },
    inviter: { id: caller.principal.userId, name: inviter?.name ?? null, email: inviter?.email ?? null },
    role,
    expires: new Date(stored.expires),
  }
  try {
    await runUserCode("callback", "organizations.sendInvitation", () => options.sendInvitation(message))
  } catch (err) {
    // A link nobody received must not stay usable (nor count against the limit).
    await store.revokeOrganizationInvitation(stored.id)
    throw err
  }
  await emitEvent(ctx, "invitationSent", { organizationId: caller.organizationId, invitationId: stored.id, email, role, inviterId: caller.principal.userId, expires: message.expires })
  return { id: stored.id, organizationId: caller.organizationId, email: stored.email, role: stored.role, expires: message.expires }
}

const statusOf = (i: AdapterOrganizationInvitation, now: number): OrganizationInvitationInfo["status"] =>
  i.status === "pending" && new Date(i.expires).getTime() <= now ? "expired" : i.status

/** The organization's invitations of every status, newest first (`member:invite`). */
export async function listOrganizationInvitations(req: AuthRequest, ctx: Context, organizationId: unknown): Promise<OrganizationInvitationInfo[]> {
  const caller = withPermission(ctx, await callerIn(req, ctx, organizationId), "member:invite")
  const now = Date.now()
  const listed = await organizationStore(ctx).listOrganizationInvitations(caller.organizationId)
  return listed
    .filter((i) => i.organizationId === caller.organizationId)
    .map((i) => ({ id: i.id, email: i.email, role: i.role, expires: new Date(i.expires), status: statusOf(i, now) }))
}

/**
 * Revokes a pending invitation (`invitation:revoke` in its organization). An unknown invitation,
 * one of an organization the caller is not in, and one no longer pending all answer
 * `INVITATION_INVALID`: the answer reveals nothing of other organizations.
 */
export async function revoke(req: AuthRequest, ctx: Context, invitationId: unknown): Promise<void> {
  organizationsOptions(ctx)
  const id = invitationIdOf(invitationId)
  const { userId } = await signedIn(req, ctx)
  const store = organizationStore(ctx)
  const invitation = await store.getOrganizationInvitation(id)
  const member = invitation && (await store.getOrganizationMember(invitation.organizationId, userId))
  if (!invitation || !member) throw invalid()
  if (!holds(organizationsOptions(ctx).roles, member.role, "invitation:revoke")) throw new OrganizationError("Your role does not allow this", { code: "FORBIDDEN" })
  if (!(await store.revokeOrganizationInvitation(id))) throw invalid()
}

/** The signed-in user's verified address, or null (no address, or never verified). */
async function verifiedAddress(ctx: Context, userId: string): Promise<string | null> {
  const user = await adapterMethods(ctx.config.adapter, ["getUser"], "Organizations").getUser(userId)
  return user?.email && user.emailVerified ? user.email : null
}

/**
 * Accepts the invitation of `token` for the signed-in user: `INVITATION_INVALID` when unknown,
 * used, expired or revoked; `INVITATION_EMAIL_MISMATCH` when the user's verified address is not
 * the invited one (or is not verified). A user already a member keeps their role.
 */
export async function accept(req: AuthRequest, ctx: Context, token: unknown): Promise<AcceptedInvitation> {
  organizationsOptions(ctx)
  const tokenHash = sha256(tokenOf(token))
  const { userId } = await signedIn(req, ctx)
  const store = organizationStore(ctx)
  const invitation = await store.getOrganizationInvitationByTokenHash(tokenHash)
  const now = new Date()
  if (!invitation || invitation.status !== "pending" || new Date(invitation.expires).getTime() <= now.getTime()) throw invalid()
  const email = await verifiedAddress(ctx, userId)
  if (email === null || email.toLowerCase() !== invitation.email.toLowerCase())
    throw new OrganizationError("This invitation is for another address: sign in with the verified address it was sent to", { code: "INVITATION_EMAIL_MISMATCH" })
  const already = await store.getOrganizationMember(invitation.organizationId, userId)
  const member = await store.acceptOrganizationInvitation({ tokenHash, userId, email, now })
  if (!member) throw invalid()
  if (!already) await emitEvent(ctx, "memberAdded", { organizationId: member.organizationId, userId, role: member.role, via: "invitation" })
  return { organizationId: member.organizationId, role: member.role }
}
