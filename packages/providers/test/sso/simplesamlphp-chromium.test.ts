/**
 * The whole SAML journey in Debian's Chromium against a real IdP, Debian's SimpleSAMLphp 1.19 (the
 * saml package's harness): the app (core's `toNodeHandler`, `SSO()`, a `MemoryAdapter`) at
 * `localhost`, the IdP at `127.0.0.1`, so the IdP's form POST to the ACS is cross-site and only a
 * `SameSite=None; Secure` binding cookie reaches it. The user types a work address on the built-in
 * sign-in page, logs in at the IdP, and comes back signed in, a member of the organization, with it
 * active. A second run of the same journey by the same user keeps one user and one membership.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createOrganization, createSsoConnection, updateSsoConnection } from "@authlib/core"
import type { MemoryStore } from "@authlib/adapter-test"
import { generateServiceProviderKeys } from "@authlib/saml"
import { startSimpleSamlPhp, type SimpleSamlPhp } from "@authlib/e2e-kit/saml/simplesamlphp"
import { startChromiumApp, type ChromiumApp } from "./chromium-app.js"
import { verifiedDomain, type SsoApp } from "./harness.js"

const USERS = { "alice:correct horse": { email: ["alice@acme.test"], displayName: ["Alice Liddell"] } }

let chromiumApp: ChromiumApp
let origin: string
let store: MemoryStore
let app: SsoApp
let ssp: SimpleSamlPhp
let organizationId: string

beforeAll(async () => {
  chromiumApp = await startChromiumApp()
  ;({ origin, store, app } = chromiumApp)

  // The connection first (SimpleSAMLphp reads its SP metadata at start), then the IdP's metadata into it.
  organizationId = (await createOrganization(app.adminRequest(), app.config, { name: "Acme", slug: "acme" })).id
  const idpKeys = await generateServiceProviderKeys({ commonName: "idp.test", modulusLength: 2048 })
  const connection = await createSsoConnection(app.adminRequest(), app.config, organizationId, { type: "saml", entryPoint: "https://idp.invalid/sso", idpCertificate: idpKeys.certificatePem, idpEntityId: "https://idp.invalid" })
  const spMetadataXml = await (await fetch(connection.metadataUrl!)).text()
  ssp = await startSimpleSamlPhp({ spMetadataXml, idpKeys, users: USERS })
  await updateSsoConnection(app.adminRequest(), app.config, connection.id, { idpMetadataXml: await (await fetch(ssp.metadataUrl)).text() })
  await verifiedDomain(app, connection.id, "acme.test")
}, 120_000)

afterAll(async () => {
  await chromiumApp?.stop()
  await ssp?.stop()
})

/** Signs in from the built-in sign-in page through SimpleSAMLphp's login form; the page it ends on. */
async function journey(): Promise<string> {
  const page = await chromiumApp.context.newPage()
  await page.goto(`${origin}/auth/signin?callbackUrl=${encodeURIComponent(`${origin}/dashboard`)}`)
  await page.getByLabel("Work email").fill("alice@acme.test")
  await page.getByRole("button", { name: "Sign in with SSO" }).click()
  await page.waitForURL((url) => url.host === new URL(ssp.baseUrl).host)
  // SimpleSAMLphp keeps its own session: a second journey may skip the form.
  if (await page.locator("input[name=username]").count()) {
    await page.fill("input[name=username]", "alice")
    await page.fill("input[name=password]", "correct horse")
    await page.locator("button[type=submit], input[type=submit]").first().click()
  }
  await page.waitForURL(`${origin}/dashboard`)
  const session = await page.evaluate(async () => (await fetch("/auth/session")).json())
  await page.close()
  return JSON.stringify(session)
}

describe("the SAML journey in Chromium against SimpleSAMLphp", () => {
  it("signs alice in through her IdP: a verified user, a member of acme with acme active", async () => {
    const session = JSON.parse(await journey()) as { user: { email: string; name: string }; activeOrganization: { id: string; role: string } }
    expect(session.user).toMatchObject({ email: "alice@acme.test", name: "Alice Liddell" })
    expect(session.activeOrganization).toMatchObject({ id: organizationId, role: "member" })
    const alice = [...store.users.values()].find((u) => u.email === "alice@acme.test")!
    expect(alice.emailVerified).toBeInstanceOf(Date)
    expect(store.organizationMembers.get(store.memberKey(organizationId, alice.id))?.role).toBe("member")
    expect(ssp.logs()).not.toMatch(/error/i)
  }, 60_000)

  it("a second journey signs the same user in again: one user, one account, one membership", async () => {
    const session = JSON.parse(await journey()) as { user: { email: string } }
    expect(session.user.email).toBe("alice@acme.test")
    expect([...store.users.values()].filter((u) => u.email === "alice@acme.test")).toHaveLength(1)
    expect([...store.accounts.values()].filter((a) => a.provider === "sso")).toHaveLength(1)
    expect([...store.organizationMembers.values()].filter((m) => m.organizationId === organizationId)).toHaveLength(2) // the admin (owner) and alice
  }, 60_000)
})
