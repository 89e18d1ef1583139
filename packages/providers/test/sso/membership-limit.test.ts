/**
 * `organizations.membershipLimit` for people who join through SSO, through the public API on core's
 * `Auth` with a `MemoryAdapter` and the saml package's test IdP. Counted as `inviteMember` counts:
 * members plus pending invitations. A just-in-time join past the limit is `MEMBERSHIP_LIMIT` with
 * nothing stored (no user, no account, no membership, no session); a returning member is not
 * counted again; a pending invitation to the joiner's own address was their seat. Two joins racing
 * for the last seat give one membership.
 */
import { beforeAll, describe, expect, it } from "vitest"
import { inviteMember, listMembers, type SsoConnection } from "@authlib/core"
import { MemoryAdapter, createMemoryStore, type MemoryStore } from "@authlib/adapter-test"
import { assertionXml, b64, responseXml, sign } from "@authlib/e2e-kit/saml/idp"
import { makeParties, type Parties } from "@authlib/e2e-kit/saml/keys"
import { Client, ORIGIN } from "../helpers.js"
import { IDP, acmeIdp, answerFor, postToAcs, refusalCode, samlOrganization, startApp, startSignIn, type SsoApp } from "./harness.js"

let parties: Parties
let store: MemoryStore
let app: SsoApp
let acme: { organizationId: string; connection: SsoConnection }
let globex: { organizationId: string; connection: SsoConnection }

beforeAll(async () => {
  parties = await makeParties()
  store = createMemoryStore()
  app = await startApp(MemoryAdapter(store), { organizations: { sendInvitation: () => {}, membershipLimit: 3 } })
  const idp = acmeIdp(parties.idp.certificatePem)
  acme = await samlOrganization(app, "acme", idp, ["acme.test"])
  globex = await samlOrganization(app, "globex", { ...idp, entityId: `${IDP}/globex` }, ["globex.test"])
}, 60_000)

const stored = () => JSON.stringify([[...store.users], [...store.accounts], [...store.organizationMembers], [...store.sessions]])
const members = async (organizationId: string) => (await listMembers(app.adminRequest(), app.config, organizationId)).map((m) => m.email).sort()

/** A fresh browser's SAML sign-in as `email` through `connection`: the ACS answer. */
async function signIn(email: string, connection: SsoConnection): Promise<Response> {
  const client = new Client(app.config)
  const { requestId } = await startSignIn(client, { email, callbackUrl: `${ORIGIN}/dashboard` })
  const f = answerFor(connection, requestId, { nameId: email, attributes: { mail: [email] } })
  return postToAcs(client, connection.id, b64(responseXml(f, sign(assertionXml(f), "Assertion", parties.idp))))
}

describe("membershipLimit for members who join through SSO", () => {
  it("counts members and pending invitations: the join past the limit is MEMBERSHIP_LIMIT, nothing stored; a returning member still signs in", async () => {
    // The admin (owner) and a pending invitation to dave: 2 of 3.
    await inviteMember(app.adminRequest(), app.config, acme.organizationId, { email: "dave@acme.test", role: "member" })
    expect((await signIn("alice@acme.test", acme.connection)).headers.get("location")).toBe(`${ORIGIN}/dashboard`)
    expect(await members(acme.organizationId)).toEqual(["admin@acme.test", "alice@acme.test"])

    const before = stored()
    const refused = await signIn("bob@acme.test", acme.connection)
    expect(refusalCode(refused)).toBe("MEMBERSHIP_LIMIT")
    expect(refused.headers.getSetCookie().some((c) => c.startsWith("authlib.session-token=") && !c.startsWith("authlib.session-token=;"))).toBe(false)
    expect(stored()).toBe(before)
    expect([...store.users.values()].some((u) => u.email === "bob@acme.test")).toBe(false)

    // Alice is a member: she is not counted again.
    expect((await signIn("alice@acme.test", acme.connection)).headers.get("location")).toBe(`${ORIGIN}/dashboard`)
    // Dave's invitation held his seat: he joins through SSO.
    expect((await signIn("dave@acme.test", acme.connection)).headers.get("location")).toBe(`${ORIGIN}/dashboard`)
    expect(await members(acme.organizationId)).toEqual(["admin@acme.test", "alice@acme.test", "dave@acme.test"])
  })

  it("race: two joins at limit - 1 at once: exactly one becomes a member", async () => {
    // Globex: the admin and one member, one seat left.
    expect((await signIn("erin@globex.test", globex.connection)).status).toBe(302)
    expect(await members(globex.organizationId)).toHaveLength(2)
    await Promise.all([signIn("frank@globex.test", globex.connection), signIn("grace@globex.test", globex.connection)])
    const joined = await members(globex.organizationId)
    expect(joined).toHaveLength(3)
    expect(joined.filter((e) => e === "frank@globex.test" || e === "grace@globex.test")).toHaveLength(1)
  })
})
