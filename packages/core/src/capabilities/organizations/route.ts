/**
 * GET /organizations: the signed-in user's organizations, `{ organizations: [...] }`.
 * GET /organizations/accept?token=...: the invitation link. A signed-in user accepts it and goes
 * on to the callback URL (the app's origin by default); anyone else is sent to sign in first, with
 * a callback URL back to this link.
 * POST /organizations (CSRF token and Origin checked by the kernel, like every POST): `action` =
 * `create`, `update`, `delete`, `invite`, `revoke-invitation`, `accept-invitation`,
 * `update-member-role`, `remove-member`, `leave` or `set-active`, with the fields each takes
 * (`organizationId`, `name`, `slug`, `email`, `role`, `userId`, `invitationId`, `token`). See `functions.ts`.
 */
import { UnknownAction } from "../../kernel/errors/errors.js"
import { resolveCallbackUrl } from "../../kernel/http/callback-url.js"
import { rawError } from "../../kernel/http/error-response.js"
import { routeUrl } from "../../kernel/http/urls.js"
import { principalOf } from "../../kernel/sessions/principal.js"
import type { SubActions } from "../../kernel/types/capability.js"
import type { AuthRequest, AuthResponse, Context } from "../../kernel/types/http.js"
import { chooseActive } from "./active.js"
import { OrganizationError } from "./errors.js"
import { tokenOf } from "./identifiers.js"
import { accept, invite, revoke } from "./invitations.js"
import { changeMemberRole, changeOrganization, createOwnOrganization, leaveOwnOrganization, listOwnOrganizations, removeOrganization, removeOrganizationMember } from "./manage.js"
import { organizationsOptions } from "./membership.js"

/**
 * The invitation link: accepted for a signed-in user, else sign-in first and back (the link's own
 * `callbackUrl` kept, so the app's landing page survives the detour). A person follows it in a
 * browser, so a refusal (used, revoked, expired, another address) goes to the error page with its
 * code rather than answering JSON.
 */
async function acceptLink(req: AuthRequest, ctx: Context): Promise<AuthResponse> {
  try {
    organizationsOptions(ctx)
    const token = tokenOf(req.query.token)
    if (!(await principalOf(req, ctx))) {
      const back = new URL(`${ctx.actionBase}/organizations/accept`)
      back.searchParams.set("token", token)
      if (req.query.callbackUrl) back.searchParams.set("callbackUrl", req.query.callbackUrl)
      return { redirect: routeUrl(ctx, "signIn", { callbackUrl: back.toString() }) }
    }
    await accept(req, ctx, token)
    return { redirect: await resolveCallbackUrl(req, ctx, false) }
  } catch (err) {
    if (!(err instanceof OrganizationError)) throw err
    rawError(err, ctx)
    return { redirect: routeUrl(ctx, "error", { error: err.type, code: err.code }) }
  }
}

export async function organizationsRoute(req: AuthRequest, ctx: Context): Promise<AuthResponse> {
  if (req.providerId === "accept") return acceptLink(req, ctx)
  if (req.providerId !== undefined) throw new UnknownAction("Unknown action", { code: "ACTION_UNKNOWN" })
  return { json: { organizations: await listOwnOrganizations(req, ctx) } }
}

/** The body's fields, as they came (each checked where it is used). */
const field = (req: AuthRequest, name: string): unknown => req.body[name]

/** POST /organizations, by `action`. */
export const changeOrganizationsActions: SubActions = {
  handlers: {
    create: async (req, ctx) => ({ json: { organization: await createOwnOrganization(req, ctx, { name: field(req, "name"), slug: field(req, "slug") }) } }),
    update: async (req, ctx) => ({ json: { organization: await changeOrganization(req, ctx, field(req, "organizationId"), { name: field(req, "name"), slug: field(req, "slug") }) } }),
    delete: async (req, ctx) => {
      await removeOrganization(req, ctx, field(req, "organizationId"))
      return { json: { deleted: true } }
    },
    invite: async (req, ctx) => ({ json: { invitation: await invite(req, ctx, field(req, "organizationId"), { email: field(req, "email"), role: field(req, "role") }) } }),
    "revoke-invitation": async (req, ctx) => {
      await revoke(req, ctx, field(req, "invitationId"))
      return { json: { revoked: true } }
    },
    "accept-invitation": async (req, ctx) => ({ json: { membership: await accept(req, ctx, field(req, "token")) } }),
    "update-member-role": async (req, ctx) => ({ json: { member: await changeMemberRole(req, ctx, field(req, "organizationId"), field(req, "userId"), field(req, "role")) } }),
    "remove-member": async (req, ctx) => {
      await removeOrganizationMember(req, ctx, field(req, "organizationId"), field(req, "userId"))
      return { json: { removed: true } }
    },
    leave: async (req, ctx) => {
      await leaveOwnOrganization(req, ctx, field(req, "organizationId"))
      return { json: { left: true } }
    },
    "set-active": async (req, ctx) => {
      const { activeOrganization, cookies } = await chooseActive(req, ctx, field(req, "organizationId") ?? null)
      return { json: { activeOrganization }, cookies }
    },
  },
  refuse: (_given, ctx) => {
    organizationsOptions(ctx)
    return new OrganizationError(
      '"action" must be one of create, update, delete, invite, revoke-invitation, accept-invitation, update-member-role, remove-member, leave, set-active',
      { code: "ORGANIZATION_ACTION_INVALID" },
    )
  },
}
