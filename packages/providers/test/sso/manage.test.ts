/**
 * Managing connections and domains through the server functions: who may (owners and admins of the
 * organization, freshly signed in), what the answers hold (never a secret), what is stored (the SP
 * private key sealed), the TXT check, one connection per verified domain, and the SP metadata route.
 */
import { beforeAll, describe, expect, it, vi } from "vitest"
import {
  addSsoDomain, createOrganization, createSsoConnection, deleteSsoConnection, listSsoConnections, updateSsoConnection, verifySsoDomain,
  type AuthConfig,
} from "@authlib/core"
import { MemoryAdapter, createMemoryStore, type MemoryStore } from "@authlib/adapter-test"
import { makeParties, type Parties } from "@authlib/e2e-kit/saml/keys"
import { Client, ORIGIN } from "../helpers.js"
import { startApp, type SsoApp } from "./harness.js"

let parties: Parties
let store: MemoryStore
let app: SsoApp
let organizationId: string

beforeAll(async () => {
  parties = await makeParties()
  store = createMemoryStore()
  app = await startApp(MemoryAdapter(store))
  organizationId = (await createOrganization(app.adminRequest(), app.config, { name: "Acme", slug: "acme" })).id
}, 60_000)

const samlInput = () => ({ type: "saml" as const, entryPoint: "https://idp.acme.test/sso", idpCertificate: parties.idp.certificatePem, idpEntityId: "https://idp.acme.test" })

/** Someone else signed in with a password: a stored user `id` with `role` in acme (or none). */
async function otherUser(id: string, role: string | null): Promise<() => Request> {
  const { adapter } = app
  await adapter.createUser({ id, email: `${id}@acme.test`, emailVerified: new Date(), name: id })
  if (role) await adapter.addOrganizationMember(organizationId, id, role)
  const client = new Client(app.config)
  await client.post("/auth/callback/credentials", { user: id, password: "user-password" })
  return () => {
    const headers = new Headers()
    client.jar.apply(headers, new URL(ORIGIN))
    return new Request(`${ORIGIN}/app`, { headers })
  }
}

