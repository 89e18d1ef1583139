/**
 * The caller of a request and their membership, read from the store at each use: the principal
 * (every check of the session strategy) and then the membership row, never anything the session
 * token says. A caller who is not a member of an organization gets `ORGANIZATION_UNKNOWN`, the same
 * answer as for one that does not exist, so the answer reveals nothing about organizations they
 * are not in.
 */
import { UnknownAction } from "../../kernel/errors/errors.js"
import { port, type PortMethods } from "../../kernel/ports/ports.js"
import { requirePrincipal, type Principal } from "../../kernel/sessions/principal.js"
import type { AuthRequest, Context } from "../../kernel/types/http.js"
import type { AdapterOrganizationMember } from "./adapter.js"
import { OrganizationError } from "./errors.js"
import { organizationIdOf } from "./identifiers.js"
import type { ResolvedOrganizationsOptions } from "./options.js"
import { holds } from "./roles.js"

/** The `organizations` port of the config's adapter (checked at start-up when the option is set). */
export const organizationStore = (ctx: Context): PortMethods<"organizations"> => port(ctx.config, "organizations", "Organizations")

/** The resolved option; without it, organizations answer as an action this configuration lacks. */
export function organizationsOptions(ctx: Context): ResolvedOrganizationsOptions {
  const options = ctx.config.organizations
  if (!options) throw new UnknownAction("Organizations are not configured", { code: "ACTION_UNAVAILABLE" })
  return options
}

/** The same refusal for an organization that does not exist and one the caller is not a member of. */
export const unknownOrganization = () => new OrganizationError("No such organization", { code: "ORGANIZATION_UNKNOWN" })

/** The signed-in caller (every check of the strategy), or `SessionRequired`. */
export function signedIn(req: AuthRequest, ctx: Context): Promise<Principal> {
  organizationsOptions(ctx)
  return requirePrincipal(req, ctx, "Sign in to use organizations")
}

/** A caller and their membership of one organization, as the store answered just now. */
export interface Caller {
  readonly principal: Principal
  readonly organizationId: string
  readonly member: AdapterOrganizationMember
}

/** The request's caller as a member of `organizationId` (validated first: no store call for a malformed id), else `ORGANIZATION_UNKNOWN`. */
export async function callerIn(req: AuthRequest, ctx: Context, organizationId: unknown): Promise<Caller> {
  organizationsOptions(ctx)
  const id = organizationIdOf(organizationId)
  const principal = await signedIn(req, ctx)
  const member = await organizationStore(ctx).getOrganizationMember(id, principal.userId)
  if (!member) throw unknownOrganization()
  return { principal, organizationId: id, member }
}

/** `caller`, when their role holds `permission`; else `FORBIDDEN`. */
export function withPermission(ctx: Context, caller: Caller, permission: string): Caller {
  if (!holds(organizationsOptions(ctx).roles, caller.member.role, permission)) throw new OrganizationError("Your role does not allow this", { code: "FORBIDDEN" })
  return caller
}

/** What the adapter's conditional writes take: the caller's role as read, so a write after they lost it changes nothing. */
export const actorOf = (caller: Caller) => ({ userId: caller.principal.userId, role: caller.member.role })
