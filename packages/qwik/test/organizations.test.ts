/**
 * Organizations through the binding: the server functions wrapped by `forQwik`, and the active
 * organization in the binding's session. `setActiveOrganization` sets its cookie through Qwik's
 * cookie API, so a session read later in the same request, and every request after, carries
 * `activeOrganization`; once the organization is gone the next read says `null`.
 */
import { MemoryAdapter, createMemoryStore } from "@authlib/adapter-test"
import { describe, expect, it } from "vitest"
import * as qwik from "../src/index.js"
import { ada, ORIGIN, testConfig } from "./harness/config.js"
import { browserCookies, fakeEvent } from "./harness/fake-event.js"
import { handle, setup, signInThroughRoute } from "./harness/setup.js"

describe.each(["jwt", "database"] as const)("organizations through the binding (%s sessions)", (strategy) => {
  it("creates an organization, makes it active, and the binding's session carries it until it is gone", async () => {
    const adapter = MemoryAdapter(createMemoryStore())
    await adapter.createUser({ id: ada.id, name: ada.name, email: ada.email, emailVerified: new Date() })
    const { auth } = setup(testConfig({ url: ORIGIN, adapter, session: { strategy }, organizations: { sendInvitation: () => {} } }))
    const { cookie } = await signInThroughRoute(auth)
    const ev = fakeEvent(`${ORIGIN}/account/`, { cookie })
    await handle(auth, ev)
    const org = await qwik.createOrganization(ev, { name: "Acme" })
    expect(await qwik.listOrganizations(ev)).toEqual([{ ...org, role: "owner" }])
    expect((await qwik.getSession(ev)).data?.activeOrganization).toBeNull()
    expect(await qwik.setActiveOrganization(ev, org.id)).toEqual({ id: org.id, slug: org.slug, role: "owner" })
    // The same request sees it at once; the cookie went through Qwik's API.
    expect((await qwik.getSession(ev)).data?.activeOrganization).toEqual({ id: org.id, slug: org.slug, role: "owner" })
    expect(ev.recorded.cookies.map((c) => c.name)).toContain("authlib.active-organization")
    const next = fakeEvent(`${ORIGIN}/account/`, { cookie: browserCookies(cookie, ev) })
    await handle(auth, next)
    expect((await qwik.getSession(next)).data?.activeOrganization).toEqual({ id: org.id, slug: org.slug, role: "owner" })
    expect(await qwik.hasPermission(next, org.id, "invoice:approve")).toBe(true)
    // Gone from the store: the very next request's session says so.
    await adapter.deleteOrganization(org.id)
    const after = fakeEvent(`${ORIGIN}/account/`, { cookie: browserCookies(cookie, ev) })
    await handle(auth, after)
    expect((await qwik.getSession(after)).data?.activeOrganization).toBeNull()
    await expect(qwik.getOrganization(after, org.id)).rejects.toMatchObject({ type: "OrganizationError", code: "ORGANIZATION_UNKNOWN" })
  })
})
