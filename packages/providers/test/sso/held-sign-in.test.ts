/**
 * A SAML sign-in held for a second factor writes nothing: a returning SSO user with TOTP, removed
 * from the organization, is not made a member again (nor sent the active-organization cookie, nor
 * reported as `memberAdded`) until the code passes; then they are, once. Through the public API on
 * core's `Auth` with a `MemoryAdapter` (its two-factor store), the saml package's test IdP.
 */
import { createHmac } from "node:crypto"
import { beforeAll, describe, expect, it } from "vitest"
import { removeMember, type SsoConnection } from "@authlib/core"
import { MemoryAdapter, createMemoryStore, type MemoryStore } from "@authlib/adapter-test"
import { assertionXml, b64, fields, responseXml, sign } from "@authlib/e2e-kit/saml/idp"
import { makeParties, type Parties } from "@authlib/e2e-kit/saml/keys"
import { Client, ORIGIN } from "../helpers.js"
import { IDP, acmeIdp, postToAcs, samlOrganization, startApp, startSignIn, type SsoApp } from "./harness.js"

const ACTIVE_COOKIE = "authlib.active-organization"

let parties: Parties
let store: MemoryStore
let app: SsoApp
let acme: { organizationId: string; connection: SsoConnection }
const memberAdded: Record<string, unknown>[] = []

beforeAll(async () => {
  parties = await makeParties()
  store = createMemoryStore()
  app = await startApp(MemoryAdapter(store), { twoFactor: { issuer: "Acme" }, events: { memberAdded: (message) => void memberAdded.push({ ...message }) } })
  acme = await samlOrganization(app, "acme", acmeIdp(parties.idp.certificatePem), ["acme.test"])
}, 60_000)

/** RFC 6238 (SHA-1, 6 digits, 30 s) of the base32 `secret`, `steps` time steps after the current one: what an authenticator app shows. */
function totpCode(secret: string, steps = 0): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
  let bits = ""
  for (const c of secret.replace(/=+$/, "").toUpperCase()) bits += alphabet.indexOf(c).toString(2).padStart(5, "0")
  const key = Buffer.from(bits.match(/.{8}/g)!.map((byte) => parseInt(byte, 2)))
  const counter = Buffer.alloc(8)
  counter.writeBigUInt64BE(BigInt(Math.floor(Date.now() / 30_000) + steps))
  const mac = createHmac("sha1", key).update(counter).digest()
  const offset = mac[mac.length - 1]! & 0x0f
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, "0")
}

/** A fresh browser's SAML sign-in as alice at acme: the ACS answer. */
async function samlSignIn(client: Client): Promise<Response> {
  const { requestId } = await startSignIn(client, { email: "alice@acme.test", callbackUrl: `${ORIGIN}/dashboard` })
  const now = Date.now()
  const connection = acme.connection
  const f = fields({
    destination: connection.acsUrl!,
    recipient: connection.acsUrl!,
    audience: connection.spEntityId!,
    responseIssuer: connection.idpEntityId!,
    assertionIssuer: connection.idpEntityId!,
    inResponseTo: requestId,
    notBefore: new Date(now - 30_000),
    notOnOrAfter: new Date(now + 300_000),
    confirmationNotOnOrAfter: new Date(now + 300_000),
  })
  return postToAcs(client, connection.id, b64(responseXml(f, sign(assertionXml(f), "Assertion", parties.idp))))
}

const membership = (userId: string) => store.organizationMembers.get(store.memberKey(acme.organizationId, userId))
const setCookieNames = (res: Response) => res.headers.getSetCookie().filter((c) => !/^[^=]+=;/.test(c)).map((c) => c.slice(0, c.indexOf("=")))

describe("SSO sign-in held for a second factor", () => {
  it("a returning user removed from the organization joins again only once the TOTP code passes", async () => {
    // Alice's first SSO sign-in makes her a member; she enrols TOTP.
    const first = new Client(app.config)
    expect((await samlSignIn(first)).headers.get("location")).toBe(`${ORIGIN}/dashboard`)
    const alice = [...store.users.values()].find((u) => u.email === "alice@acme.test")!
    expect(membership(alice.id)).toBeDefined()
    const enrolled = await first.post("/auth/two-factor", { action: "totp-enroll" })
    const { secret } = (await enrolled.json()) as { secret: string }
    expect((await first.post("/auth/two-factor", { action: "totp-confirm", code: totpCode(secret) })).status).toBe(200)

    // The admin removes her; she signs in with SSO again.
    await removeMember(app.adminRequest(), app.config, acme.organizationId, alice.id)
    expect(membership(alice.id)).toBeUndefined()
    memberAdded.length = 0

    const client = new Client(app.config)
    const held = await samlSignIn(client)
    expect(held.headers.get("location")).toBe(`${ORIGIN}/auth/two-factor`)
    expect(membership(alice.id)).toBeUndefined()
    expect(memberAdded).toEqual([])
    expect(setCookieNames(held)).not.toContain(ACTIVE_COOKIE)
    expect(client.jar.get(ACTIVE_COOKIE)).toBeUndefined()
    expect((await (await client.request("/auth/session")).json())?.user).toBeUndefined()

    // The code of the next step (the confirming one is used): the sign-in completes.
    const verified = await client.post("/auth/two-factor", { action: "verify", code: totpCode(secret, 1) })
    expect(verified.status).toBe(302)
    expect(verified.headers.get("location")).toBe(`${ORIGIN}/dashboard`)
    expect(membership(alice.id)?.role).toBe("member")
    expect(memberAdded).toEqual([{ organizationId: acme.organizationId, userId: alice.id, role: "member", via: "sso" }])
    expect(setCookieNames(verified)).toContain(ACTIVE_COOKIE)
    const session = await (await client.request("/auth/session")).json()
    expect(session.user.email).toBe("alice@acme.test")
    expect(session.activeOrganization).toMatchObject({ id: acme.organizationId, slug: "acme", role: "member" })
  })
})
