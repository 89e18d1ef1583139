/**
 * The whole OIDC journey in Debian's Chromium against a real OpenID provider (`oidc-provider`, the
 * kit's local OP): the app (core's `toNodeHandler`, `SSO()`, a `MemoryAdapter`) at `localhost`, the
 * OP at `127.0.0.1`. The user types a work address on the built-in sign-in page, logs in and
 * consents at the OP's own pages, and comes back signed in, a member of the organization, with it
 * active; the OIDC binding cookie reached the callback, and is gone after it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createOrganization, createSsoConnection, updateSsoConnection } from "@authlib/core"
import type { MemoryStore } from "@authlib/adapter-test"
import { clients, startLocalOP, type LocalOP } from "@authlib/e2e-kit/oidc/local-op"
import { startChromiumApp, type ChromiumApp } from "./chromium-app.js"
import { verifiedDomain, type SsoApp } from "./harness.js"

let chromiumApp: ChromiumApp
let origin: string
let store: MemoryStore
let app: SsoApp
let op: LocalOP
let organizationId: string

beforeAll(async () => {
  chromiumApp = await startChromiumApp()
  ;({ origin, store, app } = chromiumApp)
  organizationId = (await createOrganization(app.adminRequest(), app.config, { name: "Example", slug: "example" })).id
  // The connection's redirect URI is registered at the OP, which starts after it.
  const connection = await createSsoConnection(app.adminRequest(), app.config, organizationId, { type: "oidc", issuer: "http://127.0.0.1:9/", clientId: clients.basic.client_id, clientSecret: clients.basic.client_secret })
  op = await startLocalOP([connection.redirectUri!])
  await updateSsoConnection(app.adminRequest(), app.config, connection.id, { issuer: op.issuer })
  await verifiedDomain(app, connection.id, "example.com")
}, 120_000)

afterAll(async () => {
  await chromiumApp?.stop()
  await op?.close()
})

describe("the OIDC journey in Chromium against oidc-provider", () => {
  it("signs alice in through her IdP's login and consent pages: a verified user, a member of the organization, it active", async () => {
    const page = await chromiumApp.context.newPage()
    await page.goto(`${origin}/auth/signin?callbackUrl=${encodeURIComponent(`${origin}/dashboard`)}`)
    await page.getByLabel("Work email").fill("alice@example.com")
    await page.getByRole("button", { name: "Sign in with SSO" }).click()
    const opHost = new URL(op.issuer).host
    await page.waitForURL((url) => url.host === opHost)
    // oidc-provider's own interaction pages: the login form, then consent (a second sign-in may skip both).
    for (let step = 0; step < 3 && new URL(page.url()).host === opHost; step++) {
      if (await page.locator("input[name=login]").count()) {
        await page.fill("input[name=login]", "alice")
        await page.fill("input[name=password]", "any")
      }
      await Promise.all([page.waitForEvent("framenavigated"), page.locator("button[type=submit]").first().click()])
      await page.waitForLoadState()
    }
    await page.waitForURL(`${origin}/dashboard`)
    const session = (await page.evaluate(async () => (await fetch("/auth/session")).json())) as { user: { email: string; name: string }; activeOrganization: { id: string; role: string } }
    expect(session.user).toMatchObject({ email: "alice@example.com", name: "Alice Liddell" })
    expect(session.activeOrganization).toMatchObject({ id: organizationId, role: "member" })
    const alice = [...store.users.values()].find((u) => u.email === "alice@example.com")!
    expect(alice.emailVerified).toBeInstanceOf(Date)
    expect(store.organizationMembers.get(store.memberKey(organizationId, alice.id))?.role).toBe("member")
    // The binding cookie did its one job and is gone.
    expect((await chromiumApp.context.cookies(origin)).map((c) => c.name)).not.toContain("authlib.sso-binding")
    await page.close()
  }, 60_000)
})
