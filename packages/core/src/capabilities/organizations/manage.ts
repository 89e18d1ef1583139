/**
 * What the route and the server functions both run for organizations and their members: create,
 * list, read, update and delete an organization; list members, change a role, remove a member,
 * leave. Each reads the caller's membership from the store first (`membership.ts`), checks the
 * rules (`roles.ts`: no granting a role with a permission one lacks, only owners act on owners),
 * and leaves to the adapter's conditional writes what must hold against concurrent requests (the
 * last owner, the caller still holding the role they acted with).
 */
import { count } from "../../kernel/rate-limit/limiter.js"
import { adapterMethods } from "../../kernel/ports/ports.js"
import { assertRecentAuthentication, requireFreshSecondFactor } from "../../kernel/sessions/freshness.js"
import type { AuthRequest, Context } from "../../kernel/types/http.js"
import { emitEvent } from "../../kernel/user-code/events.js"
import { runUserCode } from "../../kernel/user-code/run.js"
import { CallbackError } from "../../kernel/errors/errors.js"
import { OWNER_ROLE, type AdapterOrganization, type AdapterOrganizationMember } from "./adapter.js"
import { OrganizationError } from "./errors.js"
import { nameOf, slugFromName, slugOf, userIdOf, MIN_SLUG } from "./identifiers.js"
import { actorOf, callerIn, organizationStore, organizationsOptions, signedIn, unknownOrganization, withPermission, type Caller } from "./membership.js"
import { covers, holds, isPermission } from "./roles.js"
import { randomToken } from "../../kernel/security/random.js"

/** An organization as the functions answer it. */
export interface Organization {
  id: string
  name: string
  slug: string
  createdAt: Date
}

/** An organization with the caller's role in it. */
export interface OrganizationWithRole extends Organization {
  role: string
}

/** A member as `listMembers` answers them. */
export interface OrganizationMember {
  userId: string
  name: string | null
  email: string | null
  role: string
  joinedAt: Date
}

/** A membership as a role change answers it. */
export interface OrganizationMembership {
  organizationId: string
  userId: string
  role: string
  joinedAt: Date
}

const organizationOf = (o: AdapterOrganization): Organization => ({ id: o.id, name: o.name, slug: o.slug, createdAt: new Date(o.createdAt) })
const membershipOf = (m: AdapterOrganizationMember): OrganizationMembership => ({ organizationId: m.organizationId, userId: m.userId, role: m.role, joinedAt: new Date(m.joinedAt) })
const slugTaken = () => new OrganizationError("That slug is taken", { code: "SLUG_TAKEN" })
const lastOwner = () => new OrganizationError("An organization keeps at least one owner: make another member owner first", { code: "LAST_OWNER" })
const notAMember = () => new OrganizationError("That user is not a member of this organization", { code: "NOT_A_MEMBER" })

/** Counts one attempt of `group` for `userId` when rate limits are on. */
export async function countPerUser(ctx: Context, group: "organizations.create" | "organizations.invite", userId: string): Promise<void> {
  if (ctx.config.rateLimit) await count(ctx, group, userId, 1)
}

/** Whether `organizations.allowUserToCreate` lets the user create (a function is asked with the stored user). */
async function mayCreate(ctx: Context, userId: string): Promise<boolean> {
  const allow = organizationsOptions(ctx).allowUserToCreate
  if (typeof allow === "boolean") return allow
  const user = await adapterMethods(ctx.config.adapter, ["getUser"], "Organizations").getUser(userId)
  if (!user) return false
  const answer = await runUserCode("callback", "organizations.allowUserToCreate", () => allow(user))
  if (typeof answer !== "boolean")
    throw new CallbackError('"organizations.allowUserToCreate" must answer true or false', { code: "CALLBACK_THREW", cause: { callback: "organizations.allowUserToCreate", thrown: String(answer) } })
  return answer
}

