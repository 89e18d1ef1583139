/**
 * The server functions of organizations through the public API, in both session strategies:
 * create, list, read, update, delete, members and roles, leaving, permissions.
 */
import { describe, expect, it } from "vitest"
import {
  createOrganization, deleteOrganization, getOrganization, hasPermission, inviteMember, leaveOrganization, listMembers, listOrganizations,
  removeMember, requirePermission, updateMemberRole, updateOrganization, acceptInvitation,
} from "../../../src/index.js"
import { appRequest, kit, lastToken, rejection, STRATEGIES } from "./helpers.js"

describe.each(STRATEGIES)("organizations (%s sessions)", (strategy) => {
  it("creates an organization with the creator as owner and lists it with the role", async () => {
    const { config, signIn } = kit(strategy)
    const alice = await signIn("alice")
    const org = await createOrganization(appRequest(alice), config, { name: "Acme Inc." })
    expect(org).toMatchObject({ name: "Acme Inc.", slug: "acme-inc" })
    expect(org.createdAt).toBeInstanceOf(Date)
    expect(await listOrganizations(appRequest(alice), config)).toEqual([{ ...org, role: "owner" }])
    expect(await getOrganization(appRequest(alice), config, org.id)).toEqual({ ...org, role: "owner" })
  })
})
