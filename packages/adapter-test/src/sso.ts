import { expect } from "vitest"
import type { AdapterSsoConnection, AdapterUser } from "@authlib/core"
import { randomToken } from "./context.js"
import type { SuiteContext } from "./types.js"

/** How many connections race to verify one domain. */
const RIVALS = 8

/**
 * The `ssoConnections` port (optional, registered when the adapter implements all of it): every
 * method's contract (connections stored as given, sealed secrets untouched, patches, cascades with
 * the connection and the organization, a domain added twice answered once, unknown ids) and its race
 * rule: of several connections verifying one domain at once exactly one succeeds, and the domain
 * then names that connection only. `addOrganizationMember` keeps an existing member's role and,
 * with a limit, counts members and pending invitations in one conditional write (one of racing
 * joins gets the last seat); `claimVerificationToken` stores a token once (one of racing claims wins).
 */
export function ssoSuite(ctx: SuiteContext): void {
  const { adapter, make, test } = ctx

  const user = (overrides: Partial<AdapterUser> = {}) => adapter.createUser(make.user(overrides as never))
  async function organization() {
    const owner = await user()
    const created = await adapter.createOrganization({ id: crypto.randomUUID(), name: "Acme", slug: `sso-${crypto.randomUUID().slice(0, 8)}`, ownerId: owner.id })
    if (created === "slug-taken") throw new Error("a fresh slug was taken")
    return { owner, organization: created }
  }
  const samlConnection = (organizationId: string, overrides: Partial<AdapterSsoConnection> = {}): Omit<AdapterSsoConnection, "createdAt"> => ({
    id: `sso_${randomToken().slice(0, 20)}`,
    organizationId,
    type: "saml",
    defaultRole: "member",
    idpEntityId: "https://idp.example/metadata",
    idpSsoUrl: "https://idp.example/sso",
    idpCertificates: ["-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----", "second"],
    spCertificate: "-----BEGIN CERTIFICATE-----\nSP\n-----END CERTIFICATE-----",
    spPrivateKeySealed: `sealed.${randomToken()}`,
    issuer: null,
    clientId: null,
    clientSecretSealed: null,
    requireIdpMfa: false,
    allowIdpInitiated: false,
    ...overrides,
  })
  const domain = (connection: AdapterSsoConnection, name: string) =>
    adapter.addSsoDomain({ id: `ssod_${randomToken().slice(0, 16)}`, connectionId: connection.id, organizationId: connection.organizationId, domain: name, verificationToken: randomToken() })
  const uniqueDomain = () => `d${crypto.randomUUID().slice(0, 8)}.example`

  test("createSsoConnection stores the connection as given (sealed secrets untouched); get and list read it back", async () => {
    const { organization: org } = await organization()
    const input = samlConnection(org.id)
    const created = await adapter.createSsoConnection(input)
    expect(created).toStrictEqual({ ...input, createdAt: expect.any(Date) })
    expect(await adapter.getSsoConnection(input.id)).toStrictEqual(created)
    const oidc = await adapter.createSsoConnection(samlConnection(org.id, { type: "oidc", idpEntityId: null, idpSsoUrl: null, idpCertificates: [], spCertificate: null, spPrivateKeySealed: null, issuer: "https://login.example", clientId: "client", clientSecretSealed: "sealed-secret" }))
    expect((await adapter.listSsoConnections(org.id)).map((c) => c.id)).toEqual([created.id, oidc.id])
    expect(await adapter.getSsoConnection("sso_unknown")).toBeNull()
    expect(await adapter.listSsoConnections("unknown-organization")).toEqual([])
  })

  test("updateSsoConnection changes what the patch names and keeps the rest; null for an unknown connection", async () => {
    const { organization: org } = await organization()
    const created = await adapter.createSsoConnection(samlConnection(org.id))
    const updated = await adapter.updateSsoConnection(created.id, { defaultRole: "admin", idpCertificates: ["rotated-1", "rotated-2"] })
    expect(updated).toStrictEqual({ ...created, defaultRole: "admin", idpCertificates: ["rotated-1", "rotated-2"] })
    expect(await adapter.getSsoConnection(created.id)).toStrictEqual(updated)
    expect(await adapter.updateSsoConnection("sso_unknown", { defaultRole: "admin" })).toBeNull()
  })

  test("addSsoDomain stores an unverified domain; adding it again answers the stored record", async () => {
    const { organization: org } = await organization()
    const connection = await adapter.createSsoConnection(samlConnection(org.id))
    const name = uniqueDomain()
    const added = await domain(connection, name)
    expect(added).toMatchObject({ connectionId: connection.id, organizationId: org.id, domain: name, verifiedAt: null })
    expect(await domain(connection, name)).toStrictEqual(added)
    expect(await adapter.listSsoDomains(connection.id)).toStrictEqual([added])
    expect(await adapter.getVerifiedSsoDomain(name)).toBeNull()
  })

  test("verifySsoDomain marks the domain verified; getVerifiedSsoDomain finds it; null for a domain the connection lacks", async () => {
    const { organization: org } = await organization()
    const connection = await adapter.createSsoConnection(samlConnection(org.id))
    const name = uniqueDomain()
    await domain(connection, name)
    const now = new Date()
    const verified = await adapter.verifySsoDomain(connection.id, name, now)
    expect(verified).toMatchObject({ connectionId: connection.id, domain: name, verifiedAt: expect.any(Date) })
    expect(await adapter.verifySsoDomain(connection.id, name, new Date(now.getTime() + 60_000))).toStrictEqual(verified)
    expect(await adapter.getVerifiedSsoDomain(name)).toStrictEqual(verified)
    expect(await adapter.verifySsoDomain(connection.id, uniqueDomain(), now)).toBeNull()
  })

  test("a domain verified for one connection is verified-elsewhere for any other, of another organization or the same", async () => {
    const a = await organization()
    const b = await organization()
    const first = await adapter.createSsoConnection(samlConnection(a.organization.id))
    const sameOrganization = await adapter.createSsoConnection(samlConnection(a.organization.id))
    const other = await adapter.createSsoConnection(samlConnection(b.organization.id))
    const name = uniqueDomain()
    for (const c of [first, sameOrganization, other]) await domain(c, name)
    expect(await adapter.verifySsoDomain(first.id, name, new Date())).toMatchObject({ connectionId: first.id })
    expect(await adapter.verifySsoDomain(other.id, name, new Date())).toBe("verified-elsewhere")
    expect(await adapter.verifySsoDomain(sameOrganization.id, name, new Date())).toBe("verified-elsewhere")
    expect((await adapter.getVerifiedSsoDomain(name))?.connectionId).toBe(first.id)
  })

  test("race: of several connections verifying one domain at once, exactly one succeeds", async () => {
    const name = uniqueDomain()
    const connections = []
    for (let i = 0; i < RIVALS; i++) {
      const { organization: org } = await organization()
      const c = await adapter.createSsoConnection(samlConnection(org.id))
      await domain(c, name)
      connections.push(c)
    }
    const results = await Promise.all(connections.map((c) => adapter.verifySsoDomain(c.id, name, new Date())))
    const winners = results.filter((r) => r !== "verified-elsewhere" && r !== null)
    expect(winners).toHaveLength(1)
    expect(results.filter((r) => r === "verified-elsewhere")).toHaveLength(RIVALS - 1)
    expect((await adapter.getVerifiedSsoDomain(name))?.connectionId).toBe((winners[0] as { connectionId: string }).connectionId)
  })

  test("deleteSsoConnection removes it with its domains (a verified domain is free again); false when unknown", async () => {
    const { organization: org } = await organization()
    const connection = await adapter.createSsoConnection(samlConnection(org.id))
    const name = uniqueDomain()
    await domain(connection, name)
    await adapter.verifySsoDomain(connection.id, name, new Date())
    expect(await adapter.deleteSsoConnection(connection.id)).toBe(true)
    expect(await adapter.getSsoConnection(connection.id)).toBeNull()
    expect(await adapter.listSsoDomains(connection.id)).toEqual([])
    expect(await adapter.getVerifiedSsoDomain(name)).toBeNull()
    expect(await adapter.deleteSsoConnection(connection.id)).toBe(false)
  })

  test("deleteOrganization removes its connections and their domains", async () => {
    const { organization: org } = await organization()
    const connection = await adapter.createSsoConnection(samlConnection(org.id))
    const name = uniqueDomain()
    await domain(connection, name)
    await adapter.verifySsoDomain(connection.id, name, new Date())
    await adapter.deleteOrganization(org.id)
    expect(await adapter.getSsoConnection(connection.id)).toBeNull()
    expect(await adapter.getVerifiedSsoDomain(name)).toBeNull()
  })

  test("addOrganizationMember adds a member with the role, keeps an existing member's role, null for unknown ids", async () => {
    const { owner, organization: org } = await organization()
    const joiner = await user()
    expect(await adapter.addOrganizationMember(org.id, joiner.id, "member")).toMatchObject({ organizationId: org.id, userId: joiner.id, role: "member", joinedAt: expect.any(Date) })
    expect(await adapter.getOrganizationMember(org.id, joiner.id)).toMatchObject({ role: "member" })
    expect(await adapter.addOrganizationMember(org.id, owner.id, "member")).toMatchObject({ role: "owner" })
    expect(await adapter.getOrganizationMember(org.id, owner.id)).toMatchObject({ role: "owner" })
    expect(await adapter.addOrganizationMember("unknown-organization", joiner.id, "member")).toBeNull()
    expect(await adapter.addOrganizationMember(org.id, crypto.randomUUID(), "member")).toBeNull()
  })

  test("race: parallel addOrganizationMember calls for one user give one membership", async () => {
    const { organization: org } = await organization()
    const joiner = await user()
    const results = await Promise.all(Array.from({ length: 10 }, () => adapter.addOrganizationMember(org.id, joiner.id, "member")))
    expect(results.every((r) => r !== null && r !== "limit-reached" && r.userId === joiner.id)).toBe(true)
    expect((await adapter.listOrganizationMembers(org.id)).filter((m) => m.userId === joiner.id)).toHaveLength(1)
  })

  test("updateSsoConnection sets and clears requireIdpMfa and allowIdpInitiated; a patch without them keeps them", async () => {
    const { organization: org } = await organization()
    const created = await adapter.createSsoConnection(samlConnection(org.id, { requireIdpMfa: true }))
    expect(created).toMatchObject({ requireIdpMfa: true, allowIdpInitiated: false })
    expect(await adapter.updateSsoConnection(created.id, { allowIdpInitiated: true })).toMatchObject({ requireIdpMfa: true, allowIdpInitiated: true })
    expect(await adapter.updateSsoConnection(created.id, { defaultRole: "admin" })).toMatchObject({ requireIdpMfa: true, allowIdpInitiated: true })
    expect(await adapter.updateSsoConnection(created.id, { requireIdpMfa: false, allowIdpInitiated: false })).toMatchObject({ requireIdpMfa: false, allowIdpInitiated: false })
    expect(await adapter.getSsoConnection(created.id)).toMatchObject({ requireIdpMfa: false, allowIdpInitiated: false, defaultRole: "admin" })
  })

  /** An invitation of `org` to `email`, pending until `expires`. */
  async function invitation(organizationId: string, inviterId: string, email: string, expires: Date) {
    const stored = await adapter.createOrganizationInvitation(
      { id: crypto.randomUUID(), organizationId, email, role: "member", inviterId, tokenHash: randomToken(), expires },
      { now: new Date() },
    )
    if (typeof stored === "string") throw new Error(`invitation refused: ${stored}`)
    return stored
  }

  test("addOrganizationMember with membershipLimit: members plus pending, unexpired invitations (not the joiner's own) must leave a seat", async () => {
    const { owner, organization: org } = await organization()
    const now = new Date()
    const joiner = await user()
    // Owner + one pending invitation = 2 of 3: one seat left, an expired invitation not counted.
    await invitation(org.id, owner.id, `other-${randomToken().slice(0, 8)}@example.com`, new Date(now.getTime() + 3_600_000))
    await invitation(org.id, owner.id, `gone-${randomToken().slice(0, 8)}@example.com`, new Date(now.getTime() + 1_000))
    const later = new Date(now.getTime() + 60_000)
    expect(await adapter.addOrganizationMember(org.id, joiner.id, "member", { now: later, membershipLimit: 3 })).toMatchObject({ userId: joiner.id, role: "member" })
    const late = await user()
    expect(await adapter.addOrganizationMember(org.id, late.id, "member", { now: later, membershipLimit: 3 })).toBe("limit-reached")
    expect(await adapter.getOrganizationMember(org.id, late.id)).toBeNull()
    // A member already is answered whatever the count.
    expect(await adapter.addOrganizationMember(org.id, joiner.id, "admin", { now: later, membershipLimit: 1 })).toMatchObject({ userId: joiner.id, role: "member" })
    // A pending invitation to the joiner's own address was their seat: not counted against them.
    const invited = await user()
    await invitation(org.id, owner.id, invited.email!.toUpperCase(), new Date(now.getTime() + 3_600_000))
    expect(await adapter.addOrganizationMember(org.id, invited.id, "member", { now: later, membershipLimit: 4 })).toMatchObject({ userId: invited.id })
  })

  test("race: parallel joins of different users at limit - 1 add exactly one", async () => {
    const { organization: org } = await organization()
    const joiners = await Promise.all(Array.from({ length: 6 }, () => user()))
    const results = await Promise.all(joiners.map((j) => adapter.addOrganizationMember(org.id, j.id, "member", { now: new Date(), membershipLimit: 2 })))
    expect(results.filter((r) => r !== null && r !== "limit-reached")).toHaveLength(1)
    expect(results.filter((r) => r === "limit-reached")).toHaveLength(5)
    expect(await adapter.listOrganizationMembers(org.id)).toHaveLength(2)
  })

  test("claimVerificationToken stores a token once while it lives; an expired one is claimed again", async () => {
    const identifier = `authlib:sso-assertion:${randomToken().slice(0, 12)}`
    const token = randomToken()
    expect(await adapter.claimVerificationToken({ identifier, token, expires: new Date(Date.now() + 60_000) })).toBe(true)
    expect(await adapter.claimVerificationToken({ identifier, token, expires: new Date(Date.now() + 60_000) })).toBe(false)
    expect(await adapter.claimVerificationToken({ identifier, token: randomToken(), expires: new Date(Date.now() + 60_000) })).toBe(true)
    const stale = randomToken()
    expect(await adapter.claimVerificationToken({ identifier, token: stale, expires: new Date(Date.now() - 1_000) })).toBe(true)
    expect(await adapter.claimVerificationToken({ identifier, token: stale, expires: new Date(Date.now() + 60_000) })).toBe(true)
    expect(await adapter.claimVerificationToken({ identifier, token: stale, expires: new Date(Date.now() + 60_000) })).toBe(false)
  })

  test("race: parallel claims of one token: exactly one stores it", async () => {
    const identifier = `authlib:sso-assertion:${randomToken().slice(0, 12)}`
    const token = randomToken()
    const results = await Promise.all(Array.from({ length: 10 }, () => adapter.claimVerificationToken({ identifier, token, expires: new Date(Date.now() + 60_000) })))
    expect(results.filter(Boolean)).toHaveLength(1)
  })
}
