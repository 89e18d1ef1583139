/**
 * Server functions of organizations, for server code that holds the incoming request (a framework
 * action or loader): the caller is the user whose session the request's cookies carry, in either
 * strategy, and their membership and role are read from the store on every call. Like the other
 * server functions they check no CSRF token: call them from endpoints that are themselves
 * protected; browsers talking to authlib directly use `GET/POST {basePath}/organizations`.
 *
 * Errors are thrown as `AuthError`s: `SessionRequired` (no valid session), `OrganizationError`
 * with a stable `code` (`ORGANIZATION_UNKNOWN` also for an organization the caller is not a member
 * of; see errors.ts), `ReauthenticationRequired` (deleting without a fresh authentication),
 * `RateLimited`, `UnknownAction` (`organizations` is not configured).
 */
import { serverFunction, serverFunctionWithCookies } from "../../kernel/run/server-function.js"
import { chooseActive, type ActiveOrganization } from "./active.js"
import { OrganizationError } from "./errors.js"
import { accept, invite, listOrganizationInvitations, revoke, type AcceptedInvitation, type OrganizationInvitation, type OrganizationInvitationInfo } from "./invitations.js"
import {
  callerHolds, changeMemberRole, changeOrganization, createOwnOrganization, leaveOwnOrganization, listOrganizationMembers, listOwnOrganizations, readOrganization,
  removeOrganization, removeOrganizationMember, type Organization, type OrganizationMember, type OrganizationMembership, type OrganizationWithRole,
} from "./manage.js"

/** What `setActiveOrganization` resolves when called directly. */
export interface ActiveOrganizationResult {
  activeOrganization: ActiveOrganization | null
  /** `Set-Cookie` values the response must carry (the active-organization cookie). */
  setCookie: string[]
}

/**
 * Creates an organization with the signed-in user as its owner. Without `slug` one is made from
 * the name. `CREATE_NOT_ALLOWED` when `allowUserToCreate` says no; `SLUG_TAKEN`; counted per user
 * (`organizations.create`).
 */
export const createOrganization = serverFunction("organizations", (req, ctx, input: { name: string; slug?: string }): Promise<Organization> => createOwnOrganization(req, ctx, input))

/** The signed-in user's organizations, each with their `role`, oldest membership first. */
export const listOrganizations = serverFunction("organizations", (req, ctx): Promise<OrganizationWithRole[]> => listOwnOrganizations(req, ctx))

/** One organization the signed-in user is a member of, with their `role`; `ORGANIZATION_UNKNOWN` otherwise. */
export const getOrganization = serverFunction("organizations", (req, ctx, organizationId: string): Promise<OrganizationWithRole> => readOrganization(req, ctx, organizationId))

/** Renames the organization and/or changes its slug (`organization:update`). */
export const updateOrganization = serverFunction("organizations", (req, ctx, organizationId: string, input: { name?: string; slug?: string }): Promise<Organization> =>
  changeOrganization(req, ctx, organizationId, input),
)

/**
 * Deletes the organization with its members and invitations (`organization:delete`: owners by
 * default), after an authentication no older than `organizations.freshAge`
 * (`ReauthenticationRequired` otherwise).
 */
export const deleteOrganization = serverFunction("organizations", (req, ctx, organizationId: string): Promise<void> => removeOrganization(req, ctx, organizationId))

/**
 * Invites `email` with `role` (`member:invite`, a role whose permissions the caller holds) and hands
 * `sendInvitation` the single-use link. Re-inviting an address replaces its pending invitation.
 */
export const inviteMember = serverFunction("organizations", (req, ctx, organizationId: string, input: { email: string; role: string }): Promise<OrganizationInvitation> =>
  invite(req, ctx, organizationId, input),
)

/** The organization's invitations with their `status` (`pending`, `accepted`, `revoked`, `expired`), newest first (`member:invite`). */
export const listInvitations = serverFunction("organizations", (req, ctx, organizationId: string): Promise<OrganizationInvitationInfo[]> => listOrganizationInvitations(req, ctx, organizationId))

/** Revokes a pending invitation (`invitation:revoke`); `INVITATION_INVALID` for one unknown, no longer pending or of another organization. */
export const revokeInvitation = serverFunction("organizations", (req, ctx, invitationId: string): Promise<void> => revoke(req, ctx, invitationId))

/**
 * Accepts an invitation for the signed-in user, whose verified address must be the invited one
 * (`INVITATION_EMAIL_MISMATCH`); `INVITATION_INVALID` when unknown, used, expired or revoked.
 */
export const acceptInvitation = serverFunction("organizations", (req, ctx, token: string): Promise<AcceptedInvitation> => accept(req, ctx, token))

/** The organization's members with their names, addresses and roles (any member). */
export const listMembers = serverFunction("organizations", (req, ctx, organizationId: string): Promise<OrganizationMember[]> => listOrganizationMembers(req, ctx, organizationId))

/**
 * Sets a member's role (`member:update-role`): `ROLE_ESCALATION` for a role with permissions the
 * caller lacks, `FORBIDDEN` for a member whose role the caller does not cover (only owners demote
 * owners), `LAST_OWNER` for the only owner.
 */
export const updateMemberRole = serverFunction("organizations", (req, ctx, organizationId: string, userId: string, role: string): Promise<OrganizationMembership> =>
  changeMemberRole(req, ctx, organizationId, userId, role),
)

/** Removes a member (`member:remove`; only owners remove owners; never the last owner). */
export const removeMember = serverFunction("organizations", (req, ctx, organizationId: string, userId: string): Promise<void> => removeOrganizationMember(req, ctx, organizationId, userId))

/** The signed-in user leaves the organization (`LAST_OWNER` for its only owner). */
export const leaveOrganization = serverFunction("organizations", (req, ctx, organizationId: string): Promise<void> => leaveOwnOrganization(req, ctx, organizationId))

/**
 * Makes one of the signed-in user's organizations the active one (`null`: none); the session then
 * carries `activeOrganization: { id, slug, role }`, checked against the store on every read. Put
 * `setCookie` on the response.
 */
export const setActiveOrganization = serverFunctionWithCookies(
  "organizations",
  async (req, ctx, organizationId: string | null) => {
    const { activeOrganization, cookies } = await chooseActive(req, ctx, organizationId)
    return { value: activeOrganization, cookies }
  },
  ({ value, setCookie }): ActiveOrganizationResult => ({ activeOrganization: value, setCookie }),
)

/** Whether the signed-in user's role in the organization holds `permission` (built-in or the app's), read from the store now. */
export const hasPermission = serverFunction("organizations", (req, ctx, organizationId: string, permission: string): Promise<boolean> =>
  callerHolds(req, ctx, organizationId, permission),
)

/** As `hasPermission`, throwing `OrganizationError` `FORBIDDEN` when the role does not hold it. */
export const requirePermission = serverFunction("organizations", async (req, ctx, organizationId: string, permission: string): Promise<void> => {
  if (!(await callerHolds(req, ctx, organizationId, permission))) throw new OrganizationError("Your role does not allow this", { code: "FORBIDDEN" })
})
