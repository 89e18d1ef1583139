/**
 * The organizations port's race rules, run by `organizationsSuite`: two owners demoting, removing or
 * deleting each other at once leave exactly one owner; ${ACCEPTANCES} parallel acceptances of one
 * invitation give one membership; parallel invitations never pass the membership limit, and parallel
 * re-invitations of one address leave one pending invitation.
 */
import { expect } from "vitest"
import type { AdapterOrganizationInvitation } from "@authlib/core"
import { organizationFixtures } from "./organizations-fixtures.js"
import type { SuiteContext } from "./types.js"

/** How many parallel acceptances of one invitation the race case makes (issue 35 names 20). */
const ACCEPTANCES = 20

export function organizationRacesSuite(ctx: SuiteContext): void {
  const { adapter, test, concurrency } = ctx
  const { user, organization, invitation, invite, join, owners, pendingFor } = organizationFixtures(ctx)

  async function twoOwnerOrganizations(n: number) {
    return Promise.all(
      Array.from({ length: n }, async () => {
        const { owner, organization: org } = await organization()
        const { user: second } = await join(org.id, owner.id, "owner")
        return { org, a: owner, b: second }
      }),
    )
  }

  /** Runs `act` on `concurrency / 2` two-owner organizations at once, then checks each kept exactly one owner. */
  async function eachKeepsOneOwner(act: (o: Awaited<ReturnType<typeof twoOwnerOrganizations>>[number]) => Promise<unknown>[]) {
    const orgs = await twoOwnerOrganizations(concurrency / 2)
    const answers = await Promise.all(orgs.map(async (o) => Promise.all(act(o))))
    for (const o of orgs) expect(await owners(o.org.id)).toHaveLength(1)
    return answers
  }

  const won = (answer: unknown) => answer !== null && typeof answer === "object"

  test("race: two owners demoting each other at once (each as actor) leave exactly one owner", async () => {
    const answers = await eachKeepsOneOwner(({ org, a, b }) => [
      Promise.resolve(adapter.updateOrganizationMemberRole(org.id, b.id, "admin", { userId: a.id, role: "owner" })),
      Promise.resolve(adapter.updateOrganizationMemberRole(org.id, a.id, "admin", { userId: b.id, role: "owner" })),
    ])
    for (const pair of answers) expect(pair.filter(won)).toHaveLength(1)
  })

  test("race: two owners demoting each other at once without an actor leave exactly one owner (the other answer is last-owner)", async () => {
    const answers = await eachKeepsOneOwner(({ org, a, b }) => [
      Promise.resolve(adapter.updateOrganizationMemberRole(org.id, b.id, "member")),
      Promise.resolve(adapter.updateOrganizationMemberRole(org.id, a.id, "member")),
    ])
    for (const pair of answers) expect(pair.filter((x) => x === "last-owner")).toHaveLength(1)
  })

  test("race: one owner demoting the other while that one removes the first leaves exactly one owner", async () => {
    await eachKeepsOneOwner(({ org, a, b }) => [
      Promise.resolve(adapter.updateOrganizationMemberRole(org.id, b.id, "admin", { userId: a.id, role: "owner" })),
      Promise.resolve(adapter.removeOrganizationMember(org.id, a.id, { userId: b.id, role: "owner" })),
    ])
    await eachKeepsOneOwner(({ org, a, b }) => [
      Promise.resolve(adapter.updateOrganizationMemberRole(org.id, b.id, "admin")),
      Promise.resolve(adapter.removeOrganizationMember(org.id, a.id)),
    ])
  })

  test("race: two owners removing each other (or both leaving) at once leave exactly one owner", async () => {
    const crossed = await eachKeepsOneOwner(({ org, a, b }) => [
      Promise.resolve(adapter.removeOrganizationMember(org.id, b.id, { userId: a.id, role: "owner" })),
      Promise.resolve(adapter.removeOrganizationMember(org.id, a.id, { userId: b.id, role: "owner" })),
    ])
    for (const pair of crossed) expect(pair.filter(won)).toHaveLength(1)
    const leaving = await eachKeepsOneOwner(({ org, a, b }) => [
      Promise.resolve(adapter.removeOrganizationMember(org.id, a.id)),
      Promise.resolve(adapter.removeOrganizationMember(org.id, b.id)),
    ])
    for (const pair of leaving) expect(pair.filter((x) => x === "last-owner")).toHaveLength(1)
  })

  test("race: two owners of an organization with other members deleted at once: exactly one deletion is refused with LAST_OWNER", async () => {
    const orgs = await twoOwnerOrganizations(concurrency / 2)
    await Promise.all(orgs.map(({ org, a }) => join(org.id, a.id)))
    const outcomes = await Promise.all(
      orgs.map(({ a, b }) => Promise.allSettled([Promise.resolve().then(() => adapter.deleteUser(a.id)), Promise.resolve().then(() => adapter.deleteUser(b.id))])),
    )
    for (const [i, pair] of outcomes.entries()) {
      expect(pair.filter((o) => o.status === "fulfilled")).toHaveLength(1)
      const refused = pair.find((o) => o.status === "rejected") as PromiseRejectedResult
      expect(refused.reason).toMatchObject({ type: "OrganizationError", code: "LAST_OWNER" })
      expect(await owners(orgs[i]!.org.id)).toHaveLength(1)
    }
  })

  test(`race: ${ACCEPTANCES} parallel acceptances of one invitation give one membership`, async () => {
    const { owner, organization: org } = await organization()
    const email = `shared-${crypto.randomUUID()}@example.com`
    const sent = await invite(org.id, owner.id, email)
    const claimants = await Promise.all(Array.from({ length: ACCEPTANCES }, () => user()))
    const answers = await Promise.all(claimants.map((c) => adapter.acceptOrganizationInvitation({ tokenHash: sent.tokenHash, userId: c.id, email, now: new Date() })))
    expect(answers.filter((a) => a !== null)).toHaveLength(1)
    expect(await adapter.listOrganizationMembers(org.id)).toHaveLength(2)
    expect(await adapter.getOrganizationInvitation(sent.id)).toMatchObject({ status: "accepted" })
    // The same user racing themself also gets it once.
    const guest = await user()
    const again = await invite(org.id, owner.id, guest.email!)
    const own = await Promise.all(Array.from({ length: ACCEPTANCES }, () => adapter.acceptOrganizationInvitation({ tokenHash: again.tokenHash, userId: guest.id, email: guest.email!, now: new Date() })))
    expect(own.filter((a) => a !== null)).toHaveLength(1)
    expect(await adapter.listOrganizationMembers(org.id)).toHaveLength(3)
  })

  test(`race: ${concurrency} parallel invitations never pass membershipLimit`, async () => {
    const { owner, organization: org } = await organization()
    await join(org.id, owner.id)
    const limit = 2 + concurrency / 2
    const answers = await Promise.all(
      Array.from({ length: concurrency }, (_, i) =>
        adapter.createOrganizationInvitation(invitation(org.id, owner.id, `seat-${i}@example.com`), { now: new Date(), membershipLimit: limit }),
      ),
    )
    expect(answers.filter((a) => a === "limit-reached")).toHaveLength(concurrency / 2)
    expect(await pendingFor(org.id)).toHaveLength(concurrency / 2)
  })

  test(`race: ${concurrency} parallel invitations of one address leave one pending invitation`, async () => {
    const { owner, organization: org } = await organization()
    const answers = await Promise.all(
      Array.from({ length: concurrency }, (_, i) => adapter.createOrganizationInvitation(invitation(org.id, owner.id, i % 2 ? "twin@example.com" : "TWIN@example.com"), { now: new Date() })),
    )
    const pending = await pendingFor(org.id)
    expect(pending).toHaveLength(1)
    expect(answers.map((a) => (a as AdapterOrganizationInvitation).id)).toContain(pending[0]!.id)
  })
}
