/**
 * Invitations through the public API, in both session strategies: the link (built from the
 * configured `url`, never the request's `Host`; a 256-bit token stored only as its SHA-256),
 * acceptance by the signed-in user whose verified address is the invited one (case-insensitive,
 * `+tag` exact), once, before it expires, unless revoked; re-inviting replaces; members and the
 * membership limit; concurrent acceptances; `sendInvitation` failing.
 */
import { createHash } from "node:crypto"
import { afterEach, describe, expect, it, vi } from "vitest"
import { acceptInvitation, createOrganization, inviteMember, listInvitations, listMembers, MemoryRateLimitStore, revokeInvitation } from "../../../src/index.js"
import { appRequest, join, kit, lastToken, rejection, STRATEGIES } from "./helpers.js"

afterEach(() => void vi.useRealTimers())

const sha256 = (token: string) => createHash("sha256").update(token).digest("base64url")

describe.each(STRATEGIES)("invitations (%s sessions)", (strategy) => {
  async function acme(organizations: Parameters<typeof kit>[1] = {}) {
    const k = kit(strategy, organizations)
    const alice = await k.signIn("alice")
    const org = await createOrganization(appRequest(alice), k.config, { name: "Acme", slug: "acme" })
    return { k, alice, org }
  }

  it("hands sendInvitation a link on the configured url with a token stored only hashed", async () => {
    const { k, alice, org } = await acme()
    // The app's request comes in on another host: the link does not follow it.
    const headers = new Headers(appRequest(alice).headers)
    headers.set("host", "evil.example")
    headers.set("x-forwarded-host", "evil.example")
    const request = new Request("http://evil.example/app", { headers })
    const invitation = await inviteMember(request, k.config, org.id, { email: " Bob@Example.com ", role: "member" })
    expect(invitation).toEqual({ id: expect.any(String), organizationId: org.id, email: "Bob@Example.com", role: "member", expires: expect.any(Date) })
    expect(invitation.expires.getTime() - Date.now()).toBeGreaterThan(7 * 86400_000 - 5000)
    expect(k.sent).toHaveLength(1)
    const message = k.sent[0]!
    expect(message).toMatchObject({ email: "Bob@Example.com", role: "member", organization: { id: org.id, name: "Acme", slug: "acme" }, inviter: { id: "alice", name: "Alice", email: "alice@example.com" } })
    const url = new URL(message.url)
    expect(`${url.origin}${url.pathname}`).toBe("http://localhost:3000/auth/organizations/accept")
    const token = url.searchParams.get("token")!
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/)
    const stored = k.adapter.invitations[0]!
    expect(stored.tokenHash).toBe(sha256(token))
    expect(JSON.stringify(k.adapter.invitations)).not.toContain(token)
  })

  it("is accepted by the invited user with a verified address, compared case-insensitively, once", async () => {
    const { k, alice, org } = await acme()
    await inviteMember(appRequest(alice), k.config, org.id, { email: "BOB@example.COM", role: "admin" })
    const token = lastToken(k.sent)
    const bob = await k.signIn("bob")
    expect(await acceptInvitation(appRequest(bob), k.config, token)).toEqual({ organizationId: org.id, role: "admin" })
    expect((await listMembers(appRequest(alice), k.config, org.id)).map((m) => [m.userId, m.role])).toEqual([["alice", "owner"], ["bob", "admin"]])
    // Replayed: used.
    expect(await rejection(acceptInvitation(appRequest(bob), k.config, token))).toMatchObject({ code: "INVITATION_INVALID" })
    expect((await listInvitations(appRequest(alice), k.config, org.id))[0]).toMatchObject({ status: "accepted" })
  })

  it("refuses another signed-in user, an unverified address and a +tag that differs (INVITATION_EMAIL_MISMATCH)", async () => {
    const { k, alice, org } = await acme()
    k.addUser("frank", { verified: false })
    k.addUser("tagged", { email: "bob+work@example.com" })
    await inviteMember(appRequest(alice), k.config, org.id, { email: "bob@example.com", role: "member" })
    const token = lastToken(k.sent)
    for (const name of ["carol", "tagged"]) expect(await rejection(acceptInvitation(appRequest(await k.signIn(name)), k.config, token)), name).toMatchObject({ code: "INVITATION_EMAIL_MISMATCH" })
    await inviteMember(appRequest(alice), k.config, org.id, { email: "frank@example.com", role: "member" })
    expect(await rejection(acceptInvitation(appRequest(await k.signIn("frank")), k.config, lastToken(k.sent)))).toMatchObject({ code: "INVITATION_EMAIL_MISMATCH" })
    await inviteMember(appRequest(alice), k.config, org.id, { email: "bob+work@example.com", role: "member" })
    expect(await rejection(acceptInvitation(appRequest(await k.signIn("bob")), k.config, lastToken(k.sent)))).toMatchObject({ code: "INVITATION_EMAIL_MISMATCH" })
    expect(k.adapter.members.map((m) => m.userId)).toEqual(["alice"])
    // The right user still can.
    expect(await acceptInvitation(appRequest(await k.signIn("bob")), k.config, token)).toMatchObject({ organizationId: org.id })
  })

  it("refuses tampered, unknown, malformed, expired and revoked tokens (INVITATION_INVALID)", async () => {
    vi.useFakeTimers({ toFake: ["Date"] })
    const { k, alice, org } = await acme({ invitationMaxAge: 3600 })
    const bob = await k.signIn("bob")
    await inviteMember(appRequest(alice), k.config, org.id, { email: "bob@example.com", role: "member" })
    const token = lastToken(k.sent)
    const tampered = (token[0] === "A" ? "B" : "A") + token.slice(1)
    for (const bad of [tampered, "x".repeat(43), "", "short", token + "x", token.slice(0, 42) + "=", null, 42, { token }])
      expect(await rejection(acceptInvitation(appRequest(bob), k.config, bad as never)), String(bad)).toMatchObject({ code: "INVITATION_INVALID" })
    vi.setSystemTime(Date.now() + 3601_000)
    const late = await k.signIn("bob")
    expect(await rejection(acceptInvitation(appRequest(late), k.config, token))).toMatchObject({ code: "INVITATION_INVALID" })
    const fresh = await k.signIn("alice")
    expect((await listInvitations(appRequest(fresh), k.config, org.id))[0]).toMatchObject({ status: "expired" })
    const invitation = await inviteMember(appRequest(fresh), k.config, org.id, { email: "bob@example.com", role: "member" })
    await revokeInvitation(appRequest(fresh), k.config, invitation.id)
    expect(await rejection(acceptInvitation(appRequest(late), k.config, lastToken(k.sent)))).toMatchObject({ code: "INVITATION_INVALID" })
    expect(await rejection(revokeInvitation(appRequest(fresh), k.config, invitation.id))).toMatchObject({ code: "INVITATION_INVALID" })
    // The expired invitation was pending for that address: the new one replaced it.
    expect((await listInvitations(appRequest(fresh), k.config, org.id)).map((i) => i.status)).toEqual(["revoked"])
    expect(k.adapter.members.map((m) => m.userId)).toEqual(["alice"])
  })

  it("lets only members with invitation:revoke in its organization revoke an invitation; others learn nothing", async () => {
    const { k, alice, org } = await acme()
    const invitation = await inviteMember(appRequest(alice), k.config, org.id, { email: "dave@example.com", role: "member" })
    const carol = await join(k, alice, org.id, "carol", "member")
    expect(await rejection(revokeInvitation(appRequest(carol), k.config, invitation.id))).toMatchObject({ code: "FORBIDDEN" })
    const erin = await k.signIn("erin")
    await createOrganization(appRequest(erin), k.config, { name: "Erin's" })
    const foreign = await rejection(revokeInvitation(appRequest(erin), k.config, invitation.id))
    const unknown = await rejection(revokeInvitation(appRequest(erin), k.config, crypto.randomUUID()))
    expect(foreign).toMatchObject({ code: "INVITATION_INVALID" })
    expect(foreign.message).toBe(unknown.message)
    expect(k.adapter.invitations.find((i) => i.id === invitation.id)?.status).toBe("pending")
  })

  it("replaces a pending invitation for the same address and refuses inviting a member", async () => {
    const { k, alice, org } = await acme()
    await inviteMember(appRequest(alice), k.config, org.id, { email: "bob@example.com", role: "member" })
    const first = lastToken(k.sent)
    await inviteMember(appRequest(alice), k.config, org.id, { email: "BOB@example.com", role: "admin" })
    expect(k.adapter.invitations.filter((i) => i.status === "pending")).toHaveLength(1)
    const bob = await k.signIn("bob")
    expect(await rejection(acceptInvitation(appRequest(bob), k.config, first))).toMatchObject({ code: "INVITATION_INVALID" })
    expect(await acceptInvitation(appRequest(bob), k.config, lastToken(k.sent))).toMatchObject({ role: "admin" })
    expect(await rejection(inviteMember(appRequest(alice), k.config, org.id, { email: "Bob@Example.com", role: "member" }))).toMatchObject({ code: "ALREADY_A_MEMBER" })
    expect(await rejection(inviteMember(appRequest(alice), k.config, org.id, { email: "alice@example.com", role: "member" }))).toMatchObject({ code: "ALREADY_A_MEMBER" })
  })

  it("counts pending invitations against membershipLimit", async () => {
    const { k, alice, org } = await acme({ membershipLimit: 3 })
    await inviteMember(appRequest(alice), k.config, org.id, { email: "bob@example.com", role: "member" })
    await inviteMember(appRequest(alice), k.config, org.id, { email: "carol@example.com", role: "member" })
    expect(await rejection(inviteMember(appRequest(alice), k.config, org.id, { email: "dave@example.com", role: "member" }))).toMatchObject({ code: "MEMBERSHIP_LIMIT" })
    // Re-inviting an address replaces its invitation: still within the limit.
    await inviteMember(appRequest(alice), k.config, org.id, { email: "carol@example.com", role: "admin" })
    const pending = await listInvitations(appRequest(alice), k.config, org.id)
    await revokeInvitation(appRequest(alice), k.config, pending.find((i) => i.email === "carol@example.com")!.id)
    await inviteMember(appRequest(alice), k.config, org.id, { email: "dave@example.com", role: "member" })
    expect(k.sent).toHaveLength(4)
  })

  it("gives one membership of 20 parallel acceptances of one invitation", async () => {
    const { k, alice, org } = await acme()
    await inviteMember(appRequest(alice), k.config, org.id, { email: "bob@example.com", role: "member" })
    const token = lastToken(k.sent)
    const bob = await k.signIn("bob")
    const outcomes = await Promise.allSettled(Array.from({ length: 20 }, () => acceptInvitation(appRequest(bob), k.config, token)))
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1)
    expect(k.adapter.members.filter((m) => m.userId === "bob")).toHaveLength(1)
  })

  it("revokes the invitation when sendInvitation throws, and answers CallbackError", async () => {
    const { k, alice, org } = await acme({ sendInvitation: () => Promise.reject(new Error("smtp down")) })
    expect(await rejection(inviteMember(appRequest(alice), k.config, org.id, { email: "bob@example.com", role: "member" }))).toMatchObject({ type: "CallbackError" })
    expect(k.adapter.invitations.map((i) => i.status)).toEqual(["revoked"])
  })

  it("counts invitations per user (organizations.invite) and creations (organizations.create)", async () => {
    const k = kit(strategy, {}, { rateLimit: { store: new MemoryRateLimitStore(), organizations: { invite: { limit: 2, window: 600 }, create: { limit: 1, window: 3600 } } } })
    const alice = await k.signIn("alice")
    const org = await createOrganization(appRequest(alice), k.config, { name: "Acme" })
    expect(await rejection(createOrganization(appRequest(alice), k.config, { name: "Second" }))).toMatchObject({ type: "RateLimited" })
    // Another user has their own allowance.
    await createOrganization(appRequest(await k.signIn("bob")), k.config, { name: "Bob's" })
    await inviteMember(appRequest(alice), k.config, org.id, { email: "c1@example.com", role: "member" })
    await inviteMember(appRequest(alice), k.config, org.id, { email: "c2@example.com", role: "member" })
    expect(await rejection(inviteMember(appRequest(alice), k.config, org.id, { email: "c3@example.com", role: "member" }))).toMatchObject({ type: "RateLimited" })
    expect(k.sent).toHaveLength(2)
  })
})