/** Creates an organization with the caller as owner. Without a slug, one is made from the name (a suffix added when taken). */
export async function createOwnOrganization(req: AuthRequest, ctx: Context, input: { name?: unknown; slug?: unknown }): Promise<Organization> {
  organizationsOptions(ctx)
  const name = nameOf(input?.name)
  const given = input?.slug === undefined || input.slug === "" ? undefined : slugOf(input.slug)
  const { userId } = await signedIn(req, ctx)
  if (!(await mayCreate(ctx, userId))) throw new OrganizationError("You may not create organizations", { code: "CREATE_NOT_ALLOWED" })
  await countPerUser(ctx, "organizations.create", userId)
  const store = organizationStore(ctx)
  const base = slugFromName(name)
  // A made slug that is taken gets a random suffix; a few tries, then the refusal a given slug gets.
  const candidates = given !== undefined ? [given] : [base.length >= MIN_SLUG ? base : undefined, ...[1, 2, 3].map(() => `${base || "org"}-${randomToken(4).toLowerCase().replace(/[^a-z0-9]/g, "x")}`)]
  for (const slug of candidates) {
    if (slug === undefined) continue
    const created = await store.createOrganization({ id: crypto.randomUUID(), name, slug, ownerId: userId })
    if (created === "slug-taken") continue
    const organization = organizationOf(created)
    await emitEvent(ctx, "organizationCreated", { organization, user: { id: userId } })
    await emitEvent(ctx, "memberAdded", { organizationId: organization.id, userId, role: OWNER_ROLE, via: "created" })
    return organization
  }
  throw slugTaken()
}

/** The caller's organizations, each with their role (oldest membership first). */
export async function listOwnOrganizations(req: AuthRequest, ctx: Context): Promise<OrganizationWithRole[]> {
  const { userId } = await signedIn(req, ctx)
  const listed = await organizationStore(ctx).listOrganizationsByUserId(userId)
  return listed.map((o) => ({ ...organizationOf(o), role: o.role }))
}

/** One organization the caller is a member of, with their role. */
export async function readOrganization(req: AuthRequest, ctx: Context, organizationId: unknown): Promise<OrganizationWithRole> {
  const caller = await callerIn(req, ctx, organizationId)
  const found = await organizationStore(ctx).getOrganization(caller.organizationId)
  if (!found) throw unknownOrganization()
  return { ...organizationOf(found), role: caller.member.role }
}

/** Renames the organization or changes its slug (`organization:update`). */
export async function changeOrganization(req: AuthRequest, ctx: Context, organizationId: unknown, input: { name?: unknown; slug?: unknown }): Promise<Organization> {
  organizationsOptions(ctx)
  const patch: { name?: string; slug?: string } = {}
  if (input?.name !== undefined && input.name !== "") patch.name = nameOf(input.name)
  if (input?.slug !== undefined && input.slug !== "") patch.slug = slugOf(input.slug)
  const caller = withPermission(ctx, await callerIn(req, ctx, organizationId), "organization:update")
  const store = organizationStore(ctx)
  if (patch.name === undefined && patch.slug === undefined) {
    const found = await store.getOrganization(caller.organizationId)
    if (!found) throw unknownOrganization()
    return organizationOf(found)
  }
  const updated = await store.updateOrganization(caller.organizationId, patch)
  if (updated === "slug-taken") throw slugTaken()
  if (!updated) throw unknownOrganization()
  return organizationOf(updated)
}

/**
 * Deletes the organization with its members and invitations (`organization:delete`, an owner's
 * by default), after an authentication no older than `organizations.freshAge` (and, for a user
 * with two factors, a second factor that recent).
 */
export async function removeOrganization(req: AuthRequest, ctx: Context, organizationId: unknown): Promise<void> {
  const caller = withPermission(ctx, await callerIn(req, ctx, organizationId), "organization:delete")
  const principal = await requireFreshSecondFactor(req, ctx, "Sign in to delete an organization")
  assertRecentAuthentication(ctx, principal, { maxAge: organizationsOptions(ctx).freshAge })
  if (!(await organizationStore(ctx).deleteOrganization(caller.organizationId))) throw unknownOrganization()
}

/** The organization's members with their names and addresses (any member may list them). */
export async function listOrganizationMembers(req: AuthRequest, ctx: Context, organizationId: unknown): Promise<OrganizationMember[]> {
  const caller = await callerIn(req, ctx, organizationId)
  const members = await organizationStore(ctx).listOrganizationMembers(caller.organizationId)
  return members
    .filter((m) => m.organizationId === caller.organizationId)
    .map((m) => ({ userId: m.userId, name: m.name ?? null, email: m.email ?? null, role: m.role, joinedAt: new Date(m.joinedAt) }))
}

/** The target's membership, read now (`NOT_A_MEMBER` without one), and a check that the caller covers their current role. */
async function target(ctx: Context, caller: Caller, userId: unknown): Promise<AdapterOrganizationMember> {
  const id = userIdOf(userId)
  const member = await organizationStore(ctx).getOrganizationMember(caller.organizationId, id)
  if (!member) throw notAMember()
  const roles = organizationsOptions(ctx).roles
  if (id !== caller.principal.userId && !covers(roles, caller.member.role, member.role))
    throw new OrganizationError(member.role === OWNER_ROLE ? "Only an owner can change or remove an owner" : "That member's role has permissions yours lacks", { code: "FORBIDDEN" })
  return member
}

