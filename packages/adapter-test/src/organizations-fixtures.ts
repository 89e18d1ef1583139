/**
 * The organizations suites' fixtures, made for one suite context: stored users, organizations with
 * an owner, invitations as core hands them to the port, members joined the way core joins them.
 */
import { expect } from "vitest"
import type { AdapterOrganizationInvitation, AdapterUser } from "@authlib/core"
import { fromNow, randomToken } from "./context.js"
import type { SuiteContext } from "./types.js"

/** A day, in milliseconds. */
export const DAY_MS = 24 * 60 * 60 * 1000

export function organizationFixtures(ctx: SuiteContext) {
  const { adapter, make } = ctx

  const slug = () => `org-${crypto.randomUUID().slice(0, 8)}`

  /** A stored user; `email` replaces the generated address. */
  const user = (overrides: Partial<AdapterUser> = {}) => adapter.createUser(make.user(overrides as never))

  /** A new organization with a new user as its owner. */
  async function organization(name = "Acme") {
    const owner = await user()
    const created = await adapter.createOrganization({ id: crypto.randomUUID(), name, slug: slug(), ownerId: owner.id })
    if (created === "slug-taken") throw new Error("a fresh slug was taken")
    return { owner, organization: created }
  }

  /** The invitation as `createOrganizationInvitation` receives it. */
  const invitation = (organizationId: string, inviterId: string, email: string, overrides: Partial<AdapterOrganizationInvitation> = {}) => ({
    id: crypto.randomUUID(),
    organizationId,
    email,
    role: "member",
    inviterId,
    tokenHash: randomToken(),
    expires: fromNow(7 * DAY_MS),
    ...overrides,
  })

  /** Stores an invitation that must be accepted by the port (not refused). */
  async function invite(organizationId: string, inviterId: string, email: string, overrides: Partial<AdapterOrganizationInvitation> = {}, membershipLimit?: number) {
    const stored = await adapter.createOrganizationInvitation(invitation(organizationId, inviterId, email, overrides), { now: new Date(), membershipLimit })
    if (typeof stored === "string") throw new Error(`the invitation was refused: ${stored}`)
    return stored
  }

  /** A new user made a member with `role`, the way core does it: invited, then accepting. */
  async function join(organizationId: string, inviterId: string, role = "member") {
    const joiner = await user()
    const { tokenHash } = await invite(organizationId, inviterId, joiner.email!, { role })
    const member = await adapter.acceptOrganizationInvitation({ tokenHash, userId: joiner.id, email: joiner.email!, now: new Date() })
    expect(member).toMatchObject({ organizationId, userId: joiner.id, role })
    return { user: joiner, member: member! }
  }

  const roles = async (organizationId: string) =>
    Object.fromEntries((await adapter.listOrganizationMembers(organizationId)).map((m) => [m.userId, m.role]))
  const owners = async (organizationId: string) => (await adapter.listOrganizationMembers(organizationId)).filter((m) => m.role === "owner")
  const pendingFor = async (organizationId: string) => (await adapter.listOrganizationInvitations(organizationId)).filter((i) => i.status === "pending")

  return { slug, user, organization, invitation, invite, join, roles, owners, pendingFor }
}
