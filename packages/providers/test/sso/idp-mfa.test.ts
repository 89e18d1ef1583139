/**
 * A connection that requires its IdP's MFA claim (`requireIdpMfa`), through the public API on core's
 * `Auth` with a `MemoryAdapter` (its two-factor store) and the saml package's test IdP. An assertion
 * without a multi-factor `AuthnContextClassRef` is `MFA_REQUIRED`, nothing stored; one whose class
 * was changed after signing is refused (the claim counts only from the signed assertion). With the
 * claim, the session's `amr` holds `mfa` and authlib's own TOTP is not asked of a user who enrolled
 * it, even where one-step multi-factor does not count (`passkeyCountsAsTwoFactors: false`); without
 * the setting that app's two-factor rules apply as before (the enrolled user is asked for TOTP).
 */
import { createHmac } from "node:crypto"
import { beforeAll, describe, expect, it } from "vitest"
import { createSsoConnection, listSsoConnections, requireRecentAuthentication, updateSsoConnection, type SsoConnection } from "@authlib/core"
import { MemoryAdapter, createMemoryStore, type MemoryStore } from "@authlib/adapter-test"
import { assertionXml, b64, responseXml, sign, type ResponseFields } from "@authlib/e2e-kit/saml/idp"
import { makeParties, type Parties } from "@authlib/e2e-kit/saml/keys"
import { Client, ORIGIN } from "../helpers.js"
import { IDP, acmeIdp, answerFor, appRequest, postToAcs, refusalCode, samlOrganization, startApp, startSignIn, type SsoApp } from "./harness.js"

const REFEDS_MFA = "https://refeds.org/profile/mfa"
const PASSWORD = "urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport"

let parties: Parties
let store: MemoryStore
let app: SsoApp
let acme: { organizationId: string; connection: SsoConnection }

beforeAll(async () => {
  parties = await makeParties()
  store = createMemoryStore()
  app = await startApp(MemoryAdapter(store), { twoFactor: { issuer: "Acme", passkeyCountsAsTwoFactors: false } })
  acme = await samlOrganization(app, "acme", acmeIdp(parties.idp.certificatePem), ["acme.test"])
  acme.connection = await updateSsoConnection(app.adminRequest(), app.config, acme.connection.id, { requireIdpMfa: true })
}, 60_000)

/** RFC 6238 (SHA-1, 6 digits, 30 s) of the base32 `secret`: what an authenticator app shows. */
function totpCode(secret: string): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
  let bits = ""
  for (const c of secret.replace(/=+$/, "").toUpperCase()) bits += alphabet.indexOf(c).toString(2).padStart(5, "0")
  const key = Buffer.from(bits.match(/.{8}/g)!.map((byte) => parseInt(byte, 2)))
  const counter = Buffer.alloc(8)
  counter.writeBigUInt64BE(BigInt(Math.floor(Date.now() / 30_000)))
  const mac = createHmac("sha1", key).update(counter).digest()
  const offset = mac[mac.length - 1]! & 0x0f
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, "0")
}

const stored = () => JSON.stringify([[...store.users], [...store.accounts], [...store.organizationMembers], [...store.sessions]])

/** A fresh browser's SAML sign-in as `email` whose assertion says `classRef`; `tamper` edits the signed XML. */
async function signIn(email: string, classRef: string, tamper: (xml: string) => string = (xml) => xml): Promise<{ res: Response; client: Client }> {
  const client = new Client(app.config)
  const { requestId } = await startSignIn(client, { email, callbackUrl: `${ORIGIN}/dashboard` })
  const f: ResponseFields = answerFor(acme.connection, requestId, { nameId: email, attributes: { mail: [email] }, authnContextClassRef: classRef })
  const res = await postToAcs(client, acme.connection.id, b64(tamper(responseXml(f, sign(assertionXml(f), "Assertion", parties.idp)))))
  return { res, client }
}

describe("requireIdpMfa: an organization requires its IdP's MFA claim instead of authlib's second factor", () => {
  it("is a setting of the connection, shown by listSsoConnections; anything but a boolean is CONNECTION_INVALID", async () => {
    expect((await listSsoConnections(app.adminRequest(), app.config, acme.organizationId))[0]).toMatchObject({ requireIdpMfa: true, allowIdpInitiated: false })
    await expect(updateSsoConnection(app.adminRequest(), app.config, acme.connection.id, { requireIdpMfa: "yes" as never })).rejects.toMatchObject({ code: "CONNECTION_INVALID" })
    await expect(
      createSsoConnection(app.adminRequest(), app.config, acme.organizationId, { type: "oidc", issuer: "https://login.example", clientId: "c", clientSecret: "s", allowIdpInitiated: true }),
    ).rejects.toMatchObject({ code: "CONNECTION_INVALID" })
  })

  it("an assertion without a multi-factor class is MFA_REQUIRED, nothing stored", async () => {
    const before = stored()
    const { res } = await signIn("alice@acme.test", PASSWORD)
    expect(refusalCode(res)).toBe("MFA_REQUIRED")
    expect(stored()).toBe(before)
  })

  it("a multi-factor class written into the assertion after the IdP signed it does not count: SIGNATURE_INVALID, nothing stored", async () => {
    const before = stored()
    const { res } = await signIn("alice@acme.test", PASSWORD, (xml) => xml.replace(PASSWORD, REFEDS_MFA))
    expect(refusalCode(res)).toBe("SIGNATURE_INVALID")
    expect(stored()).toBe(before)
  })

  it("with the claim: signed in, amr records mfa, and a user with TOTP enrolled is not asked for it again", async () => {
    const first = await signIn("alice@acme.test", REFEDS_MFA)
    expect(first.res.headers.get("location")).toBe(`${ORIGIN}/dashboard`)
    expect((await requireRecentAuthentication(appRequest(first.client), app.config)).amr).toEqual(expect.arrayContaining(["fed", "mfa"]))
    // Alice enrols TOTP with authlib.
    const { secret } = (await (await first.client.post("/auth/two-factor", { action: "totp-enroll" })).json()) as { secret: string }
    expect((await first.client.post("/auth/two-factor", { action: "totp-confirm", code: totpCode(secret) })).status).toBe(200)
    const alice = [...store.users.values()].find((u) => u.email === "alice@acme.test")!
    expect((await app.adapter.getTwoFactor(alice.id))?.enabled).toBe(true)

    const again = await signIn("alice@acme.test", REFEDS_MFA)
    expect(again.res.headers.get("location")).toBe(`${ORIGIN}/dashboard`)
    const principal = await requireRecentAuthentication(appRequest(again.client), app.config)
    expect(principal.userId).toBe(alice.id)
    expect(principal.amr).toEqual(expect.arrayContaining(["fed", "mfa"]))
  })

  it("without the setting the app's rules apply: the same claim does not stand in for her TOTP here (one-step MFA does not count)", async () => {
    await updateSsoConnection(app.adminRequest(), app.config, acme.connection.id, { requireIdpMfa: false })
    try {
      const held = await signIn("alice@acme.test", REFEDS_MFA)
      expect(held.res.headers.get("location")).toBe(`${ORIGIN}/auth/two-factor`)
      // And an assertion without the claim signs a user without TOTP in, as before.
      expect((await signIn("bob@acme.test", PASSWORD)).res.headers.get("location")).toBe(`${ORIGIN}/dashboard`)
    } finally {
      await updateSsoConnection(app.adminRequest(), app.config, acme.connection.id, { requireIdpMfa: true })
    }
  })
})