/**
 * The adapter's answer to a conditional write made for `caller`: `null` means the target is gone
 * or the caller no longer holds the role they acted with; told apart by reading the caller again.
 */
async function refused(ctx: Context, caller: Caller): Promise<OrganizationError> {
  const now = await organizationStore(ctx).getOrganizationMember(caller.organizationId, caller.principal.userId)
  if (!now) return unknownOrganization()
  if (now.role !== caller.member.role) return new OrganizationError("Your role changed meanwhile: try again", { code: "FORBIDDEN" })
  return notAMember()
}

/**
 * Sets a member's role (`member:update-role`): the caller must hold every permission of the new
 * role (`ROLE_ESCALATION` otherwise: only owners make owners) and of the member's current one
 * (`FORBIDDEN`: only owners demote owners). The last owner keeps the role (`LAST_OWNER`).
 */
export async function changeMemberRole(req: AuthRequest, ctx: Context, organizationId: unknown, userId: unknown, role: unknown): Promise<OrganizationMembership> {
  const options = organizationsOptions(ctx)
  if (typeof role !== "string" || !options.roles.has(role)) {
    // Checked before any store call; `roleOf`'s refusal.
    throw new OrganizationError("No such role", { code: "ROLE_UNKNOWN" })
  }
  const caller = withPermission(ctx, await callerIn(req, ctx, organizationId), "member:update-role")
  if (!covers(options.roles, caller.member.role, role)) throw new OrganizationError("You cannot grant a role with permissions you lack", { code: "ROLE_ESCALATION" })
  const before = await target(ctx, caller, userId)
  const updated = await organizationStore(ctx).updateOrganizationMemberRole(caller.organizationId, before.userId, role, actorOf(caller))
  if (updated === "last-owner") throw lastOwner()
  if (!updated) throw await refused(ctx, caller)
  if (before.role !== updated.role)
    await emitEvent(ctx, "memberRoleChanged", { organizationId: caller.organizationId, userId: updated.userId, role: updated.role, previousRole: before.role, by: caller.principal.userId })
  return membershipOf(updated)
}

/** Removes a member (`member:remove`; only owners remove owners; never the last owner). Removing oneself is leaving. */
export async function removeOrganizationMember(req: AuthRequest, ctx: Context, organizationId: unknown, userId: unknown): Promise<void> {
  const caller = await callerIn(req, ctx, organizationId)
  if (userIdOf(userId) === caller.principal.userId) return leave(ctx, caller)
  withPermission(ctx, caller, "member:remove")
  const before = await target(ctx, caller, userId)
  const removed = await organizationStore(ctx).removeOrganizationMember(caller.organizationId, before.userId, actorOf(caller))
  if (removed === "last-owner") throw lastOwner()
  if (!removed) throw await refused(ctx, caller)
  await emitEvent(ctx, "memberRemoved", { organizationId: caller.organizationId, userId: removed.userId, role: removed.role, by: caller.principal.userId, reason: "removed" })
}

async function leave(ctx: Context, caller: Caller): Promise<void> {
  const removed = await organizationStore(ctx).removeOrganizationMember(caller.organizationId, caller.principal.userId)
  if (removed === "last-owner") throw lastOwner()
  if (!removed) throw unknownOrganization()
  await emitEvent(ctx, "memberRemoved", { organizationId: caller.organizationId, userId: removed.userId, role: removed.role, by: caller.principal.userId, reason: "left" })
}

/** The caller leaves the organization (the last owner cannot: `LAST_OWNER`). */
export async function leaveOwnOrganization(req: AuthRequest, ctx: Context, organizationId: unknown): Promise<void> {
  return leave(ctx, await callerIn(req, ctx, organizationId))
}

/**
 * Whether the caller's role in the organization holds `permission` (a built-in one or the app's),
 * read from the store now. `false` for a malformed permission; `ORGANIZATION_UNKNOWN` when the
 * caller is not a member.
 */
export async function callerHolds(req: AuthRequest, ctx: Context, organizationId: unknown, permission: unknown): Promise<boolean> {
  const caller = await callerIn(req, ctx, organizationId)
  return isPermission(permission) && holds(organizationsOptions(ctx).roles, caller.member.role, permission)
}
