/**
 * Organizations: organizations with members, roles and invitations, and an active organization in
 * the session (`GET/POST organizations`, `GET organizations/accept`, the server functions in
 * `functions.ts`). Off unless `organizations` is set. The rules live in `manage.ts` and
 * `invitations.ts` (what the route and the functions both run), `roles.ts` (permissions, who may
 * grant what), `membership.ts` (the caller's membership, read from the store at each use),
 * `identifiers.ts` (every value from outside), `active.ts` (the active organization and the
 * session's field). What it adds to the kernel's tables, declared here and typed by declaration
 * merging: its option (`options.ts`), events (`events.ts`), rate-limit groups (`rate-limits.ts`),
 * errors (`errors.ts`), adapter port (`adapter.ts`) and the session's `activeOrganization`.
 */
import { Configuration } from "../../kernel/errors/errors.js"
import { missingError, missingMethods } from "../../kernel/ports/ports.js"
import type { Capability } from "../../kernel/types/capability.js"
import { activeOrganizationFields } from "./active.js"
import { ORGANIZATIONS_PORT } from "./adapter.js"
import { organizationErrors } from "./errors.js"
import {
  acceptInvitation, createOrganization, deleteOrganization, getOrganization, hasPermission, inviteMember, leaveOrganization, listInvitations, listMembers,
  listOrganizations, removeMember, requirePermission, revokeInvitation, setActiveOrganization, updateMemberRole, updateOrganization,
} from "./functions.js"
import { organizationsOption } from "./options.js"
import { ORGANIZATIONS_RATE_LIMITS } from "./rate-limits.js"
import { changeOrganizationsActions, organizationsRoute } from "./route.js"

export const organizations: Capability = {
  name: "organizations",
  routes: [{ action: "organizations", answers: "json", withProvider: true, GET: { handler: organizationsRoute, csrf: false }, POST: { actions: changeOrganizationsActions, csrf: true } }],
  options: organizationsOption,
  rateLimits: ORGANIZATIONS_RATE_LIMITS,
  errors: organizationErrors,
  ports: { organizations: ORGANIZATIONS_PORT },
  sessionFields: activeOrganizationFields,
  check(config) {
    if (!config.organizations) return undefined
    if (!config.appUrl) return new Configuration('"organizations" needs "url" (or WEBAUTH_URL): invitation links are built from it, never from the request\'s Host', { code: "CONFIG_INVALID", cause: { option: "organizations" } })
    const missing = missingMethods(config.adapter, [...ORGANIZATIONS_PORT, "getUser"])
    return missing.length ? missingError(missing, { what: '"organizations"', otherwise: "or remove the option" }) : undefined
  },
}

/** Its server functions for the user of a request, by name. */
export const organizationsFunctions = {
  createOrganization,
  listOrganizations,
  getOrganization,
  updateOrganization,
  deleteOrganization,
  inviteMember,
  listInvitations,
  revokeInvitation,
  acceptInvitation,
  listMembers,
  updateMemberRole,
  removeMember,
  leaveOrganization,
  setActiveOrganization,
  hasPermission,
  requirePermission,
}
export { OrganizationError, ORGANIZATION_ERROR_CODES } from "./errors.js"
// What enterprise SSO builds on: the caller's membership and permission, the options, roles, and the active organization's cookie.
export { callerIn, withPermission, organizationsOptions, organizationStore } from "./membership.js"
export { activeCookie } from "./active.js"
export { roleOf } from "./identifiers.js"
export { OWNER_ROLE } from "./adapter.js"
export type { AdapterOrganizationMember } from "./adapter.js"