describe("SSO connections: management", () => {
  it("creates a SAML connection with its own SP certificate; the answer and the list hold no secret; the key is sealed at rest", async () => {
    const connection = await createSsoConnection(app.adminRequest(), app.config, organizationId, samlInput())
    expect(connection).toMatchObject({ organizationId, type: "saml", defaultRole: "member", idpEntityId: "https://idp.acme.test", acsUrl: `${ORIGIN}/auth/sso/acs/${connection.id}`, spEntityId: `${ORIGIN}/auth/sso/metadata/${connection.id}` })
    const listed = await listSsoConnections(app.adminRequest(), app.config, organizationId)
    expect(JSON.stringify([connection, listed])).not.toMatch(/PRIVATE KEY|spPrivateKey|Sealed/)
    const stored = store.ssoConnections.get(connection.id)!
    expect(stored.spPrivateKeySealed).toMatch(/^ey[\w-]+\.[\w-]*\.[\w-]+\.[\w-]+\.[\w-]+$/)
    expect(JSON.stringify(stored)).not.toMatch(/PRIVATE KEY/)
    const metadata = await fetchMetadata(connection.id)
    expect(metadata.status).toBe(200)
    expect(metadata.headers.get("content-type")).toMatch(/^application\/samlmetadata\+xml/)
    const xml = await metadata.text()
    expect(xml).toContain(`entityID="${connection.spEntityId}"`)
    expect(xml).toContain(`Location="${connection.acsUrl}"`)
    expect(xml).toContain(stored.spCertificate!.split("\n")[1]!.slice(0, 40))
  })

  it("an OIDC connection keeps its client secret sealed and never answers it", async () => {
    const connection = await createSsoConnection(app.adminRequest(), app.config, organizationId, { type: "oidc", issuer: "https://login.acme.test", clientId: "client-1", clientSecret: "s3cr3t-value" })
    expect(connection).toMatchObject({ type: "oidc", issuer: "https://login.acme.test/", clientId: "client-1", redirectUri: `${ORIGIN}/auth/sso/callback/${connection.id}` })
    expect(JSON.stringify(connection)).not.toContain("s3cr3t-value")
    expect(JSON.stringify(store.ssoConnections.get(connection.id))).not.toContain("s3cr3t-value")
    await deleteSsoConnection(app.adminRequest(), app.config, connection.id)
  })

  it("refuses bad input before storing anything", async () => {
    const before = store.ssoConnections.size
    await expect(createSsoConnection(app.adminRequest(), app.config, organizationId, { ...samlInput(), entryPoint: "http://idp.acme.test/sso" })).rejects.toMatchObject({ type: "SsoError", code: "CONNECTION_INVALID" })
    await expect(createSsoConnection(app.adminRequest(), app.config, organizationId, { type: "saml", idpMetadataXml: `<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "b">]><x/>` })).rejects.toMatchObject({ type: "SsoError", code: "METADATA_INVALID" })
    await expect(createSsoConnection(app.adminRequest(), app.config, organizationId, { ...samlInput(), defaultRole: "owner" })).rejects.toMatchObject({ type: "SsoError", code: "CONNECTION_INVALID" })
    await expect(createSsoConnection(app.adminRequest(), app.config, organizationId, { type: "ldap" } as never)).rejects.toMatchObject({ type: "SsoError", code: "CONNECTION_INVALID" })
    expect(store.ssoConnections.size).toBe(before)
  })

  it("only owners and admins manage connections; a non-member sees CONNECTION_UNKNOWN", async () => {
    const connection = await createSsoConnection(app.adminRequest(), app.config, organizationId, samlInput())
    const member = await otherUser("member-1", "member")
    const admin = await otherUser("admin-2", "admin")
    const outsider = await otherUser("outsider-1", null)
    await expect(createSsoConnection(member(), app.config, organizationId, samlInput())).rejects.toMatchObject({ type: "OrganizationError", code: "FORBIDDEN" })
    await expect(addSsoDomain(member(), app.config, connection.id, "acme.test")).rejects.toMatchObject({ type: "OrganizationError", code: "FORBIDDEN" })
    await expect(deleteSsoConnection(outsider(), app.config, connection.id)).rejects.toMatchObject({ type: "SsoError", code: "CONNECTION_UNKNOWN" })
    await expect(listSsoConnections(outsider(), app.config, organizationId)).rejects.toMatchObject({ type: "OrganizationError", code: "ORGANIZATION_UNKNOWN" })
    expect(await updateSsoConnection(admin(), app.config, connection.id, { defaultRole: "admin" })).toMatchObject({ defaultRole: "admin" })
    await expect(listSsoConnections(new Request(`${ORIGIN}/app`), app.config, organizationId)).rejects.toMatchObject({ type: "SessionRequired" })
  })

  it("changes need a fresh authentication (organizations.freshAge)", async () => {
    const connection = await createSsoConnection(app.adminRequest(), app.config, organizationId, samlInput())
    vi.useFakeTimers({ now: Date.now() + 11 * 60_000, toFake: ["Date"] })
    try {
      await expect(deleteSsoConnection(app.adminRequest(), app.config, connection.id)).rejects.toMatchObject({ type: "ReauthenticationRequired" })
      expect(store.ssoConnections.has(connection.id)).toBe(true)
    } finally {
      vi.useRealTimers()
    }
  })

  it("a domain is verified only when its TXT record holds the value; for one connection at a time", async () => {
    const acmeConnection = await createSsoConnection(app.adminRequest(), app.config, organizationId, samlInput())
    const added = await addSsoDomain(app.adminRequest(), app.config, acmeConnection.id, " Example-Corp.TEST. ")
    expect(added).toMatchObject({ domain: "example-corp.test", verified: false, record: { type: "TXT", name: "_authlib-sso.example-corp.test", value: expect.stringMatching(/^authlib-sso-verification=[\w-]{20,}$/) } })
    expect(await verifySsoDomain(app.adminRequest(), app.config, acmeConnection.id, "example-corp.test")).toEqual({ domain: "example-corp.test", verified: false })
    app.txt.set(added.record.name, [["v=spf1 -all"], ["authlib-sso-verification=", "wrong"]])
    expect((await verifySsoDomain(app.adminRequest(), app.config, acmeConnection.id, "example-corp.test")).verified).toBe(false)
    // A long TXT record arrives in chunks: they are joined.
    const value = added.record.value
    app.txt.set(added.record.name, [[value.slice(0, 10), value.slice(10)]])
    expect(await verifySsoDomain(app.adminRequest(), app.config, acmeConnection.id, "example-corp.test")).toEqual({ domain: "example-corp.test", verified: true })

    // Another organization publishing its own record for the same domain cannot take it over.
    const globex = await createOrganization(app.adminRequest(), app.config, { name: "Globex", slug: "globex" })
    const globexConnection = await createSsoConnection(app.adminRequest(), app.config, globex.id, samlInput())
    const theirs = await addSsoDomain(app.adminRequest(), app.config, globexConnection.id, "example-corp.test")
    app.txt.set(theirs.record.name, [[value], [theirs.record.value]])
    expect(await verifySsoDomain(app.adminRequest(), app.config, globexConnection.id, "example-corp.test")).toEqual({ domain: "example-corp.test", verified: false })
    await expect(verifySsoDomain(app.adminRequest(), app.config, globexConnection.id, "other.test")).rejects.toMatchObject({ type: "SsoError", code: "DOMAIN_UNKNOWN" })
    await expect(addSsoDomain(app.adminRequest(), app.config, globexConnection.id, "localhost")).rejects.toMatchObject({ type: "SsoError", code: "DOMAIN_INVALID" })
  })

  it("deleting a connection frees its domain and its metadata is gone", async () => {
    const connection = await createSsoConnection(app.adminRequest(), app.config, organizationId, samlInput())
    await deleteSsoConnection(app.adminRequest(), app.config, connection.id)
    expect(store.ssoConnections.has(connection.id)).toBe(false)
    const res = await fetchMetadata(connection.id)
    expect(res.status).toBe(302)
    expect(res.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=SsoSignInError&code=CONNECTION_UNKNOWN`)
  })

  it("without the sso option the functions answer UnknownAction", async () => {
    const { sso: _sso, ...rest } = app.config as AuthConfig & { sso?: unknown }
    const config = { ...rest, providers: rest.providers.filter((p) => (p as { type?: string }).type !== "sso") } as AuthConfig
    await expect(listSsoConnections(app.adminRequest(), config, organizationId)).rejects.toMatchObject({ type: "UnknownAction" })
  })
})

async function fetchMetadata(connectionId: string): Promise<Response> {
  const { Auth } = await import("@authlib/core")
  return Auth(new Request(`${ORIGIN}/auth/sso/metadata/${connectionId}`), app.config)
}
